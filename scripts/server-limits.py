#!/usr/bin/env python3
"""The hostile cases of `kickoff serve`, each against a server of its own, with its peak memory.

Each case prints one row: its name, the server's peak resident memory, the seconds it took,
what happened, and `ok` or `FAIL`. A case fails when the server dies, goes past 1 GiB, or breaks
the promise the case names (README, "The server's limits"). Exit status 1 when one fails.

Usage: scripts/server-limits.py [--kickoff PATH] [CASE ...]   (no CASE: all; about 6 minutes)
Loopback only; every client has its own address (127.3.x.y), as on a real network.
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

from serverkit import ROOT, Client, Server, Stats, address, raise_file_limit

GIB_KIB = 1 << 20
CASES = {}


def case(function):
    CASES[function.__name__] = function
    return function


def normal_request(server, timeout=8):
    """Whether a plain request from a fresh address gets its answer in time."""
    try:
        s = socket.create_connection(("127.0.0.1", server.port), timeout=timeout,
                                     source_address=(address(3, 9999), 0))
        s.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return s.recv(12) == b"HTTP/1.1 200"
    except OSError:
        return False


def sockets(server, count, ip):
    out = []
    for _ in range(count):
        try:
            out.append(socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                                source_address=(ip, 0)))
        except OSError:
            break
    return out


@case
def idle_connections(kickoff):
    """1,100 silent sockets from one address, the server limited to 1,024 files: another client
    still gets in at once, and so does a new request of the flooding address."""
    server = Server(kickoff, files=1024)
    held = sockets(server, 1100, address(3, 1))
    time.sleep(2)
    other = normal_request(server)
    same = Client(address(3, 1), server.port, Stats()).call("GET", "/api/variants")[0] == 200
    for s in held:
        s.close()
    return server, other and same, f"another client answered: {other}, the flooder too: {same}"


@case
def heads_and_bodies(kickoff):
    """Thirty addresses open 60 KiB heads never finished, and 3 MiB bodies half sent."""
    server = Server(kickoff)
    head = b"POST /api/definitions/check HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"x" * 60000
    body_head = (b"POST /api/definitions/check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 b"Content-Type: application/json\r\nContent-Length: 3000000\r\n\r\n")
    held = []
    for n in range(30):
        for s in sockets(server, 40, address(3, 100 + n)):
            try:
                s.sendall(head)
            except OSError:
                pass
            held.append(s)
        for s in sockets(server, 8, address(3, 200 + n)):
            try:
                s.sendall(body_head + b"{\"text\":\"" + b"#" * 1_500_000)
            except OSError:
                pass
            held.append(s)
    time.sleep(3)
    answered = normal_request(server)
    for s in held:
        s.close()
    return server, answered, f"{len(held)} connections held; a plain request answered: {answered}"


@case
def long_records(kickoff):
    """An 8 MiB record of 2.8 million null turns, four at once, and records of 100,000 turns
    from eight addresses: the first refused before it is read, the others opened."""
    server = Server(kickoff)
    nulls = open(os.path.join(ROOT, "tests/data/hostile/nulls.toml")).read()
    huge = '[Variant "nulls.toml"]\n\n' + "-- " * (((8 << 20) - 30) // 3) + "*\n"
    long = '[Variant "nulls.toml"]\n\n' + "-- " * 100_000 + "*\n"
    results = []

    def open_record(n, record):
        status, answer = Client(address(3, 300 + n), server.port, Stats()).call(
            "POST", "/api/records/open", {"record": record, "definition": nulls})
        results.append((len(record) > 1_000_000, status))

    threads = [threading.Thread(target=open_record, args=(n, huge)) for n in range(4)]
    threads += [threading.Thread(target=open_record, args=(4 + n, long)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    huge_ok = all(status == 400 for big, status in results if big)
    long_ok = all(status in (200, 503) for big, status in results if not big)
    opened = sum(1 for big, status in results if not big and status == 200)
    return server, huge_ok and long_ok and opened > 0, (
        f"8 MiB records: {sorted(s for b, s in results if b)}; "
        f"100,000 turns: {opened} of 8 opened")


def definition_of(n, kinds=12):
    """A 16x24 board of `kinds` kinds of riders (up to 16; about 1 MiB of rules a kind), made
    distinct by its name."""
    letters = "BCDEFGHIJLMOPQRSTUVWXYZ"[:kinds]
    lines = ["format = 1", "[variant]", f'name = "Wide {n}"', "[board]", "files = 16",
             "ranks = 24", "[goals]", 'white = "h24"', 'black = "h1"']
    for i, letter in enumerate(letters):
        moves = ["QNN", "RB", "NAD", "Q", "WFDAN"][i % 5]
        lines += [f"[pieces.{letter}]", f'name = "p{i}"', f'moves = "{moves}"']
    row = letters + (str(16 - len(letters)) if len(letters) < 16 else "")
    lines += ["[setup]", f'fen = "16/{row.lower()}/' + "/".join(["16"] * 9) + "/7a8/"
              + "/".join(["16"] * 10) + f'/{row}/16 w 0"']
    return "\n".join(lines) + "\n"


@case
def games_of_large_definitions(kickoff):
    """300 games, each of its own definition of 12 MiB of rules, each followed by an event
    stream, from 75 addresses: games are let go past the memory of games, streams and all."""
    server = Server(kickoff)
    streams, made = [], 0
    for n in range(300):
        client = Client(address(3, 400 + n // 4), server.port, Stats())
        status, game = client.call("POST", "/api/games",
                                   {"definition": definition_of(n), "opponent": "hotseat"})
        if status != 200:
            continue
        made += 1
        s = socket.create_connection(("127.0.0.1", server.port),
                                     source_address=(address(3, 400 + n // 4), 0))
        s.sendall(f"GET /api/games/{game['id']}/{game['key']}/events HTTP/1.1\r\n"
                  "Host: 127.0.0.1\r\n\r\n".encode())
        streams.append(s)
    time.sleep(1)
    for s in streams:
        s.close()
    return server, made >= 250, f"{made} games made, {len(streams)} streams"


@case
def heavy_definitions(kickoff):
    """Ten addresses send definitions of 100,000 tables and boards of riders of every kind to
    be checked, drawn and simulated, all at once; a definition of 116 MiB of rules is refused
    as a game."""
    server = Server(kickoff)
    tables = 'extends = "boyer-1951"\n' + "".join(f"[x{i}]\n" for i in range(100000))
    monster = definition_of(0, kinds=16)
    for moves in ["QNN", "RB", "NAD", "Q", "WFDAN"]:
        monster = monster.replace(f'"{moves}"', '"QNNCCZZAADDGGHH"')
    results = []

    def flood(n):
        client = Client(address(3, 600 + n), server.port, Stats())
        for text in (tables, monster):
            results.append(client.call("POST", "/api/definitions/check", {"text": text})[0])
        results.append(client.call("POST", "/api/definitions/simulate",
                                   {"text": monster, "games": 5})[0])
        status, answer = client.call("POST", "/api/games",
                                     {"definition": monster, "opponent": "hotseat"})
        results.append(("game", status))

    threads = [threading.Thread(target=flood, args=(n,)) for n in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    games = [s for s in results if isinstance(s, tuple)]
    ok = all(s == ("game", 400) for s in games) and normal_request(server)
    return server, ok, f"answers {sorted(str(s) for s in results)[:6]}..., games {games[:3]}"


@case
def draw_offers(kickoff):
    """Ten games against the engine in positions of millions of turns, ten draw offers at
    once: no more searches run than the two workers."""
    server = Server(kickoff)
    text = open(os.path.join(ROOT, "tests/data/hostile/explode16.toml")).read()
    games = []
    for n in range(10):
        client = Client(address(3, 700 + n), server.port, Stats())
        status, game = client.call("POST", "/api/games", {"definition": text,
                                                          "opponent": "engine", "level": 1})
        if status == 200:
            games.append((client, f"/api/games/{game['id']}/{game['key']}"))
    threads = [threading.Thread(target=lambda c, p: c.call("POST", f"{p}/draw",
                                                           {"action": "offer"}), args=g)
               for g in games]
    for t in threads:
        t.start()
    most = server.busy_threads(4.0)
    for t in threads:
        t.join()
    # Two workers, and the threads that serve requests meanwhile.
    return server, most <= 4 and len(games) == 10, f"at most {most} threads busy at once"


def random_record(kickoff, folder, turns):
    """A random game of `tests/data/hostile/stepbomb.toml` (16x24, turns of 16 piece moves and
    kicks) of `turns` turns, as `kickoff match` records it: its text, and the definition's."""
    definition = os.path.join(ROOT, "tests/data/hostile/stepbomb.toml")
    subprocess.run([kickoff, "match", definition, "--white", "random", "--black", "random",
                    "--games", "1", "--max-turns", str(turns), "--records", folder],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(folder, "game-0001.txt")) as f:
        record = f.read()
    with open(definition) as f:
        text = f.read()
    return record, text


