"""Checks an extension module (ELF shared object) against a manylinux policy, as auditwheel's
`show` does: the libraries it NEEDs must be on the policy's list, and the symbol versions it
requires from them (readelf's version-needs section) must not exceed the policy's.

The policy is manylinux_2_28 for x86_64 as pypa/auditwheel's manylinux-policy.json defines it
(PEP 600): the libraries below, GLIBC <= 2.28, GLIBCXX <= 3.4.24, CXXABI <= 1.3.11,
GCC <= 7.0.0. Uses binutils' readelf (Debian's binutils, installed with g++).

Usage: python3 wheel_policy.py FILE.so  (prints the violations; exit status 1 if any)
"""

import re
import subprocess
import sys

ALLOWED_LIBRARIES = frozenset([
    "libgcc_s.so.1", "libstdc++.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libc.so.6",
    "libnsl.so.1", "libutil.so.1", "libpthread.so.0", "libresolv.so.2", "libX11.so.6",
    "libXext.so.6", "libXrender.so.1", "libICE.so.6", "libSM.so.6", "libGL.so.1",
    "libgobject-2.0.so.0", "libgthread-2.0.so.0", "libglib-2.0.so.0", "libexpat.so.1",
    "libz.so.1", "ld-linux-x86-64.so.2"])
MAX_VERSIONS = {"GLIBC": (2, 28), "GLIBCXX": (3, 4, 24), "CXXABI": (1, 3, 11), "GCC": (7, 0, 0)}


def _readelf(flag, path):
    return subprocess.run(["readelf", flag, "--wide", path], check=True, capture_output=True,
                          text=True).stdout


def needed_libraries(path):
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", _readelf("-d", path))


def version_needs(path):
    """{library: [version names]} from the version-needs section (.gnu.version_r)."""
    needs, library = {}, None
    for line in _readelf("-V", path).splitlines():
        found = re.search(r"File: (\S+)", line)
        if found:
            library = found.group(1)
            needs.setdefault(library, [])
            continue
        found = re.search(r"Name: (\S+)", line)
        if found and library is not None:
            needs[library].append(found.group(1))
    return needs


def _parse(version):
    found = re.fullmatch(r"([A-Z]+)_([0-9.]+)", version)
    if not found:
        return None, None
    return found.group(1), tuple(int(part) for part in found.group(2).split("."))


def violations(path):
    """Sorted messages, one per library not allowed and per symbol version above the policy."""
    out = ["needs %s (not in manylinux_2_28's library list)" % library
           for library in needed_libraries(path) if library not in ALLOWED_LIBRARIES]
    for library, versions in version_needs(path).items():
        if library not in ALLOWED_LIBRARIES:
            continue
        for version in versions:
            prefix, number = _parse(version)
            if prefix in MAX_VERSIONS and number > MAX_VERSIONS[prefix]:
                out.append("needs %s from %s (manylinux_2_28 allows %s <= %s)" % (
                    version, library, prefix, ".".join(map(str, MAX_VERSIONS[prefix]))))
    return sorted(set(out))


def main(argv):
    problems = violations(argv[1])
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
