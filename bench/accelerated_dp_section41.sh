#!/bin/bash
# §4.1's speed-up measurement of tools/accelerated_dp (issue 17): seeds 1-5, each run
# REPS times (only the seconds differ between repetitions: the draws are bit-identical), with
# the load average logged before every run; then bench/accelerated_dp_section41_table.py
# prints the table (medians over the repetitions).
#
# Usage: bench/accelerated_dp_section41.sh OUT_DIR LABEL COMMAND... [-- TOOL_FLAGS...]
#   e.g. bench/accelerated_dp_section41.sh /tmp/s41 threads10 \
#          bazel-bin/tools/accelerated_dp --workers=10
#        bench/accelerated_dp_section41.sh /tmp/s41 mpi2 mpirun --allow-run-as-root -np 2 \
#          bazel-bin/tools/accelerated_dp --backend=mpi
# Extra tool flags (e.g. --true_components=100) go after the command. REPS (default 3) and
# SEEDS (default "1 2 3 4 5") come from the environment. Runs under nice -n 5.
set -eu
out="$1"
label="$2"
shift 2
reps="${REPS:-3}"
seeds="${SEEDS:-1 2 3 4 5}"
mkdir -p "${out}/${label}"
for seed in ${seeds}; do
  for rep in $(seq 1 "${reps}"); do
    dir="${out}/${label}/s${seed}r${rep}"
    echo "s${seed}r${rep} $(uptime)" >> "${out}/${label}/load.txt"
    nice -n 5 "$@" --seed="${seed}" --output_dir="${dir}" --plot=false > "${dir}.log" 2>&1
  done
done
/usr/bin/python3 "$(dirname "$0")/accelerated_dp_section41_table.py" "${out}/${label}"
