#!/usr/bin/env bash
# Stop the single-node SLURM cluster started by cluster/slurm-up.sh: cancel its jobs, stop slurmd, slurmctld, slurmdbd
# and MariaDB (if running), munged. Packages, configuration, database and munge key stay: slurm-up.sh restarts quickly.
set -uo pipefail

[ "$(id -u)" -eq 0 ] || { echo "slurm-down: run as root" >&2; exit 2; }

command -v scancel >/dev/null && scancel --full --quiet --user root 2>/dev/null
stop() {  # stop the daemon whose pid file is $1, waiting for it to exit
  local pidfile=$1 pid
  [ -s "$pidfile" ] || return 0
  pid="$(cat "$pidfile")"
  kill "$pid" 2>/dev/null || { rm -f "$pidfile"; return 0; }
  for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -9 "$pid" 2>/dev/null
  rm -f "$pidfile"
}
stop /run/slurmd.pid
stop /run/slurmctld.pid
stop /run/slurmdbd.pid
if command -v mariadb-admin >/dev/null && mariadb-admin ping >/dev/null 2>&1; then
  mariadb-admin shutdown
fi
stop /run/munge/munged.pid
echo "slurm-down: stopped"
