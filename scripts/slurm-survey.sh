#!/usr/bin/env bash
# The football-960 survey of forced goals as a Slurm job array, on a one-node Slurm set up here
# from Debian's packages (slurm-wlm, munge): each of TASKS array tasks runs one shard of
#   kickoff analyze football-960 --turns TURNS --games 0 --shard I/TASKS --out part-I.jsonl
# then `kickoff merge` gathers the parts and the setups with a forced goal are checked against
# the list kickoff ships (src/analysis/football-960-forced.txt, the survey within 3 turns).
#
# Usage (as root, on a Debian machine; installs slurm-wlm and munge when missing):
#   scripts/slurm-survey.sh                 # within 3 turns, 8 tasks (as long as the survey
#                                           # on the node's cores: about 85 min on 2 cores)
#   TURNS=2 TASKS=4 scripts/slurm-survey.sh # a quick run: within 2 turns (a minute)
#   KEEP=1 ...                              # leave the daemons running afterwards
#   KICKOFF=/path/to/kickoff ...            # this binary (else the release build, built)
#
# Everything Slurm needs (its configuration, state, logs) is made under target/slurm-demo/;
# /etc/slurm is not touched. The daemons it starts are stopped at the end unless KEEP=1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
turns=${TURNS:-3}
tasks=${TASKS:-8}
if (( turns < 1 || turns > 3 )); then
    echo "TURNS must be 1, 2 or 3: the shipped list holds forced goals within 3 turns" >&2
    exit 2
fi
if [[ $(id -u) != 0 ]]; then
    echo "run as root: Slurm's daemons and munge are started here" >&2
    exit 2
fi

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge
fi
if [[ -z "${KICKOFF:-}" ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    KICKOFF="$root/target/release/kickoff"
fi
kickoff=$(realpath "$KICKOFF")

demo="$root/target/slurm-demo"
rm -rf "$demo"
mkdir -p "$demo"/{state,spool,log,parts}
host=$(hostname -s)
cpus=$(nproc)
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))

# Munge authenticates Slurm's messages: a key, and its daemon.
if [[ ! -s /etc/munge/munge.key ]]; then
    mungekey --create --force 2>/dev/null || create-munge-key -f
fi
chown munge:munge /etc/munge/munge.key 2>/dev/null || true
chmod 400 /etc/munge/munge.key
mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null || true
if ! pgrep -x munged >/dev/null; then
    if id munge >/dev/null 2>&1; then
        runuser -u munge -- munged --force
    else
        munged --force
    fi
fi

# One node that is also the controller; jobs run as root, one CPU a task.
export SLURM_CONF="$demo/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=kickoff
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$demo/state
SlurmdSpoolDir=$demo/spool
SlurmctldPidFile=$demo/slurmctld.pid
SlurmdPidFile=$demo/slurmd.pid
SlurmctldLogFile=$demo/log/slurmctld.log
SlurmdLogFile=$demo/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=demo Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

stop() {
    if [[ -z "${KEEP:-}" ]]; then
        scontrol shutdown >/dev/null 2>&1 || true
        sleep 1
        pkill -f "slurmd -f $SLURM_CONF" 2>/dev/null || true
        pkill -f "slurmctld -f $SLURM_CONF" 2>/dev/null || true
    fi
}
trap stop EXIT
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    sleep 1
done
sinfo

# The array: task I runs shard I/TASKS, one thread, and notes its own time.
cat > "$demo/task.sh" <<TASK
#!/usr/bin/env bash
set -euo pipefail
start=\$(date +%s%N)
"$kickoff" analyze football-960 --turns $turns --games 0 --threads 1 \\
    --shard "\$SLURM_ARRAY_TASK_ID/$tasks" --out "$demo/parts/part-\$SLURM_ARRAY_TASK_ID.jsonl"
echo "task \$SLURM_ARRAY_TASK_ID: \$(( (\$(date +%s%N) - start) / 1000000 )) ms" >> "$demo/times.txt"
TASK
chmod +x "$demo/task.sh"
began=$(date +%s)
sbatch --wait --array="1-$tasks" --cpus-per-task=1 --job-name=survey \
    --output="$demo/log/task-%a.out" "$demo/task.sh"
took=$(( $(date +%s) - began ))

"$kickoff" merge "$demo"/parts/part-*.jsonl --format json > "$demo/report.json"
python3 - "$demo/report.json" "$root/src/analysis/football-960-forced.txt" "$turns" <<'PY'
import json, sys
report, shipped, turns = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
show = lambda t: "-" if t is None else str(t)
found = [f'{v["setup"]} {show(v["white"])} {show(v["black"])}'
         for v in report["forced"]["verdicts"] if v["white"] is not None or v["black"] is not None]
within = lambda t: t != "-" and int(t) <= turns
expected = []
for line in open(shipped):
    if line.startswith("#") or not line.strip():
        continue
    setup, white, black = line.split()
    if within(white) or within(black):
        expected.append(f'{setup} {white if within(white) else "-"} {black if within(black) else "-"}')
if found != expected:
    missing = sorted(set(expected) - set(found))[:5]
    extra = sorted(set(found) - set(expected))[:5]
    sys.exit(f"the merged survey differs from the shipped list: missing {missing}, extra {extra}")
print(f"the merged survey equals the shipped list: {len(found)} of {report['forced']['starts']} "
      f"setups with a forced goal within {turns} turns")
PY
sort -t' ' -k2 -n "$demo/times.txt"
echo "$tasks tasks on $cpus CPUs: $took s from submission to the last task's end"