def engine_replies(server, ip, until):
    """A player against the engine (mini, level 1) from `ip` while `until()` is false: the seconds
    each of the engine's replies took, from the turn played to the reply seen."""
    client = Client(ip, server.port, Stats())
    _, game = client.call("POST", "/api/games", {"variant": "mini", "opponent": "engine",
                                                 "level": 1})
    base = f"/api/games/{game['id']}/{game['key']}"
    waits = []
    while not until() and len(waits) < 20:
        _, view = client.call("GET", base)
        if not view or view.get("ending") or not view.get("step"):
            time.sleep(0.2)
            continue
        actions = [view["step"]["next"][0]["action"]]
        _, step = client.call("POST", base + "/step", {"actions": actions})
        while not step["step"]["can_stop"]:
            actions.append(step["step"]["next"][0]["action"])
            _, step = client.call("POST", base + "/step", {"actions": actions})
        start = time.monotonic()
        client.call("POST", base + "/play", {"actions": actions})
        while client.call("GET", base)[1].get("thinking"):
            time.sleep(0.1)
        waits.append(time.monotonic() - start)
    return waits


@case
def records_of_long_turns(kickoff):
    """Three records of 40,000 turns of 16 piece moves (3 MB each), opened at once from three
    addresses, while a player plays the engine: each is replayed for 10 s at most into an answer
    of 24 MiB at most, and the engine's replies wait for a worker no longer than that."""
    folder = tempfile.mkdtemp(prefix="kickoff-records-")
    record, definition = random_record(kickoff, folder, 40_000)
    shutil.rmtree(folder, ignore_errors=True)
    server = Server(kickoff)
    results = []

    def open_record(n):
        status, answer = Client(address(3, 900 + n), server.port, Stats(), hostile=True).call(
            "POST", "/api/records/open", {"record": record, "definition": definition})
        answer = answer or {}
        size = len(json.dumps(answer, separators=(",", ":"), ensure_ascii=False).encode())
        results.append((status, len(answer.get("plies", [])), size, answer.get("error") or ""))

    threads = [threading.Thread(target=open_record, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    time.sleep(1)
    waits = engine_replies(server, address(3, 910), lambda: not any(t.is_alive() for t in threads))
    for t in threads:
        t.join()
    bounded = all(status == 503 or (status == 200 and size <= 24 << 20 and "at most" in error)
                  for status, _, size, error in results)
    longest = max(waits, default=0)
    ok = bounded and len(results) == 3 and waits and longest < 30
    return server, ok, (
        f"answers {[(s, f'{n} turns', f'{b / 1e6:.1f} MB') for s, n, b, _ in results]}; "
        f"the engine's replies meanwhile: {len(waits)}, the longest {longest:.1f} s")


@case
def games_read_back(kickoff):
    """Two addresses ask in turn, five requests at once each, for eight games of 9,999 turns of
    16 piece moves and twelve of 12 MiB of rules, always let go before they are asked for again,
    for 30 s; meanwhile a player plays at a hot seat: none of its requests is refused or waits a
    second, since games are read back on the work queue when that is heavy."""
    folder = tempfile.mkdtemp(prefix="kickoff-server-")
    record, definition = random_record(kickoff, folder, 9_999)
    os.remove(os.path.join(folder, "game-0001.txt"))
    stem = "0123456789abcdef00000000"
    with open(os.path.join(folder, stem + ".toml"), "w") as f:
        f.write(definition)
    turns = record.split("\n\n", 1)[1].replace("1/2-1/2", "*")
    games = []
    for n in range(8):
        gid, key = f"{n:024x}", f"{n + 1:032x}"
        with open(os.path.join(folder, gid + ".txt"), "w") as f:
            f.write(f'[Variant "{stem}.toml"]\n[White "human"]\n[Black "human"]\n'
                    f'[Mode "hotseat"]\n[WhiteKey "{key}"]\n[BlackKey "{key}"]\n'
                    f'[Result "*"]\n\n{turns}')
        games.append((gid, key))
    server = Server(kickoff, folder=folder)
    server.own_folder = True
    for n in range(12):
        client = Client(address(3, 920 + n // 4), server.port, Stats())
        status, game = client.call("POST", "/api/games",
                                   {"definition": definition_of(n), "opponent": "hotseat"})
        if status == 200:
            games.insert(2 * n % (len(games) + 1), (game["id"], game["key"]))
    stop = time.monotonic() + 30
    hostile = Stats()

    def ask(ip, first):
        client = Client(ip, server.port, hostile, hostile=True)
        n = first
        while time.monotonic() < stop:
            gid, key = games[n % len(games)]
            n += 1
            status, _ = client.call("GET", f"/api/games/{gid}/{key}")
            hostile.saw(status)
            if status in (429, 503):
                time.sleep(0.05)

    threads = [threading.Thread(target=ask, args=(address(3, 930 + a), 3 * t))
               for a in range(2) for t in range(5)]
    for t in threads:
        t.start()
    stats = Stats()
    player = Client(address(3, 940), server.port, stats)
    _, game = player.call("POST", "/api/games", {"variant": "boyer-1951", "opponent": "hotseat"},
                          kind="new game")
    base = f"/api/games/{game['id']}/{game['key']}"
    played = 0
    while time.monotonic() < stop:
        _, view = player.call("GET", base, kind="state")
        if not view or view.get("ending"):
            player.call("POST", base + "/undo", kind="undo")
            continue
        actions, step = [], view["step"]
        while step["next"] and not (step["can_stop"] and actions):
            actions.append(step["next"][len(actions) % len(step["next"])]["action"])
            _, answer = player.call("POST", base + "/step", {"actions": actions}, kind="step")
            step = answer["step"]
        player.call("POST", base + "/play", {"actions": actions}, kind="play")
        played += 1
        time.sleep(0.5)
    for t in threads:
        t.join()
    slowest = max(max(v) for v in stats.latency.values())
    ok = not stats.refusals and not stats.errors and slowest < 1.0 and played > 10
    return server, ok, (
        f"{played} turns played, the slowest request {slowest:.2f} s, refusals "
        f"{dict(stats.refusals)}; the hostile answers {dict(hostile.hostile)}")


@case
def starts_beyond_counting(kickoff):
    """Two definitions whose start has more than 2,000,000 turns (`kickchain.toml`) checked at
    once, three times: their kick chains are walked until they are found too many."""
    server = Server(kickoff)
    text = open(os.path.join(ROOT, "tests/data/hostile/kickchain.toml")).read()
    results = []

    def check(n):
        status, answer = Client(address(3, 950 + n), server.port, Stats()).call(
            "POST", "/api/definitions/check", {"text": text})
        results.append((status, (answer or {}).get("warnings")))

    for _ in range(3):
        threads = [threading.Thread(target=check, args=(n,)) for n in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    ok = all(status == 200 and warnings == 1 for status, warnings in results)
    return server, ok, f"answers {results}"


@case
def any_host(kickoff):
    """Bound to every address, the server still refuses a rebound host name."""
    server = Server(kickoff, "--host", "0.0.0.0")
    s = socket.create_connection(("127.0.0.1", server.port))
    s.sendall(b"POST /api/games HTTP/1.1\r\nHost: rebound.example\r\nOrigin: http://rebound.example"
              b"\r\nContent-Type: application/json\r\nContent-Length: 23\r\n\r\n"
              b'{"opponent":"hotseat"}\n')
    status = s.recv(12)
    return server, status == b"HTTP/1.1 421", f"answer {status!r}"


@case
def damaged_record(kickoff):
    """A wrong key for a game whose record cannot be read is the 404 of a missing game."""
    folder = tempfile.mkdtemp(prefix="kickoff-server-")
    gid = "0123456789abcdef01234567"
    with open(os.path.join(folder, gid + ".txt"), "w") as f:
        f.write("garbage [[[\n")
    server = Server(kickoff, folder=folder)
    client = Client(address(3, 800), server.port, Stats())
    wrong = client.call("GET", f"/api/games/{gid}/{'0' * 32}")
    missing = client.call("GET", f"/api/games/{'1' * 24}/{'0' * 32}")
    server.own_folder = True
    return server, wrong == missing and wrong[0] == 404, f"{wrong[0]} and {missing[0]}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kickoff", default=os.path.join(ROOT, "target/release/kickoff"))
    parser.add_argument("cases", nargs="*", metavar="CASE", help=", ".join(CASES))
    args = parser.parse_args()
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        parser.error(f"no such case: {', '.join(unknown)} (the cases: {', '.join(CASES)})")
    raise_file_limit()
    failed = 0
    print(f"{'case':<28} {'peak MiB':>8} {'seconds':>7}  outcome")
    for name in args.cases or CASES:
        start = time.monotonic()
        server, ok, what = CASES[name](args.kickoff)
        alive = server.stop()
        ok = ok and alive and server.peak_kib < GIB_KIB
        failed += not ok
        died = "" if alive else f" (the server died: exit {server.exit})"
        print(f"{name:<28} {server.peak_kib // 1024:>8} {time.monotonic() - start:>7.0f}  "
              f"{'ok  ' if ok else 'FAIL'} {what}{died}")
        sys.stdout.flush()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
