#!/usr/bin/env bash
# Alternating A/B timing of gibbs_benchmark builds on one core (bench/README.md, "The sparse
# sweep at large K"): each round runs every binary once, in turn, pinned to CPU 1, so slow
# spells of a shared machine fall on all of them; prints each binary's median, upper quartile
# and maximum of items_per_second (token updates per second, millions).
#
#   bash bench/gibbs_ab.sh ROUNDS FILTER BINARY [BINARY ...]
#   bash bench/gibbs_ab.sh 10 'GibbsSweepGenerated/K:1000/alpha_x1000:10$' /tmp/gb_main /tmp/gb_new
#
# Build a binary with `./bazelw build --config=bench //models/lda:gibbs_benchmark` and copy it
# out of `$(./bazelw info --config=bench bazel-bin)/models/lda/` before changing the source.
set -euo pipefail
if (($# < 3)); then
  echo "usage: $0 ROUNDS FILTER BINARY [BINARY ...]" >&2
  exit 2
fi
rounds="$1"
filter="$2"
shift 2
results="$(mktemp)"
trap 'rm -f "${results}"' EXIT
for ((r = 0; r < rounds; ++r)); do
  for binary in "$@"; do
    rate="$(taskset -c 1 "${binary}" --benchmark_filter="${filter}" --benchmark_min_time=0.3 2>&1 |
      grep -oE 'items_per_second=[0-9.]+M' | head -n 1 | grep -oE '[0-9.]+')"
    echo "${binary} ${rate:-NaN}" >> "${results}"
  done
done
for binary in "$@"; do
  awk -v b="${binary}" '$1 == b {print $2}' "${results}" | sort -g |
    awk -v b="${binary}" '{a[NR] = $1}
      END {printf "%s runs=%d median=%.2f q75=%.2f max=%.2f M/s\n", b, NR, a[int((NR + 1) / 2)],
           a[int(NR * 0.75 + 0.5)], a[NR]}'
done
