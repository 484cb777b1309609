#!/usr/bin/env python3
"""Where the topics put their mass: per word-frequency rank bin, for .phi topic matrices.

For corpora of tools/lda_generate_corpus, whose word ids are ranks of the Zipf base measure
(id 0 the most frequent), this shows how much of each topic's mass sits on the head words and
how much on the tail, against the true topics and the held-out tokens. It is how the K = 1000
runs of bench/README.md ("K = 1000: where the mass goes") were diagnosed.

  /usr/bin/python3 bench/lda_topic_mass.py --heldout=/tmp/big/c1e5/heldout.docword.txt \
      /tmp/big/c1e5/topics.phi run1/topics.phi run2/topics.phi

Per file: the mean over topics of the mass on each rank bin (and the held-out tokens' share of
each bin), the quantiles of the mass on the 100 most frequent words over the topics, the number
of topics with more than 0.3 of their mass there, and the quantiles of the topics' entropies
(nats). Rows are normalised first. Cost: O(K V) per file (numpy; a 1000 x 50,000 file needs
400 MB).
"""
import argparse
import struct

import numpy as np

BINS = [(0, 100), (100, 1000), (1000, 10000), (10000, None)]


def read_phi(path):
    with open(path, "rb") as f:
        header = f.read(24)
    if header[:8] != b"SGMCPHI1":
        raise SystemExit(f"{path}: not a .phi file (magic {header[:8]!r})")
    k, v = struct.unpack("<II", header[8:16])
    phi = np.fromfile(path, "<f8", offset=24)
    if phi.size != k * v:
        raise SystemExit(f"{path}: {phi.size} values, header says {k} x {v}")
    phi = phi.reshape(k, v)
    return phi / phi.sum(axis=1, keepdims=True)


def heldout_shares(path, v):
    counts = np.zeros(v)
    with open(path) as f:
        header = [int(f.readline()) for _ in range(3)]
        if header[1] != v:
            raise SystemExit(f"{path}: V = {header[1]}, the topics have {v}")
        for line in f:
            _, w, c = line.split()
            counts[int(w) - 1] += int(c)
    return counts / counts.sum()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heldout", help="UCI docword file of held-out documents (optional)")
    parser.add_argument("phi", nargs="+", help=".phi topic matrices (the tool's format)")
    args = parser.parse_args()
    shares = None
    for path in args.phi:
        phi = read_phi(path)
        v = phi.shape[1]
        if args.heldout and shares is None:
            shares = heldout_shares(args.heldout, v)
            print("held-out tokens  " + "  ".join(
                f"{a}-{b or v}: {shares[a:b].sum():.3f}" for a, b in BINS))
        masses = "  ".join(f"{a}-{b or v}: {phi[:, a:b].sum(axis=1).mean():.3f}" for a, b in BINS)
        head = phi[:, :100].sum(axis=1)
        entropy = -(phi * np.log(np.maximum(phi, 1e-300))).sum(axis=1)
        print(f"{path}\n  mean topic mass  {masses}")
        print(f"  head-100 mass quantiles (0, .1, .5, .9, 1): "
              f"{np.quantile(head, [0, .1, .5, .9, 1]).round(3).tolist()}; "
              f"topics with head > 0.3: {(head > 0.3).sum()} of {phi.shape[0]}")
        print(f"  entropy quantiles (0, .5, 1): {np.quantile(entropy, [0, .5, 1]).round(2).tolist()}")


if __name__ == "__main__":
    main()
