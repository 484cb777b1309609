"""Corpora for the sgmcmc examples and tests, split exactly as the C++ `lda` tool splits them.

load_uci(docword, vocab, seed) reads a UCI bag-of-words corpus and draws its test documents
with the seed (data::LoadCorpusAndSplit: 10% of the documents; every 10th token of a test
document held out, the rest observed). load_kos(seed) does so for the KOS blog corpus that
ships with the repository (data/kos, CC BY 4.0) and with the wheel.
"""

import os

from sgmcmc import _inputs
from sgmcmc import _sgmcmc


class Corpus(dict):
    """A corpus and its held-out split; keys are also attributes.

    train, test_observed, test_held_out: scipy.sparse.csr_matrix counts (documents x words);
    vocabulary: list of words; description: one line saying what was read and split.
    """

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def load_uci(docword, vocab, seed=1):
    """Reads a UCI corpus (docword plain or gzip, vocab) and splits it with `seed`."""
    raw = _sgmcmc.load_uci_split(os.fspath(docword), os.fspath(vocab),
                                 _inputs.check_seed("seed", seed))
    return Corpus(train=_inputs.csr_matrix(raw["train"]),
                  test_observed=_inputs.csr_matrix(raw["test_observed"]),
                  test_held_out=_inputs.csr_matrix(raw["test_held_out"]),
                  vocabulary=list(raw["vocabulary"]), description=raw["description"])


def kos_directory():
    """The directory holding docword.kos.txt.gz and vocab.kos.txt.

    Looks in the installed package (sgmcmc/data/kos, the wheel), then in the source tree or
    Bazel runfiles (data/kos next to python/). FileNotFoundError lists what was tried.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(here, "data", "kos"),
                  os.path.join(os.path.dirname(os.path.dirname(here)), "data", "kos")]
    if os.environ.get("RUNFILES_DIR"):
        candidates.append(os.path.join(os.environ["RUNFILES_DIR"], "sgmcmc", "data", "kos"))
    for directory in candidates:
        if os.path.isfile(os.path.join(directory, "vocab.kos.txt")):
            return directory
    raise FileNotFoundError("KOS corpus not found; tried " + ", ".join(candidates))


def load_kos(seed=1):
    """The KOS corpus split with `seed`: the `lda` tool's default data for the same seed."""
    _inputs.check_seed("seed", seed)
    directory = kos_directory()
    return load_uci(os.path.join(directory, "docword.kos.txt.gz"),
                    os.path.join(directory, "vocab.kos.txt"), seed)
