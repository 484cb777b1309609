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

Which estimator each function is:
  ess(draws): eval/ess.h (C++): Geyer's initial monotone sequence in Stan's multi-chain form
    on the draws as they are: NOT split, NOT rank-normalised (ArviZ's method="identity"
    up to its end-of-sequence rule). It estimates the ESS of the mean of a finite-variance
    quantity; use ess_bulk for ArviZ's default.
  ess_bulk(draws): Vehtari et al. (2021), "Rank-normalization, folding, and localization",
    Sec. 4.2: the ESS of the rank-normalised split chains (each chain split in halves, the
    middle draw of an odd chain dropped; ranks r over all draws, z = Φ⁻¹((r - 3/8)/(S + 1/4))),
    ArviZ's az.ess(method="bulk") (its default).
  ess_tail(draws, prob=(0.05, 0.95)): Vehtari et al. (2021), Sec. 4.3: the smaller ESS of the
    split indicator chains I(θ <= q_0.05) and I(θ <= q_0.95) (NumPy's default linear
    quantiles), ArviZ's az.ess(method="tail").
  rhat(draws): Vehtari et al. (2021), Sec. 4.1-4.2: the rank-normalised split R-hat,
    max(R̂ of the z-scaled split chains, R̂ of the z-scaled folded split chains |θ - median|),
    R̂ = sqrt(((n-1)/n W + B/n) / W) with W the mean within-chain variance (ddof 1) and B/n
    the variance of the chain means (ddof 1): ArviZ's az.rhat (method="rank", its default).
    Needs >= 2 chains (NaN otherwise, as ArviZ).
  split_rhat(draws): eval/rhat.h (C++): the classic split R-hat of BDA3 eq. 11.4 on the
    draws as they are (no rank normalisation, no folding): ArviZ's method="split".
  The three ArviZ-definition estimators share one core, _geyer_ess: autocovariances by FFT
  (normalised by n), ρ̂_t = 1 - (W - mean_j γ̂_{j,t}) / var⁺, Geyer's initial positive
  sequence over pairs (ρ̂_{2k} + ρ̂_{2k+1}) made monotone, τ̂ = -1 + 2 Σ_{t <= K'} ρ̂_t +
  ρ̂_{K'+1} (the last positive even term once), ESS = m n / max(τ̂, 1/log10(m n)); draws
  that are constant to within float64 resolution have ESS = m n. They are NumPy (a few
  vectorised passes; O(m n log n)), tested against an independent direct-sum
  implementation in tests/diagnostics_test.py to 1e-10.
  ksd's standard_error is that of the linear statistic; the V- and U-statistics have no
  standard error estimate here: NaN (not 0.0).
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
    """Kernel Stein discrepancy (see the module docstring). standard_error is NaN for the
    "v" and "u" statistics (no estimate; it was reported as 0.0)."""
    return _sgmcmc.ksd(_real("draws", draws), _real("scores", scores),
                       _real("weights", weights), c, beta, statistic)


def _chains(draws, what):
    """draws as (chains, n, d) float64 from (n,), (chains, n) or (chains, n, d), and whether
    the input had a parameter axis."""
    draws = np.asarray(_real("draws", draws), dtype=np.float64)
    if draws.ndim == 1:
        draws = draws[None, :, None]
        per_parameter = False
    elif draws.ndim == 2:
        draws = draws[:, :, None]
        per_parameter = False
    elif draws.ndim == 3:
        per_parameter = True
    else:
        raise ValueError("%s: draws must have shape (n,), (chains, n) or (chains, n, d), got "
                         "%d dimensions" % (what, draws.ndim))
    if draws.shape[1] < 4:
        raise ValueError("%s: need chains of at least 4 draws, got %d" % (what, draws.shape[1]))
    return draws, per_parameter


def _split(x):
    """(2m, n//2): each chain's first and last halves (the middle draw of an odd n dropped)."""
    half = x.shape[1] // 2
    return np.concatenate([x[:, :half], x[:, x.shape[1] - half:]], axis=0)


def _z_scale(x):
    """Rank normalisation over all draws: Φ⁻¹((r - 3/8)/(S + 1/4)), average ranks for ties."""
    from scipy import special, stats
    ranks = stats.rankdata(x, method="average").reshape(x.shape)
    return special.ndtri((ranks - 0.375) / (x.size + 0.25))


def _geyer_ess(x):
    """ESS of (m, n) chains by Geyer's initial monotone sequence, Stan's multi-chain form
    (module docstring)."""
    x = np.asarray(x, dtype=np.float64)
    m, n = x.shape
    if not np.all(np.isfinite(x)):
        return float("nan")
    if np.max(x) - np.min(x) < np.finfo(np.float64).resolution:
        return float(x.size)
    centred = x - x.mean(axis=1, keepdims=True)
    size = 1 << int(np.ceil(np.log2(2 * n)))
    spectrum = np.fft.rfft(centred, n=size, axis=1)
    acov = np.fft.irfft(spectrum * np.conj(spectrum), n=size, axis=1)[:, :n] / n
    mean_acov = acov.mean(axis=0)
    within = mean_acov[0] * n / (n - 1.0)
    var_plus = within * (n - 1.0) / n
    if m > 1:
        var_plus += np.var(x.mean(axis=1), ddof=1)
    rho = np.zeros(n)
    rho[0] = rho_even = 1.0
    rho[1] = rho_odd = 1.0 - (within - mean_acov[1]) / var_plus
    t = 1
    while t < n - 3 and rho_even + rho_odd > 0.0:
        rho_even = 1.0 - (within - mean_acov[t + 1]) / var_plus
        rho_odd = 1.0 - (within - mean_acov[t + 2]) / var_plus
        if rho_even + rho_odd >= 0:
            rho[t + 1], rho[t + 2] = rho_even, rho_odd
        t += 2
    last = t - 2
    if rho_even > 0:
        rho[last + 1] = rho_even
    for t in range(1, last - 1, 2):
        if rho[t + 1] + rho[t + 2] > rho[t - 1] + rho[t]:
            rho[t + 1] = rho[t + 2] = (rho[t - 1] + rho[t]) / 2.0
    tau = -1.0 + 2.0 * rho[:last + 1].sum() + rho[last + 1:last + 2].sum()
    total = m * n
    return float(total / max(tau, 1.0 / np.log10(total)))


def _split_rhat(x):
    m, n = x.shape
    chain_var = np.var(x, axis=1, ddof=1)
    between = n * np.var(x.mean(axis=1), ddof=1)
    within = chain_var.mean()
    return float(np.sqrt((between / within + n - 1) / n))


def _per_parameter(draws, what, statistic):
    draws, per_parameter = _chains(draws, what)
    values = np.array([statistic(draws[:, :, k]) for k in range(draws.shape[2])])
    return values if per_parameter else float(values[0])


def ess_bulk(draws):
    """Bulk ESS (Vehtari et al. 2021; ArviZ's az.ess default): see the module docstring."""
    return _per_parameter(draws, "ess_bulk", lambda x: _geyer_ess(_z_scale(_split(x))))


def ess_tail(draws, prob=(0.05, 0.95)):
    """Tail ESS (Vehtari et al. 2021; az.ess(method="tail")): see the module docstring."""
    low, high = prob

    def tail(x):
        q_low, q_high = np.quantile(x, [low, high])
        return min(_geyer_ess(_split(x <= q_low)), _geyer_ess(_split(x <= q_high)))

    return _per_parameter(draws, "ess_tail", tail)


def rhat(draws):
    """Rank-normalised split R-hat (Vehtari et al. 2021; az.rhat's default): see the module
    docstring. NaN for a single chain."""
    def rank_rhat(x):
        if x.shape[0] < 2:
            return float("nan")
        split = _split(x)
        folded = np.abs(split - np.median(split))
        return max(_split_rhat(_z_scale(split)), _split_rhat(_z_scale(folded)))

    return _per_parameter(draws, "rhat", rank_rhat)


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
