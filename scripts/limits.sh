#!/usr/bin/env bash
# The long hostile cases, with their wall time and peak resident memory: each command runs under
# a 30 s timeout and an address-space limit (1 GiB; 4 GiB for many threads, whose stacks and
# malloc arenas reserve space they never fill), and prints one row:
#   seconds  peak MiB  exit status  command
# The large inputs (an 8 MiB record, a 1 MiB definition) are made in a temporary folder.
#
# Usage: scripts/limits.sh            (builds the release binary first)
#        KICKOFF=/path/to/kickoff scripts/limits.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z "${KICKOFF:-}" ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    KICKOFF="$root/target/release/kickoff"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root"/tests/data/hostile/*.toml "$work"/
cd "$work"

python3 - <<'PY'
MiB = 1 << 20
head = '[Variant "nulls.toml"]\n\n'
with open("nulls-8mib.txt", "w") as f:
    f.write(head + "-- " * ((8 * MiB - len(head) - 2) // 3) + "*\n")
text = 'extends = "boyer-1951"\n' + "".join(f"[x{i}]\n" for i in range(116000))
with open("many-tables-1mib.toml", "w") as f:
    f.write(text[: MiB - 3])
PY

printf '%8s %9s %5s  %s\n' seconds "peak MiB" exit command
run() {
    local space=$1
    shift
    local status=0
    /usr/bin/time -o time.txt -f '%e %M' timeout 30 prlimit --as="$space" "$KICKOFF" "$@" \
        >/dev/null 2>&1 </dev/null || status=$?
    read -r seconds kib < <(tail -1 time.txt)
    printf '%8s %9d %5s  kickoff %s\n' "$seconds" $((kib / 1024)) "$status" "$*"
}
one=$((1 << 30))
many=$((4 << 30))

run $one replay nulls-8mib.txt
run $one validate many-tables-1mib.toml
run $one validate --format json many-tables-1mib.toml
run $one turns near2m.toml
run $one turns near2m.toml --format json
run $one perft near2m.toml 1 --divide
run $one perft near2m.toml 2 --divide
run $one validate --simulate 1 near2m.toml
run $one validate --simulate 10 longsim.toml
run $many match near2m.toml --games 8 --white random --black random --max-turns 1 --threads 8
run $many match mini --games 64 --white engine:1 --black engine:1 --threads 64 --max-turns 4
run $many match boyer-1951 --games 128 --white engine --black engine:3 --threads 64 --max-turns 2 --movetime 1
run $one validate nightriders16.toml
run $one bestmove explode16.toml --depth 2
run $one bestmove explode16.toml
run $one bestmove explode16-pass.toml
run $one bestmove near2m.toml
run $one turns kickchain.toml
run $one validate kickchain.toml
run $one solve kickchain.toml --turns 1
run $one turns stepbomb.toml
run $one bestmove nr16-pp1.toml --level 2
run $one perft explode16.toml 3
for variant in boyer-1951 vchess football-960 mini stadium; do
    run $one bestmove $variant
    run $one validate --simulate 10 $variant
    run $many perft $variant 4 --threads 2
done
