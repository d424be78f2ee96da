#!/usr/bin/env bash
# One anchor match: kickoff's engine against an external computer player, seated through
# adapter.py as a `program:` player. Run from anywhere; records and logs go to
# tools/anchors/results/NAME/ (records/, adapter.jsonl, disagreements.jsonl, match.txt), or
# under RESULTS (a folder) when it is set.
#
#   KICKOFF=<kickoff binary> tools/anchors/run_match.sh NAME VARIANT KIND GAMES LEVEL [adapter options]
#
# KIND: football | ball | apo (see adapter.py); LEVEL: kickoff's player, e.g. engine:2.
# Extra `kickoff match` options in MATCH_OPTS (default: `--opening 2`, or `--setup random` for
# vchess-ball). kickoff is the first player (--white: White in odd-numbered games, colours
# alternate), so the table's first line is kickoff's score. For KIND=apo an `ApoBot serve` process is started for the match (its
# table kept from turn to turn within a game) and stopped at the end.
# An interrupted match resumes with RESUME=1 (kickoff match --resume).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=$1 VARIANT=$2 KIND=$3 GAMES=$4 LEVEL=$5; shift 5
KICKOFF="${KICKOFF:?set KICKOFF to the kickoff binary}"
OUTD="${RESULTS:-$HERE/results}/$NAME"
mkdir -p "$OUTD"
if [ -z "${MATCH_OPTS:-}" ]; then
  if [ "$VARIANT" = vchess-ball ]; then MATCH_OPTS="--setup random"; else MATCH_OPTS="--opening 2"; fi
fi
EXTRA=()
if [ "$KIND" = apo ]; then
  PORT=${PORT:-$((20000 + RANDOM % 20000))}
  java -Xss16m -Xmx2g -cp "$HERE/build/apo/classes" anchors.ApoBot serve "$PORT" 2>>"$OUTD/apobot.err" &
  APOPID=$!
  trap 'kill $APOPID 2>/dev/null || true' EXIT
  sleep 1
  EXTRA=(--port "$PORT")
fi
RES=()
if [ "${RESUME:-0}" = 1 ]; then RES=(--resume); fi
AD="program:python3 $HERE/adapter.py --variant $VARIANT --kind $KIND --kickoff $KICKOFF --log $OUTD/adapter.jsonl --disagreements $OUTD/disagreements.jsonl ${EXTRA[*]} $*"
echo "kickoff match $VARIANT --games $GAMES --threads 1 --max-turns 200 $MATCH_OPTS --program-time 120 --white $LEVEL --black \"$AD\" --records $OUTD/records ${RES[*]}" > "$OUTD/command.txt"
# shellcheck disable=SC2086
"$KICKOFF" match "$VARIANT" --games "$GAMES" --threads 1 --max-turns 200 $MATCH_OPTS \
  --program-time 120 --white "$LEVEL" --black "$AD" --records "$OUTD/records" "${RES[@]}" \
  2> >(tee -a "$OUTD/stderr.txt" >&2) | tee "$OUTD/match.txt"
