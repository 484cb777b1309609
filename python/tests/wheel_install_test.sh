#!/usr/bin/env bash
# Installs the wheel (//python:wheel, $1) into a fresh virtual environment made by Debian's
# Python with --system-site-packages (numpy, scipy from Debian), offline (--no-index), then
# imports sgmcmc from outside the source tree and fits LDA on the bundled KOS corpus.
set -euo pipefail

wheel="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work="${TEST_TMPDIR:-$(mktemp -d)}/wheel_install"
rm -rf "${work}"
# --without-pip and Debian's pip pointed at the venv (pip --python): the same install as the
# venv's own pip, without the 10 s of copying pip into every fresh venv.
/usr/bin/python3 -m venv --system-site-packages --without-pip "${work}/venv"
/usr/bin/python3 -m pip --python "${work}/venv/bin/python" install --no-index \
  --disable-pip-version-check --quiet "${wheel}"

cd "${work}"
"${work}/venv/bin/python" - <<'PY'
import os
import sgmcmc
assert os.path.dirname(sgmcmc.__file__).startswith(os.getcwd()), sgmcmc.__file__
kos = sgmcmc.datasets.load_kos(seed=1)
assert kos.train.shape == (3087, 6906), kos.train.shape
lda = sgmcmc.LDA(n_components=3, max_iter=2, gibbs_sweeps=2, eval_sweeps=2, n_threads=1)
theta = lda.fit(kos.train[:200]).transform(kos.test_observed[:5])
assert theta.shape == (5, 3)
try:
    sgmcmc.LDA(alpha=-1).fit(kos.train[:10])
except ValueError as error:
    assert "alpha" in str(error)
else:
    raise AssertionError("no ValueError")
print("installed and imported:", sgmcmc.__file__)
PY
