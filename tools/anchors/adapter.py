#!/usr/bin/env python3
"""Seat another program's computer player in `kickoff match` (a `program:COMMAND` player).

kickoff runs COMMAND for each turn with `--fen START --moves "TURNS"` appended and reads one JSON
object with "turn" (kickoff's notation). This adapter
  1. rebuilds the current position with kickoff itself (`kickoff replay` of a record made of
     START and TURNS: its "final position" line);
  2. asks the external AI for its turn in that position (the FEN formats are the same: kickoff's
     `vchess` and `vchess-ball` FENs are vchess.club's getFen(), kickoff's `apo-chessball` FEN is
     the text format of oracle-apo/src/oracle/Fen.java), and gets the position after that
     turn as the external code plays it;
  3. answers the kickoff turn whose result is that position (`kickoff turns --format json`;
     when several turns give it, the shortest name).
When no kickoff turn gives the AI's position, that is a rule disagreement: it is logged (stderr
and the --disagreements file, with the position, the AI's move and its result), the AI is asked
again with other seeds (its random choices change; up to --retries times), and if it still finds
no kickoff turn, the kickoff turn whose result differs from the AI's on the fewest squares is
played (logged as "fallback").

Usage (as a match player):
  program:python3 tools/anchors/adapter.py --variant vchess --kind football --log L.jsonl
  program:python3 tools/anchors/adapter.py --variant vchess-ball --kind ball [--depth 3] ...
  program:python3 tools/anchors/adapter.py --variant apo-chessball --kind apo --level hard --port P
Options: --kickoff PATH (default $KICKOFF or `kickoff`), --salt S (mixed into the AI's seeds),
--disagreements FILE, --retries N. Hand check: add --fen F [--moves "..."] and --verbose.
"""
import argparse
import hashlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def kickoff_bin(args):
    return args.kickoff or os.environ.get("KICKOFF") or "kickoff"


