"""MCMC diagnostics on NumPy arrays of draws, and draws in the CmdStan CSV layout.

  ess(draws), split_rhat(draws): draws of shape (n,), (chains, n) or (chains, n, d) (ArviZ's
    (chain, draw, parameter) order); a float, or one value per parameter for 3-D input.
    Effective sample size by Geyer's initial monotone sequence in Stan's multi-chain form
    (eval/ess.h); split R-hat (BDA3 eq. 11.4, eval/rhat.h).
  ksd(draws, scores, weights=None, c=1, beta=-0.5, statistic="v"|"u"|"linear"): kernel Stein
    discrepancy with the IMQ kernel (Gorham & Mackey 2017; eval/kernel_stein_discrepancy.h)
    of draws (n x d) given the target's score grad log p at each draw (n x d), weights None
    (uniform) or of shape (n,); a dict with ksd, squared, standard_error (linear statistic)
    and num_pairs.
  write_cmdstan_csv(path, draws, lp=None, name="theta", ...): lp None or of shape (n,);
    CmdStan's layout
    (eval/cmdstan_csv.h), readable by ArviZ / cmdstanr; read_cmdstan_csv(path) returns
    (columns, values (draws x columns), config dict) (eval/cmdstan_csv_reader.h).
"""

import numpy as np

from sgmcmc import _inputs
from sgmcmc import _sgmcmc


def _real(name, values):
    """values, unless they are complex: the extension's float64 conversion would drop the
    imaginary parts silently."""
    if values is not None and np.iscomplexobj(values):
        raise TypeError("%s must be real numbers, got a complex array" % name)
    return values


def ess(draws):
    """Effective sample size (see the module docstring)."""
    return _sgmcmc.ess(_real("draws", draws))


def split_rhat(draws):
    """Split R-hat (see the module docstring)."""
    return _sgmcmc.split_rhat(_real("draws", draws))


def ksd(draws, scores, weights=None, c=1.0, beta=-0.5, statistic="v"):
    """Kernel Stein discrepancy (see the module docstring)."""
    return _sgmcmc.ksd(_real("draws", draws), _real("scores", scores),
                       _real("weights", weights), c, beta, statistic)


def write_cmdstan_csv(path, draws, lp=None, name="theta", model="model", algorithm="sgmcmc",
                      num_warmup=0, thin=1, chain_id=1, seed=0, significant_digits=6):
    """Writes draws (n x d) as CmdStan does; parameters are named name.1 ... name.d."""
    check_int = _inputs.check_int
    _sgmcmc.write_cmdstan_csv(
        str(path), _real("draws", draws), _real("lp", lp), name, model, algorithm,
        check_int("num_warmup", num_warmup, 0, _inputs.INT64_MAX),
        check_int("thin", thin, 1, _inputs.INT64_MAX),
        check_int("chain_id", chain_id, 1, _inputs.INT32_MAX), _inputs.check_seed("seed", seed),
        check_int("significant_digits", significant_digits, 1, 17))


def read_cmdstan_csv(path):
    """(columns, values, config) of a CmdStan CSV file; config maps key -> first value."""
    try:
        raw = _sgmcmc.read_cmdstan_csv(str(path))
    except UnicodeDecodeError as e:  # names and comments are text: a binary file
        raise ValueError("%s: not a CmdStan CSV file (not UTF-8 text: %s)" % (path, e)) from None
    config = {}
    for key, value in raw["config"]:
        config.setdefault(key, value)
    return list(raw["columns"]), raw["values"], config
