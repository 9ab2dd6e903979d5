#!/usr/bin/env bash
# Bring up a single-node SLURM cluster on this machine, from Debian packages, as root, without systemd.
#
#   sudo cluster/slurm-up.sh      # install (once), write /etc/slurm/slurm.conf, start munged, slurmctld, slurmd
#   sudo cluster/slurm-down.sh    # stop the daemons (packages and config stay)
#
# Why: the workflow's SLURM profile is tested on a real scheduler (tests/test_cluster.py, `pytest -m cluster`). The
# cluster has no accounting database (AccountingStorageType=none), like many small clusters: `sacct` fails on it, so
# the profile must poll with `squeue`, which sees a finished job for MinJobAge seconds - hence MinJobAge=300.
# Node name, CPUs and memory come from `slurmd -C` on this host. Idempotent: running it twice restarts the daemons.
set -euo pipefail

[ "$(id -u)" -eq 0 ] || { echo "slurm-up: run as root" >&2; exit 2; }

CONF_DIR=/etc/slurm
LOG_DIR=/var/log/slurm
HERE="$(cd "$(dirname "$0")" && pwd)"

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null \
  || ! command -v munged >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # policy-rc.d 101: the packages' maintainer scripts must not try to start services (there is no init system here)
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
  rm -f /usr/sbin/policy-rc.d
fi

"$HERE/slurm-down.sh" >/dev/null 2>&1 || true

# munge: one key shared by every daemon and client (a single host here)
install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
install -d -o munge -g munge -m 0755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  mungekey --create --keyfile=/etc/munge/munge.key
  chown munge:munge /etc/munge/munge.key
fi
chmod 0400 /etc/munge/munge.key
runuser -u munge -- /usr/sbin/munged

NODE="$(slurmd -C | head -1)"  # NodeName=<host> CPUs=... RealMemory=...
HOST="$(hostname -s)"
install -d -m 0755 "$CONF_DIR" "$LOG_DIR" /var/spool/slurmctld /var/spool/slurmd
cat >"$CONF_DIR/slurm.conf" <<CONF
# Written by cluster/slurm-up.sh: one node, no accounting database, root daemons, no cgroups (none without systemd).
ClusterName=b3o
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$LOG_DIR/slurmctld.log
SlurmdLogFile=$LOG_DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
# squeue reports a finished job for MinJobAge seconds; the Snakemake plugin needs >= 120 s to use squeue
MinJobAge=300
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
$NODE State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld
slurmd
for _ in $(seq 30); do
  if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
    echo "slurm-up: node $HOST up: $(sinfo -h -o '%P %D %c CPUs %m MB %T')"
    exit 0
  fi
  sleep 1
done
echo "slurm-up: node did not become idle; see $LOG_DIR/slurmctld.log and $LOG_DIR/slurmd.log" >&2
sinfo >&2 || true
exit 1