def current_fen(args, start, turns):
    """The position after START and TURNS, as kickoff plays them (`kickoff replay`)."""
    if not turns:
        return start
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write('[Variant "%s"]\n[SetUp "1"]\n[FEN "%s"]\n\n%s *\n' % (args.variant, start, " ".join(turns)))
        path = f.name
    try:
        out = subprocess.run([kickoff_bin(args), "replay", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    for line in out.stdout.splitlines():
        if line.startswith("final position: "):
            return line[len("final position: "):].strip()
    raise SystemExit("adapter: kickoff replay failed: %s %s" % (out.stdout, out.stderr))


def kickoff_turns(args, fen):
    out = subprocess.run([kickoff_bin(args), "turns", args.variant, "--fen", fen, "--format", "json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("adapter: kickoff turns failed: " + out.stderr)
    return json.loads(out.stdout)["list"]


def ask_vchess(args, fen, seed):
    cmd = ["node", os.path.join(HERE, "vchess_bot.mjs"), args.kind, fen, str(seed)]
    if args.depth:
        cmd.append(str(args.depth))
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("adapter: vchess_bot failed: " + out.stderr)
    r = json.loads(out.stdout)
    return r["result"], " ".join(r["moves"]), r["ms"]


def ask_apo(args, fen, seed, new_game):
    line = "%s\t%d\t%d\t%s\n" % (args.level, seed, 1 if new_game else 0, fen)
    if args.port:
        with socket.create_connection(("127.0.0.1", args.port)) as s:
            s.sendall(line.encode())
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        r = json.loads(data.decode())
    else:
        out = subprocess.run(["java", "-Xss16m", "-cp", os.path.join(HERE, "build", "apo", "classes"),
                              "anchors.ApoBot", "once", args.level, str(seed), fen],
                             capture_output=True, text=True)
        r = json.loads(out.stdout)
    if "error" in r:
        raise SystemExit("adapter: ApoBot error: " + r["error"])
    return r["result"], r["steps"], r["ms"]


def expand(fen):
    """Squares of a FEN's placement, one character each (digits expanded), plus its other fields."""
    fields = fen.split()
    cells = []
    for row in fields[0].split("/"):
        num = ""
        for ch in row:
            if ch.isdigit():
                num += ch
                continue
            if num:
                cells.extend("." * int(num))
                num = ""
            cells.append(ch)
        if num:
            cells.extend("." * int(num))
        cells.append("/")
    return cells, fields[1:]


def distance(a, b):
    ca, fa = expand(a)
    cb, fb = expand(b)
    if len(ca) != len(cb):
        return 10 ** 6
    d = sum(1 for x, y in zip(ca, cb) if x != y)
    d += 100 * sum(1 for x, y in zip(fa, fb) if x != y)
    return d


def seed_of(args, start, turns, k):
    h = hashlib.sha256(("%s|%s|%s|%d" % (args.salt, start, " ".join(turns), k)).encode()).digest()
    return int.from_bytes(h[:4], "big") & 0x7FFFFFFF


def log(path, obj):
    if path:
        with open(path, "a") as f:
            f.write(json.dumps(obj) + "\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--variant", required=True)
    p.add_argument("--kind", required=True, choices=["football", "ball", "apo"])
    p.add_argument("--depth", type=int, default=0, help="ball: SEARCH_DEPTH (default: Ball.js's, 2)")
    p.add_argument("--level", default="hard", help="apo: hard | medium | easy")
    p.add_argument("--port", type=int, default=0, help="apo: port of a running `ApoBot serve`")
    p.add_argument("--kickoff")
    p.add_argument("--salt", default="anchors")
    p.add_argument("--log")
    p.add_argument("--disagreements")
    p.add_argument("--retries", type=int, default=20)
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--fen")
    p.add_argument("--moves", default="")
    args = p.parse_args()

    t0 = time.time()
    start = args.fen
    if not start:
        raise SystemExit("adapter: give --fen (kickoff match always does)")
    turns = args.moves.split()
    fen = current_fen(args, start, turns)
    new_game = True
    if args.kind == "apo" and args.port:
        # The AI keeps its transposition table from turn to turn within a game (as the game
        # does); a history that does not extend the last one seen is a new game.
        state = os.path.join(tempfile.gettempdir(), "anchors-apo-last-%d.txt" % args.port)
        hist = start + "|" + " ".join(turns)
        try:
            with open(state) as f:
                last = f.read()
            new_game = not (hist.startswith(last) and len(hist) > len(last))
        except FileNotFoundError:
            pass
        with open(state, "w") as f:
            f.write(hist)

    listed = None
    status = "ok"
    first = None
    chosen = None
    ai_ms_total = 0
    for k in range(args.retries + 1):
        seed = seed_of(args, start, turns, k)
        if args.kind == "apo":
            result, desc, ms = ask_apo(args, fen, seed, new_game and k == 0)
        else:
            result, desc, ms = ask_vchess(args, fen, seed)
        ai_ms_total += ms
        if k == 0:
            first = {"result": result, "move": desc, "ms": ms}
        if listed is None:
            listed = kickoff_turns(args, fen)
        names = sorted((t["turn"] for t in listed if t["result"] == result), key=lambda n: (len(n), n))
        if args.verbose:
            print("AI (seed %d): %s -> %s (%d ms); kickoff turns giving it: %s" % (seed, desc, result, ms, names[:8]),
                  file=sys.stderr)
        if names:
            chosen = names[0]
            if k > 0:
                status = "retried:%d" % k
            break
        status = "disagree"
        rec = {"variant": args.variant, "fen": fen, "start": start, "turns": " ".join(turns), "seed": seed,
               "ai_move": desc, "ai_result": result, "ai_ms": ms}
        print("ADAPTER RULE DISAGREEMENT: %s" % json.dumps(rec), file=sys.stderr)
        log(args.disagreements, rec)
    if chosen is None:
        if not listed:
            raise SystemExit("adapter: kickoff lists no turn in " + fen)
        target = first["result"]
        best = min(listed, key=lambda t: (distance(t["result"], target) if target else 0, len(t["turn"]), t["turn"]))
        chosen = best["turn"]
        status = "fallback"
        rec = {"variant": args.variant, "fen": fen, "fallback_turn": chosen, "fallback_result": best["result"],
               "ai_move": first["move"], "ai_result": target}
        print("ADAPTER FALLBACK: %s" % json.dumps(rec), file=sys.stderr)
        log(args.disagreements, dict(rec, kind="fallback"))
    wall = int((time.time() - t0) * 1000)
    log(args.log, {"variant": args.variant, "kind": args.kind, "ply": len(turns), "fen": fen,
                   "ai_move": first["move"], "ai_ms": first["ms"], "ai_ms_total": ai_ms_total,
                   "ai_result": first["result"], "turn": chosen, "status": status, "wall_ms": wall,
                   "kickoff_turns": len(listed)})
    print(json.dumps({"turn": chosen, "ai_move": first["move"], "ai_ms": first["ms"], "status": status}))


if __name__ == "__main__":
    main()
