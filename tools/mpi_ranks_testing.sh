# shellcheck shell=sh
# Shell functions for the sh_tests that kill an MPI rank (sourced, not run):
#   descendants PID             every descendant process id of PID, one per line;
#   ranks_of JOB NAME COUNT     the ids of the COUNT processes whose command name (ps comm,
#                               at most 15 characters) is NAME among JOB's descendants, on one
#                               line, once all of them run; status 1 after 15 s without them.
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
