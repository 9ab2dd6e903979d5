#!/usr/bin/env bash
# Bring up a single-node SLURM cluster on this machine, from Debian packages, as root, without systemd.
#
#   cluster/slurm-up.sh                # install (once), write /etc/slurm/slurm.conf, start munged, slurmctld, slurmd
#   cluster/slurm-up.sh --accounting   # the same plus MariaDB and slurmdbd, so that `sacct` works
#   cluster/slurm-down.sh              # stop the daemons (packages, configuration and database stay)
#
# Why: the workflow's SLURM profile is tested on a real scheduler (tests/test_cluster.py, `pytest -m cluster`). By
# default the cluster has no accounting database, like many small clusters: `sacct` fails on it, so the profile must
# poll with `squeue`, which sees a finished job for MinJobAge seconds - hence MinJobAge=300. Node name, CPUs and memory
# come from `slurmd -C` on this host. Idempotent: running it again restarts the daemons with a fresh configuration.
set -euo pipefail

[ "$(id -u)" -eq 0 ] || { echo "slurm-up: run as root" >&2; exit 2; }
case "${1:-}" in
  "") ACCOUNTING=0 ;;
  --accounting) ACCOUNTING=1 ;;
  *) echo "usage: slurm-up.sh [--accounting]" >&2; exit 2 ;;
esac

CONF_DIR=/etc/slurm
LOG_DIR=/var/log/slurm
HERE="$(cd "$(dirname "$0")" && pwd)"

packages=(slurmctld slurmd slurm-client munge)
[ "$ACCOUNTING" -eq 0 ] || packages+=(slurmdbd mariadb-server)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # policy-rc.d 101: maintainer scripts must not try to start services (there is no init system here)
  own_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
  fi
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  [ "$own_policy" -eq 0 ] || rm -f /usr/sbin/policy-rc.d
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

if [ "$ACCOUNTING" -eq 1 ]; then
  ACCOUNTING_CONF="AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
JobAcctGatherType=jobacct_gather/linux"
else
  ACCOUNTING_CONF="AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none"
fi

cat >"$CONF_DIR/slurm.conf" <<CONF
# Written by cluster/slurm-up.sh: one node, root daemons, no cgroups (none without systemd).
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
$ACCOUNTING_CONF
JobCompType=jobcomp/none
$NODE State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

if [ "$ACCOUNTING" -eq 1 ]; then
  # (after slurm.conf, which sacctmgr reads) MariaDB on its Unix socket, a database user with a fresh random
  # password, slurmdbd on top, and the cluster registered in it
  install -d -o mysql -g mysql -m 0755 /run/mysqld
  [ -d /var/lib/mysql/mysql ] || mariadb-install-db --user=mysql >/dev/null
  (cd / && setsid mariadbd --user=mysql) </dev/null >>"$LOG_DIR/mariadb.log" 2>&1 &
  for _ in $(seq 30); do mariadb-admin ping >/dev/null 2>&1 && break; sleep 1; done
  password="$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
  mariadb -e "CREATE DATABASE IF NOT EXISTS slurm_acct_db; CREATE OR REPLACE USER 'slurm'@'localhost' IDENTIFIED BY
    '$password'; GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';"
  install -m 0600 /dev/null "$CONF_DIR/slurmdbd.conf"
  cat >"$CONF_DIR/slurmdbd.conf" <<CONF
# Written by cluster/slurm-up.sh --accounting
AuthType=auth/munge
DbdHost=localhost
SlurmUser=root
PidFile=/run/slurmdbd.pid
LogFile=$LOG_DIR/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=slurm
StoragePass=$password
StorageLoc=slurm_acct_db
CONF
  slurmdbd
  for _ in $(seq 30); do sacctmgr -n list cluster >/dev/null 2>&1 && break; sleep 1; done
  sacctmgr -n list cluster format=cluster | grep -qw b3o || sacctmgr -i add cluster b3o >/dev/null
fi

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
