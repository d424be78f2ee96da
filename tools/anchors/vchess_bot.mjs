// Asks vchess.club's own computer player (Benjamin Auder's client code, built by build.sh into
// build/vchess, unmodified but for its import paths) for its turn in a position, plays the turn
// in the same code and prints the position after it in vchess's FEN (getFen()), which is the FEN
// kickoff uses for its `vchess` (Football) and `vchess-ball` (Ball) variants.
//
//   node vchess_bot.mjs football|ball FEN SEED [DEPTH]
//
// football: FootballRules.getComputerMove() (Football.js): random moves ("Just play random
//   moves"): a random piece move, then random kicks while a friend touches the ball, until the
//   random pick is the "end" move.
// ball: ChessRules.getComputerMove() (base_rules.js) with Ball.js's SEARCH_DEPTH (2) unless
//   DEPTH is given (then the static getter is replaced), Ball.js's evalPosition, ties broken at
//   random.
// Math.random (used by utils/alea.js randInt) is replaced by a seeded PRNG, so that a call is
// reproducible. Output: one JSON line {"result", "moves" (vchess notation), "ms", "depth"}.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));

function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const [kind, fen, seedArg, depthArg] = process.argv.slice(2);
if (!["football", "ball"].includes(kind) || !fen) {
  console.error("usage: node vchess_bot.mjs football|ball FEN SEED [DEPTH]");
  process.exit(2);
}
const file = kind == "football" ? "Football.js" : "Ball.js";
const mod = await import(pathToFileURL(path.join(HERE, "build", "vchess", "variants", file)).href);
const V = kind == "football" ? mod.FootballRules : mod.BallRules;
globalThis.V = V; // the vchess client sets window.V to the variant's class
if (depthArg && kind == "ball") {
  const d = parseInt(depthArg, 10);
  Object.defineProperty(V, "SEARCH_DEPTH", { get: () => d, configurable: true });
}
Math.random = mulberry32(parseInt(seedArg || "1", 10));

const vr = new V(fen);
const t0 = process.hrtime.bigint();
const mv = vr.getComputerMove();
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
if (mv == null) {
  console.log(JSON.stringify({ result: null, moves: [], ms, depth: V.SEARCH_DEPTH }));
  process.exit(0);
}
const moves = Array.isArray(mv) ? mv : [mv];
// The move is played on a fresh board, as vchess.club does: its web worker
// (client/src/playCompMove.js) searches on its own instance and posts the move, which the game
// then plays on the game's board. The searching instance itself may be corrupted by the search:
// Ball's undo() is not exact after the ball holder's en-passant capture and its in-place twin
// (a bug of vchess's Ball search, called B1 in tools/anchors/README.md), which can remove the ball from that board.
const board = new V(fen);
const names = [];
for (const m of moves) {
  names.push(board.getNotation(m));
  board.play(m);
}
console.log(JSON.stringify({
  result: board.getFen(), searched_board_after: vr.getFen() == fen ? "intact" : "changed by the search",
  moves: names, ms: Math.round(ms),
  depth: kind == "ball" ? V.SEARCH_DEPTH : "random"
}));
