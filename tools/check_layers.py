#!/usr/bin/env python3
"""Checks that sgmcmc's #includes respect its four floors (README.md, "Layout").

Every .h/.cc under the repository's packages is scanned (bazel-* output trees, examples/ and
third_party/ are skipped). An include counts only if its repo-rooted path names a file of
the repository, so third-party headers and Bazel's own "tools/cpp/runfiles/runfiles.h" are
not mistaken for packages of ours. A package is a top-level directory (rng/internal belongs
to rng; the model families models/lda, models/dp, ... all belong to models and may include
each other). The script prints the floor map (floors, their packages, and the package-level
include edges with counts) and exits 1 with file:line for every include that

  - points to a package on a higher floor,
  - points to a package on the same floor that SAME_FLOOR_ALLOWED does not list,
  - reaches into another package's internal/ directory,
  - comes from a package that is on no floor,

and for every cycle between packages. Test and benchmark code count like any other code.

Usage:
  python3 tools/check_layers.py              # the repository this script lives in
  python3 tools/check_layers.py --root DIR   # another checkout
  python3 tools/check_layers.py --self-test  # proves the check fails on planted violations
"""

import argparse
import collections
import os
import re
import sys
import tempfile

# Floor -> its packages, bottom floor first. Nothing includes a package of a higher floor.
FLOORS = [
    ("1 foundation", ["base", "testing", "math", "rng", "linalg", "parallel"]),
    ("2 components", ["data", "eval", "samplers"]),
    ("3 models", ["models"]),
    ("4 tools", ["tools", "python", "bench", "examples", "fuzz"]),
]

# Inside a floor, package -> the packages of the same floor it may include. Floor 1 is
# base <- testing <- math <- {rng, linalg, parallel} (testing sits below math because math's
# own tests use testing's matchers; testing uses nothing of math), and rng, linalg and
# parallel do not include each other. Floor 2: eval may include data, samplers may include
# eval; data includes neither and samplers never include data.
SAME_FLOOR_ALLOWED = {
    "base": set(),
    "testing": {"base"},
    "math": {"base", "testing"},
    "rng": {"base", "testing", "math"},
    "linalg": {"base", "testing", "math"},
    "parallel": {"base", "testing", "math"},
    "data": set(),
    "eval": {"data"},
    "samplers": {"eval"},
    "models": set(),
    "tools": set(),
    "python": set(),
    "bench": set(),
    "examples": set(),
    "fuzz": {"tools"},  # the fuzz targets read checkpoints and configs through tools/
}

SKIPPED_TOP_DIRS = {"examples", "third_party"}
SOURCE_SUFFIXES = (".h", ".cc")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def floor_of(package):
    for index, (_, packages) in enumerate(FLOORS):
        if package in packages:
            return index
    return None


def source_files(root):
    """Repo-relative paths of the .h/.cc files of the packages, sorted."""
    found = []
    for top in sorted(os.listdir(root)):
        path = os.path.join(root, top)
        if (not os.path.isdir(path) or top.startswith((".", "bazel-")) or
                top in SKIPPED_TOP_DIRS or os.path.islink(path)):
            continue
        for directory, subdirs, files in os.walk(path):
            subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    found.append(os.path.relpath(os.path.join(directory, name), root))
    return found


def package_of(relative_path):
    return relative_path.split(os.sep)[0]


