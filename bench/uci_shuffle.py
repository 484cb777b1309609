#!/usr/bin/env python3
"""Writes a UCI docword file with its documents in a random order (seeded), renumbered 1..D.

For streaming a corpus whose file is sorted by label (20 Newsgroups' bag of words is sorted by
newsgroup) through a tool that reads documents in file order; the entries of each document and
the header's W are kept, and D and NNZ are recounted (empty documents, which a docword file
does not list, are dropped).

    python3 bench/uci_shuffle.py SOURCE.txt[.gz] DEST.txt.gz SEED
"""
import gzip
import random
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, dest, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    opener = gzip.open if source.endswith(".gz") else open
    docs = {}
    with opener(source, "rt") as f:
        header = [int(f.readline()) for _ in range(3)]
        for number, line in enumerate(f, start=4):
            fields = line.split()
            if len(fields) != 3:
                sys.exit(f"{source}:{number}: expected 'docID wordID count', got {line!r}")
            doc, word, count = (int(x) for x in fields)
            docs.setdefault(doc, []).append((word, count))
    order = sorted(docs)
    random.Random(seed).shuffle(order)
    with gzip.open(dest, "wt") as g:
        g.write(f"{len(order)}\n{header[1]}\n{sum(len(docs[d]) for d in order)}\n")
        for new, old in enumerate(order, start=1):
            for word, count in docs[old]:
                g.write(f"{new} {word} {count}\n")


if __name__ == "__main__":
    main()
