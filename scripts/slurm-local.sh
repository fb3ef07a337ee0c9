#!/usr/bin/env bash
# A single-node SLURM cluster on this machine, for bench's SLURM integration test (and for
# trying `bench slurm` without a cluster): `start` installs Debian's slurm-wlm and munge if
# they are missing, writes a munge key and a slurm.conf for this host into a folder of its
# own ($BENCH_SLURM_DIR, default /tmp/bench-slurm), and starts munged, slurmctld and slurmd
# as plain background daemons (no systemd), each with its PID file there; `stop` stops them
# by those PID files; `status` says whether the cluster answers.
#
# Clients find this cluster through SLURM_CONF: `export SLURM_CONF=$BENCH_SLURM_DIR/slurm.conf`
# (the test does it itself). Runs as root (the daemons and the jobs run as root).
set -euo pipefail

dir=${BENCH_SLURM_DIR:-/tmp/bench-slurm}
ctld_port=${BENCH_SLURM_CTLD_PORT:-16817}
slurmd_port=${BENCH_SLURM_SLURMD_PORT:-16818}
export SLURM_CONF="$dir/slurm.conf"

log() { echo "slurm-local: $*" >&2; }

install_packages() {
  if command -v slurmctld >/dev/null && command -v slurmd >/dev/null \
    && command -v sbatch >/dev/null && command -v munged >/dev/null; then
    return
  fi
  if [ -n "${BENCH_SLURM_NO_INSTALL:-}" ]; then
    log "slurm-wlm and munge are not installed (and BENCH_SLURM_NO_INSTALL is set)"
    exit 1
  fi
  if [ "$(id -u)" != 0 ]; then
    log "slurm-wlm and munge are not installed, and installing them needs root"
    exit 1
  fi
  log "installing slurm-wlm and munge with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || true
  apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
}

# Is the process in PID file $1 alive?
alive() { [ -s "$1" ] && kill -0 "$(cat "$1" 2>/dev/null)" 2>/dev/null; }

write_config() {
  mkdir -p "$dir"/{state,spool,munge,log}
  chmod 700 "$dir/munge"
  if [ ! -s "$dir/munge/munge.key" ]; then
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$dir/munge/munge.key"
  fi
  local host cpus mem
  host=$(hostname -s)
  cpus=$(nproc)
  # RealMemory in MB: 90 % of MemTotal, so a job asking for a sensible --mem fits.
  mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
  cat >"$dir/slurm.conf" <<EOF
# Written by scripts/slurm-local.sh: a one-node cluster for bench's tests.
ClusterName=benchlocal
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
KillWait=5
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
  local limit=$1 what=$2
  shift 2
  for _ in $(seq $((limit * 5))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  log "gave up after ${limit}s waiting for $what"
  return 1
}

node_idle() { sinfo -h -N -o '%T' | grep -qE '^(idle|mixed|allocated)'; }

start() {
  install_packages
  write_config
  if ! alive "$dir/munged.pid"; then
    munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
      --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" \
      --seed-file="$dir/munge/munged.seed"
    wait_for 10 munged test -S "$dir/munge/munge.socket"
  fi
  if ! alive "$dir/slurmctld.pid"; then
    # -i: ignore state a previous cluster in this folder left behind that no longer fits.
    slurmctld -f "$dir/slurm.conf" -i
    wait_for 30 slurmctld scontrol ping
  fi
  if ! alive "$dir/slurmd.pid"; then
    slurmd -f "$dir/slurm.conf"
  fi
  wait_for 60 "the node to come up" node_idle || {
    tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
    exit 1
  }
  log "up: SLURM_CONF=$SLURM_CONF ($(sinfo -h -N -o '%N %c CPUs %T'))"
}

stop() {
  local name pidfile
  for name in slurmd slurmctld munged; do
    pidfile="$dir/$name.pid"
    if alive "$pidfile"; then
      kill "$(cat "$pidfile")"
      for _ in $(seq 50); do alive "$pidfile" || break; sleep 0.2; done
      if alive "$pidfile"; then kill -9 "$(cat "$pidfile")" || true; fi
    fi
    rm -f "$pidfile"
  done
  log "stopped"
}

status() {
  local name
  for name in munged slurmctld slurmd; do
    if alive "$dir/$name.pid"; then echo "$name: running ($(cat "$dir/$name.pid"))"; else echo "$name: stopped"; fi
  done
  if [ -s "$dir/slurm.conf" ] && scontrol ping >/dev/null 2>&1; then
    echo "SLURM_CONF=$SLURM_CONF"
    sinfo
  else
    return 1
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status   (folder: \$BENCH_SLURM_DIR, default /tmp/bench-slurm)" >&2; exit 2 ;;
esac
