# shellcheck shell=sh
# Shell set-up and functions for the tools' MPI sh_tests (sourced, not run). Sourcing it sets
# LSAN_OPTIONS so that, under --config=asan, Open MPI's own allocations are not reported as
# leaks of ours (full stacks: Debian's libmpi has no frame pointers, so the fast unwinder
# stops inside it), and defines:
#   mpi ARGS...                 mpirun on loopback, oversubscribed, killed after
#                               ${MPI_TIMEOUT:-300} s (set MPI_TIMEOUT before sourcing);
#   descendants PID             every descendant process id of PID, one per line;
#   ranks_of JOB NAME COUNT     the ids of the COUNT processes whose command name (ps comm,
#                               at most 15 characters) is NAME among JOB's descendants, on one
#                               line, once all of them run; status 1 after 15 s without them.
suppressions="${TEST_SRCDIR}/${TEST_WORKSPACE}/third_party/openmpi_lsan_suppressions.txt"
LSAN_OPTIONS="suppressions=${suppressions}:fast_unwind_on_malloc=0${LSAN_OPTIONS:+:${LSAN_OPTIONS}}"
export LSAN_OPTIONS
mpi() { timeout "${MPI_TIMEOUT:-300}" mpirun --allow-run-as-root --oversubscribe --mca btl self,vader,tcp "$@"; }
descendants() {
  for child in $(ps -o pid= --ppid "$1"); do
    echo "${child}"
    descendants "${child}"
  done
}
ranks_of() {
  for _ in $(seq 1 300); do
    found=""
    for pid in $(descendants "$1"); do
      if [ "$(ps -o comm= -p "${pid}")" = "$2" ]; then found="${found} ${pid}"; fi
    done
    # shellcheck disable=SC2086
    if [ "$(echo ${found} | wc -w)" -ge "$3" ]; then
      echo "${found}"
      return 0
    fi
    sleep 0.05
  done
  return 1
}
#   kill_at_seeded_points SEED MIN SPAN NAME COUNT LOG COMMAND...
#                               three times: starts COMMAND (an mpirun of COUNT ranks named
#                               NAME; stdin /dev/null, output to LOG) in the background, kills
#                               a seeded rank with SIGKILL after a seeded MIN + [0, SPAN) s,
#                               and fails unless the job ends with an error (exit code not 0,
#                               not 124: a hang) naming the signal.
kill_at_seeded_points() {
  seed="$1"; lo="$2"; span="$3"; name="$4"; count="$5"; log="$6"
  shift 6
  points="$(awk -v s="${seed}" -v lo="${lo}" -v span="${span}" -v n="${count}" 'BEGIN { srand(s)
    for (i = 0; i < 3; ++i) printf "%d:%.2f ", int(rand() * n), lo + span * rand() }')"
  for point in ${points}; do
    victim="${point%%:*}"
    delay="${point#*:}"
    "$@" < /dev/null > "${log}" 2>&1 &
    launcher=$!
    pids="$(ranks_of "${launcher}" "${name}" "${count}")" || return 1
    # shellcheck disable=SC2086  # unquoted on purpose: drops the leading blank
    pid="$(echo ${pids} | cut -d' ' -f"$((victim + 1))")"
    sleep "${delay}"
    kill -9 "${pid}"
    code=0
    wait "${launcher}" || code=$?
    if [ "${code}" -eq 0 ] || [ "${code}" -eq 124 ]; then
      echo "rank ${victim} killed after ${delay} s: exit code ${code} (0: no error; 124: hang)" >&2
      cat "${log}" >&2
      return 1
    fi
    grep -qi "signal 9\|killed" "${log}" || return 1
    killed_points=$((${killed_points:-0} + 1))
  done
}
