#!/usr/bin/env python3
"""How many turns of lobby games one machine's `kickoff serve` acknowledges a second.

Starts `kickoff serve` on a free loopback port with its own data folder, makes `--pairs` pairs of
accounts (each player from its own loopback address), each pair a correspondence game, then has
every player play its turns as fast as the server answers (no think time: each turn is found by
the game's `step` requests and played by `POST /api/games/ID/turn`, which commits it to the
database before answering) for `--seconds`. Prints the turns acknowledged a second, the latency
of a turn (p50, p99), the server's peak memory and processor time, and the database's bytes per
turn. Finished games are followed by rematches. Only loopback traffic.

Usage: scripts/lobby-capacity.py [--kickoff PATH] [--pairs 50] [--seconds 30]
"""

import argparse
import json
import os
import random
import threading
import time

from serverkit import ROOT, Server, Stats, address, raise_file_limit
from soak import lobby_turn, percentile, sign_up


def player(client, box, stop, stats):
    while not stop.is_set():
        game = box[0]
        status, view = client.call("GET", f"/api/games/{game}", None, "lobby state")
        if status != 200 or view is None:
            stats.error(f"state: {status}")
            return
        if view["result"] is not None:
            status, answer = client.call("POST", f"/api/games/{game}/rematch", None, "rematch")
            if status == 201 and answer and "game" in answer:
                box[0] = answer["game"]
            else:
                while box[0] == game and not stop.is_set():
                    time.sleep(0.05)
                    status, mine = client.call("GET", "/api/my/games", None, "my games")
                    if mine and mine[0]["id"] != game and mine[0]["result"] is None:
                        box[0] = mine[0]["id"]
            continue
        if view["to_move"] != view["your_side"]:
            time.sleep(0.01)
            continue
        lobby_turn(client, game, view, stats)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kickoff", default=os.path.join(ROOT, "target/release/kickoff"))
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    raise_file_limit()
    random.seed(1)
    stats = Stats()
    server = Server(args.kickoff)
    stop = threading.Event()
    pairs = []
    for n in range(args.pairs):
        a = sign_up(address(3, 2 * n), server.port, stats, f"cap{n}a")
        b = sign_up(address(3, 2 * n + 1), server.port, stats, f"cap{n}b")
        seek = {"variant": "boyer-1951", "clock": {"days": 3}, "color": "random"}
        _, made = a.call("POST", "/api/seeks", seek, "seek")
        _, game = b.call("POST", f"/api/seeks/{made['id']}/accept", None, "accept")
        pairs.append((a, b, [game["game"]]))
    cpu_before = server.cpu_seconds()
    started = time.monotonic()
    threads = [threading.Thread(target=player, args=(c, box, stop, stats))
               for a, b, box in pairs for c in (a, b)]
    for t in threads:
        t.start()
    time.sleep(args.seconds)
    stop.set()
    for t in threads:
        t.join(timeout=30)
    elapsed = time.monotonic() - started
    cpu = (server.cpu_seconds() or 0) - (cpu_before or 0)
    db = sum(os.path.getsize(os.path.join(server.folder, f))
             for f in os.listdir(server.folder) if f.startswith("kickoff.db"))
    alive = server.stop()
    turns = stats.counts["lobby turns"]
    latency = stats.latency["lobby turn"]
    report = {
        "pairs": args.pairs,
        "seconds": round(elapsed, 1),
        "turns acknowledged": turns,
        "turns a second": round(turns / elapsed, 1),
        "turn ms": {"p50": round(1000 * percentile(latency, 50)),
                    "p99": round(1000 * percentile(latency, 99))},
        "server CPU s": round(cpu, 1),
        "peak MiB": server.peak_kib // 1024,
        "database bytes a turn": round(db / max(turns, 1)),
        "errors": dict(stats.errors),
        "server survived": alive,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
