#!/usr/bin/env python3
"""Writes the papers' online-LDA text stream: 20 Newsgroups raw text plus Reuters-21578 as one
file with one document per line, in a seeded random order (so the first N lines, set aside as
held-out documents by the lda tool's stream.held_out_documents, are a uniform sample).

20 Newsgroups: every message of 20news-bydate (train and test) without its header block (the
lines before the first blank line). Reuters-21578: TITLE + BODY of every <REUTERS> element
(the whole TEXT element when there is no BODY), SGML entities decoded. Tokenization is left to
the lda tool (data/tokenizer.h), so this only extracts and orders text.

Usage: lda_online_text.py SHARED_DATA_DIR OUTPUT.txt [--seed 1]
"""
import argparse
import html
import io
import random
import re
import sys
import tarfile


def newsgroups(path):
    with tarfile.open(path) as tar:
        for member in tar:
            if not member.isfile():
                continue
            raw = tar.extractfile(member).read().decode("latin-1")
            _, _, body = raw.partition("\n\n")
            yield body


def reuters(path):
    text_re = re.compile(r"<TEXT[^>]*>(.*?)</TEXT>", re.S)
    title_re = re.compile(r"<TITLE>(.*?)</TITLE>", re.S)
    body_re = re.compile(r"<BODY>(.*?)</BODY>", re.S)
    with tarfile.open(path) as tar:
        names = sorted(m.name for m in tar if m.name.endswith(".sgm"))
        for name in names:
            sgml = tar.extractfile(name).read().decode("latin-1")
            for element in sgml.split("</REUTERS>"):
                match = text_re.search(element)
                if match is None:
                    continue
                text = match.group(1)
                body = body_re.search(text)
                if body is not None:
                    title = title_re.search(text)
                    text = (title.group(1) + "\n" if title else "") + body.group(1)
                yield html.unescape(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data_dir")
    parser.add_argument("output")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    documents = list(newsgroups(f"{args.data_dir}/20newsgroups/20news-bydate.tar.gz"))
    n20 = len(documents)
    documents += list(reuters(f"{args.data_dir}/reuters21578/reuters21578.tar.gz"))
    random.Random(args.seed).shuffle(documents)
    with io.open(args.output, "w", encoding="utf-8") as out:
        for doc in documents:
            out.write(" ".join(doc.split()) + "\n")
    print(f"{len(documents)} documents ({n20} from 20 Newsgroups, {len(documents) - n20} from "
          f"Reuters-21578) -> {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
