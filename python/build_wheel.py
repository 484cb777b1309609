#!/usr/bin/env python3
"""Builds the sgmcmc wheel from Bazel's outputs (//python:wheel runs it; nothing is downloaded).

Usage: build_wheel.py OUT.whl VERSION FILE=ARCNAME...
Each FILE is stored at ARCNAME (the extension, the package's .py files, the KOS corpus and its
README); the dist-info (METADATA, WHEEL, RECORD with hashes) is written by the wheel module.
The wheel holds a binary extension for one interpreter and platform, named by its tag, and
links Debian's shared Abseil and protobuf libraries: it installs on the Debian release it was
built on (with libabsl and libprotobuf present), e.g. into a venv with --system-site-packages
for numpy and scipy.
"""

import os
import sys

from wheel.wheelfile import WheelFile

METADATA = """Metadata-Version: 2.1
Name: sgmcmc
Version: {version}
Summary: Stochastic-gradient MCMC samplers and LDA (C++ library with Python bindings)
License: see LICENSE in the source repository
Requires-Python: >=3.9
Requires-Dist: numpy
Requires-Dist: scipy

The sgmcmc C++ library for Python: sgmcmc.LDA (scikit-learn estimator), sampler step
functions over NumPy arrays, and MCMC diagnostics.
"""


def main(argv):
    out, version = argv[1], argv[2]
    tag = os.path.basename(out)[:-len(".whl")].split("-", 2)[2]
    info = "sgmcmc-%s.dist-info" % version
    with WheelFile(out, "w") as wheel:
        for item in argv[3:]:
            path, arcname = item.split("=", 1)
            wheel.write(path, arcname)
        wheel.writestr(info + "/METADATA", METADATA.format(version=version))
        wheel.writestr(info + "/WHEEL", "Wheel-Version: 1.0\nGenerator: sgmcmc build_wheel.py\n"
                       "Root-Is-Purelib: false\nTag: %s\n" % tag)
        wheel.writestr(info + "/top_level.txt", "sgmcmc\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
