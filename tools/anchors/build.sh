#!/usr/bin/env bash
# Build the two external computer players used as anchors, from the fetched git mirrors.
# Nothing of their source is kept in this folder: it is extracted into build/ (gitignored).
#
#   VCHESS_GITDIR=<bare clone of yagu0/vchess> APO_GITDIR=<bare clone of TheApo/chessball> ./build.sh
#
# Output:
#   build/vchess/   vchess.club's client code (base_rules.js, utils/{alea,array}.js,
#                   variants/{Football,Ball}.js), exactly as in the repository except that the
#                   webpack imports `@/...` are rewritten to relative ES-module paths (the same
#                   rewriting a node build of vchess needs, and no other change).
#   build/apo/classes/  Apo-Games ChessBall's rule code and computer players (ai/Easy, Medium,
#                   Hard, ai/algo/*), unmodified, compiled with the libGDX stubs of
#                   oracle-apo/stubs, the two extra stubs in apo/stubs (Gdx, FileHandle),
#                   the position code of oracle-apo/src (Fen, Engine) and apo/src (ApoBot).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
VCHESS_GITDIR="${VCHESS_GITDIR:?set VCHESS_GITDIR to a bare clone of yagu0/vchess}"
APO_GITDIR="${APO_GITDIR:?set APO_GITDIR to a bare clone of TheApo/chessball}"
VCHESS_REV="${VCHESS_REV:-a9e2eed0}"
APO_REV="${APO_REV:-a5c2432dee924ca4ed1ddefd225b8fa918ee6d54}"
OUT="$HERE/build"
rm -rf "$OUT"; mkdir -p "$OUT"

# --- vchess.club (JavaScript, run by node) ---
D="$OUT/vchess"
mkdir -p "$D/utils" "$D/variants"
echo '{"type":"module"}' > "$D/package.json"
g() { git --git-dir="$VCHESS_GITDIR" show "$VCHESS_REV:client/src/$1"; }
g utils/alea.js  > "$D/utils/alea.js"
g utils/array.js > "$D/utils/array.js"
g base_rules.js | sed -E \
  -e 's#from "@/utils/array"#from "./utils/array.js"#' \
  -e 's#from "@/utils/alea"#from "./utils/alea.js"#' > "$D/base_rules.js"
for v in Football Ball; do
  g variants/$v.js | sed -E \
    -e 's#from "@/base_rules"#from "../base_rules.js"#' \
    -e 's#from "@/utils/array"#from "../utils/array.js"#' \
    -e 's#from "@/utils/alea"#from "../utils/alea.js"#' > "$D/variants/$v.js"
done
if grep -q '"@/' "$D"/base_rules.js "$D"/variants/*.js; then echo "unrewritten @/ import" >&2; exit 1; fi
echo "vchess: $(git --git-dir="$VCHESS_GITDIR" rev-parse "$VCHESS_REV")" > "$OUT/upstream.txt"

# --- Apo-Games ChessBall (Java 17) ---
SRC="$(mktemp -d)"; trap 'rm -rf "$SRC"' EXIT
P=core/src/com/apogames/chessball
FILES=(
  $P/Constants.java
  $P/Utils.java
  $P/ai/ChessBallStep.java
  $P/ai/ChessBallPlayerAI.java
  $P/ai/ChessBallAIInformations.java
  $P/ai/Easy.java
  $P/ai/Medium.java
  $P/ai/Hard.java
  $P/ai/algo/AlphaBetaAI.java
  $P/ai/algo/Evaluator.java
  $P/ai/algo/TranspositionTable.java
  $P/ai/algo/TurnGenerator.java
  $P/ai/algo/Zobrist.java
  $P/backend/DrawString.java
  $P/game/ChessBallBoard.java
  $P/game/enums/ChessBallColor.java
  $P/game/enums/ChessBallFigure.java
  $P/game/enums/ChessBallWinState.java
  $P/game/puzzle/ChessBallAIMove.java
)
git --git-dir="$APO_GITDIR" archive "$APO_REV" "${FILES[@]}" | tar -x -C "$SRC"
mkdir -p "$OUT/apo/classes"
( for f in "${FILES[@]}"; do echo "$(git --git-dir="$APO_GITDIR" rev-parse "$APO_REV:$f")  $f"; done ) > "$OUT/apo/upstream-blobs.txt"
ORA="$HERE/oracle-apo"
{ find "$ORA/stubs" "$HERE/apo/stubs" "$HERE/apo/src" -name '*.java'
  echo "$ORA/src/oracle/Fen.java"; echo "$ORA/src/oracle/Engine.java"
  for f in "${FILES[@]}"; do echo "$SRC/$f"; done; } > "$OUT/apo/sources.txt"
javac -encoding UTF-8 -nowarn -d "$OUT/apo/classes" @"$OUT/apo/sources.txt"
echo "apo: $(git --git-dir="$APO_GITDIR" rev-parse "$APO_REV")" >> "$OUT/upstream.txt"
echo "built $OUT"; cat "$OUT/upstream.txt"