def includes(root, relative_path):
    """(line number, included path) for every quoted include that names a repository file."""
    with open(os.path.join(root, relative_path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            match = INCLUDE_RE.match(line)
            if match and os.path.isfile(os.path.join(root, match.group(1))):
                yield number, match.group(1)


def violation(source_package, target_path):
    """Why an include of target_path from source_package is not allowed, or None."""
    target_package = target_path.split("/")[0]
    if target_package == source_package:
        return None
    if "/internal/" in "/" + target_path:
        return "reaches into %s's internals" % target_package
    source_floor, target_floor = floor_of(source_package), floor_of(target_package)
    if source_floor is None:
        return "package %s is on no floor (add it to FLOORS)" % source_package
    if target_floor is None:
        return "package %s is on no floor (add it to FLOORS)" % target_package
    if target_floor > source_floor:
        return "upward: floor %s includes floor %s" % (FLOORS[source_floor][0],
                                                       FLOORS[target_floor][0])
    if target_floor == source_floor and target_package not in SAME_FLOOR_ALLOWED.get(
            source_package, set()):
        return "same floor %s, not allowed by the order inside the floor" % (
            FLOORS[source_floor][0])
    return None


def package_cycles(edges):
    """Strongly connected components with more than one package (Tarjan)."""
    graph = collections.defaultdict(set)
    for (a, b) in edges:
        graph[a].add(b)
    index, low, stack, on_stack, result = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return result


def check(root):
    """Returns (edge counts, violations, cycles, packages seen)."""
    edges = collections.Counter()
    violations = []
    packages = set()
    for path in source_files(root):
        source_package = package_of(path)
        packages.add(source_package)
        for number, included in includes(root, path):
            target_package = included.split("/")[0]
            if target_package != source_package:
                edges[(source_package, target_package)] += 1
            why = violation(source_package, included)
            if why:
                violations.append("%s:%d: #include \"%s\": %s" % (path, number, included, why))
    return edges, violations, package_cycles(edges), packages


def print_report(edges, violations, cycles, packages, out):
    out.write("Floors (bottom first; a package may include lower floors, and inside its floor "
              "only what SAME_FLOOR_ALLOWED lists):\n")
    for name, floor_packages in FLOORS:
        present = [p for p in floor_packages if p in packages]
        out.write("  floor %s: %s\n" % (name, ", ".join(present) if present else "(none)"))
    unplaced = sorted(p for p in packages if floor_of(p) is None)
    if unplaced:
        out.write("  on no floor: %s\n" % ", ".join(unplaced))
    out.write("Package edges (includes counted per line):\n")
    for (a, b), count in sorted(edges.items(), key=lambda item: (
            floor_of(item[0][0]) if floor_of(item[0][0]) is not None else 99, item[0])):
        mark = ""
        if floor_of(a) is not None and floor_of(b) is not None and violation(a, b + "/x"):
            mark = "   <-- not allowed"
        out.write("  %-9s -> %-9s %5d%s\n" % (a, b, count, mark))
    for cycle in cycles:
        out.write("cycle between packages: %s\n" % " <-> ".join(cycle))
    for line in violations:
        out.write(line + "\n")
    out.write("%d include(s) against the layering, %d package cycle(s)\n" %
              (len(violations), len(cycles)))


def self_test():
    """Plants violations in a scratch tree and checks each one is reported."""
    files = {
        "base/check.h": "",
        "testing/helper.h": '#include "base/check.h"\n',
        "math/special.h": '#include "testing/helper.h"\n',
        "rng/engine.h": '#include "math/special.h"\n#include "tools/cpp/runfiles/runfiles.h"\n',
        "rng/internal/detail.h": "",
        "linalg/ok.cc": '#include "math/special.h"\n#include "testing/helper.h"\n',
        "eval/ess.h": '#include "base/check.h"\n',
        "samplers/sgld.h": '#include "eval/ess.h"\n',
        "models/lda/lda.h": '#include "samplers/sgld.h"\n',
        # Families of models are subpackages of the one package "models": they may use each
        # other, and tools above them may use any of them.
        "models/dp/mixture.h": '#include "models/lda/lda.h"\n#include "samplers/sgld.h"\n',
        "tools/run.h": '#include "models/dp/mixture.h"\n#include "models/lda/lda.h"\n',
    }
    planted = {
        "linalg/bad.cc": ('#include "rng/engine.h"\n', "same floor"),
        "rng/up.cc": ('\n#include "models/lda/lda.h"\n', "upward"),
        "samplers/data_user.cc": ('#include "data/reader.h"\n', "same floor"),
        "data/reader.h": ('#include "eval/ess.h"\n', "same floor"),
        "eval/peek.cc": ('#include "rng/internal/detail.h"\n', "internals"),
        "newpkg/x.cc": ('#include "base/check.h"\n', "on no floor"),
        "samplers/cycle.cc": ('#include "models/lda/lda.h"\n', "upward"),
        "models/mf/up.cc": ('#include "tools/run.h"\n', "upward"),
    }
    failures = []
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)

        for path, text in files.items():
            write(path, text)
        _, violations, cycles, _ = check(root)
        if violations or cycles:
            failures.append("clean tree reported %s %s" % (violations, cycles))
        for path, (text, _) in planted.items():
            write(path, text)
        _, violations, cycles, _ = check(root)
        for path, (text, why) in planted.items():
            line = 2 if text.startswith("\n") else 1
            prefix = "%s:%d:" % (path, line)
            if not any(v.startswith(prefix) and why in v for v in violations):
                failures.append("planted %s (%s) not reported: %s" % (path, why, violations))
        if not any({"models", "samplers"} <= set(c) for c in cycles):
            failures.append("cycle samplers <-> models not reported: %s" % cycles)
        if len(violations) != len(planted):
            failures.append("expected %d violations, got %s" % (len(planted), violations))
    for failure in failures:
        print("self-test FAILED: " + failure)
    if not failures:
        print("self-test passed: %d planted violations reported, the clean tree passes" %
              len(planted))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), help="repository root (default: this script's repo)")
    parser.add_argument("--self-test", action="store_true",
                        help="check that planted violations are reported, then exit")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    edges, violations, cycles, packages = check(args.root)
    print_report(edges, violations, cycles, packages, sys.stdout)
    return 1 if violations or cycles else 0


if __name__ == "__main__":
    sys.exit(main())
