#!/usr/bin/env python3
"""Soak test of `kickoff serve`: many games at once, with hostile clients beside them.

Starts `kickoff serve` on a free loopback port with its own games folder, then for a fixed time:

- players: half the games against the engine (levels 1 to 4 in turn), half between two API
  clients that play as two browsers do (each side its own link, following the game's event
  stream); each turn is entered action by action (`step`), then played (`play`), after a think
  time of 0.5 s to 2.5 s; a finished game is followed by a new one;
- hostile clients: sockets left idle, heads drip-fed a byte at a time, bodies over the limits or
  never finished, floods of draw offers, and floods of definitions to check;
- lobby traffic (`--correspondence N --live N`): accounts made, each pair meeting by a seek and
  its acceptance, then playing through the lobby's API (`POST /api/games/ID/turn`, the turn's
  text found by the game's `step` requests with the key the game gives its player), live games
  (10 minutes and 5 s) followed by event streams and by `--spectators K` spectators each,
  correspondence games (3 days a turn) checked every 5 to 15 s as a player checks a list;
  players chat now and then; a finished game is followed by a rematch.

Every client has its own loopback address (127.x.y.z), so the server's limits per client are the
ones a real crowd meets. Prints the latency of turns (p50/p99), of steps and of the engine's
replies, the server's peak memory, and the errors players met; `--json FILE` writes them too.
Exit status 1 when a player met an error or the server went past `--max-mib` MiB.

Usage: scripts/soak.py [--kickoff PATH] [--seconds 300] [--games 200] [--correspondence 0]
                      [--live 0] [--spectators 2] [--json FILE]
Only loopback traffic; every thread stops at the deadline.
"""

import argparse
import http.client
import json
import os
import random
import resource
import socket
import statistics
import sys
import threading
import time

from serverkit import ROOT, Client, Server, Stats, address, raise_file_limit


class Follower:
    """A game's event stream, read as a page reads it: each update sets `changed`."""

    def __init__(self, ip, port, path, stop):
        self.changed = threading.Event()
        self.ip, self.port, self.path, self.stop = ip, port, path, stop
        threading.Thread(target=self._follow, daemon=True).start()

    def _follow(self):
        while not self.stop.is_set():
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=5,
                                             source_address=(self.ip, 0))
                s.sendall(f"GET {self.path}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
                s.settimeout(1.0)
                while not self.stop.is_set():
                    try:
                        chunk = s.recv(4096)
                    except socket.timeout:
                        continue
                    if not chunk:
                        break
                    if b"data:" in chunk:
                        self.changed.set()
                s.close()
            except OSError:
                pass
            self.stop.wait(1.0)  # as a browser's EventSource reconnects


def play_turn(client, path, step, stats):
    """Enters a random turn action by action, then plays it; the time of `play` recorded."""
    actions = []
    while True:
        choices = step["next"]
        if step["can_stop"] and (not choices or random.random() < 0.5):
            break
        if not choices:
            if not actions and step["null_ok"]:
                break
            return False
        actions.append(random.choice(choices)["action"])
        status, answer = client.call("POST", f"{path}/step", {"actions": actions}, "step")
        if status != 200:
            stats.error(f"step: {status} {answer}")
            return False
        step = answer["step"]
    status, answer = client.call("POST", f"{path}/play", {"actions": actions}, "turn")
    if status != 200:
        stats.error(f"turn: {status} {answer}")
        return False
    stats.count("turns")
    return True


def seat(client, path, follower, stop, stats, against_engine):
    """Plays one side of a game until it ends or the soak does."""
    waiting_since = None
    while not stop.is_set():
        follower.changed.clear()
        status, view = client.call("GET", path, None, "state")
        if status != 200 or view is None:
            stats.error(f"state: {status}")
            return
        if view["ending"]:
            stats.count("games finished")
            return
        if view["step"] is None:
            if waiting_since is None and against_engine and view["thinking"]:
                waiting_since = time.monotonic()
            follower.changed.wait(2.0)
            continue
        if waiting_since is not None:
            stats.time("engine reply", time.monotonic() - waiting_since)
            waiting_since = None
        if stop.wait(random.uniform(0.5, 2.5)):
            return
        if play_turn(client, path, view["step"], stats) and against_engine:
            waiting_since = time.monotonic()


def players(n, port, stop, stats, variants):
    """Player `n`: games against the engine (even n) or between two clients (odd n)."""
    rng = random.Random(n)
    me = Client(address(1, 2 * n), port, stats)
    other = Client(address(1, 2 * n + 1), port, stats)
    while not stop.is_set():
        variant = rng.choice(variants)
        if n % 2 == 0:
            request = {"variant": variant, "opponent": "engine", "level": 1 + (n // 2) % 4,
                       "side": rng.choice(["white", "black"])}
        else:
            request = {"variant": variant, "opponent": "remote", "side": "white"}
        status, made = me.call("POST", "/api/games", request, "new game")
        if status != 200:
            stats.error(f"new game: {status} {made}")
            stop.wait(5)
            continue
        stats.count("games started")
        path = f"/api/games/{made['id']}/{made['key']}"
        game_stop = threading.Event()
        follow = Follower(me.ip, port, path, game_stop)
        threads = [threading.Thread(target=seat, args=(me, path, follow, stop, stats, n % 2 == 0))]
        if n % 2 == 1:
            theirs = made["invite"].replace("/play/", "/api/games/")
            follow_other = Follower(other.ip, port, theirs, game_stop)
            threads.append(threading.Thread(
                target=seat, args=(other, theirs, follow_other, stop, stats, False)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        game_stop.set()


# Lobby traffic -----------------------------------------------------------------------------

def sign_up(ip, port, stats, name):
    """A new account made from its own address; returns a client signed in by its token."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(ip, 0))
    start = time.monotonic()
    body = json.dumps({"name": name, "password": "soak password"})
    conn.request("POST", "/api/account", body=body, headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    response.read()
    stats.time("account", time.monotonic() - start)
    if response.status != 201:
        stats.error(f"account: {response.status}")
        return None
    cookie = response.getheader("Set-Cookie").split(";")[0]
    conn.request("POST", "/api/tokens", headers={"Cookie": cookie})
    response = conn.getresponse()
    answer = json.loads(response.read() or b"null")
    conn.close()
    if response.status != 201:
        stats.error(f"token: {response.status}")
        return None
    return Client(ip, port, stats, token=answer["token"])


def lobby_turn(client, game, view, stats):
    """The player's turn: walked action by action with the game's key, played by its text."""
    path = f"/api/games/{game}/{view['key']}"
    status, answer = client.call("GET", path, None, "state")
    if status != 200 or answer is None or answer["step"] is None:
        return
    step = answer["step"]
    actions, name = [], "--"
    while True:
        choices = step["next"]
        if step["can_stop"] and (not choices or random.random() < 0.5):
            name = step["name"] or "--"
            break
        if not choices:
            if not actions and step["null_ok"]:
                break
            return
        actions.append(random.choice(choices)["action"])
        status, answer = client.call("POST", f"{path}/step", {"actions": actions}, "step")
        if status != 200:
            stats.error(f"step: {status} {answer}")
            return
        step = answer["step"]
    status, answer = client.call("POST", f"/api/games/{game}/turn", {"turn": name}, "lobby turn")
    if status == 200:
        stats.count("lobby turns")
    elif status == 409:
        stats.count("lobby turns after the end")
    else:
        stats.error(f"lobby turn: {status} {answer}")


def lobby_player(client, game_box, live, stop, stats, rng):
    """Plays the games in `game_box[0]` (a rematch replaces it) until the soak ends."""
    follower, followed = None, None
    turns = 0
    while not stop.is_set():
        game = game_box[0]
        if live and followed != game:
            if follower:
                follower.stop.set()
            follower = Follower(client.ip, client.port, f"/api/games/{game}", threading.Event())
            followed = game
        status, view = client.call("GET", f"/api/games/{game}", None, "lobby state")
        if status != 200 or view is None:
            stats.error(f"lobby state: {status}")
            stop.wait(5)
            continue
        if view["result"] is not None:
            if view["your_side"] == "white":
                stats.count(f"lobby games ended: {view['termination']}")
            status, answer = client.call("POST", f"/api/games/{game}/rematch", None, "rematch")
            if status == 201 and answer and "game" in answer:
                game_box[0] = answer["game"]
                stats.count("rematches")
            elif status not in (201, 409):
                stats.error(f"rematch: {status} {answer}")
            else:
                # Wait for the other player's rematch, or for our offer to be taken.
                for _ in range(30):
                    if stop.wait(1):
                        return
                    status, mine = client.call("GET", "/api/my/games", None, "my games")
                    if mine and mine[0]["id"] != game and mine[0]["result"] is None:
                        game_box[0] = mine[0]["id"]
                        break
            continue
        if view["to_move"] != view["your_side"]:
            if live:
                follower.changed.clear()
                follower.changed.wait(2.0)
            else:
                stop.wait(rng.uniform(5, 15))
            continue
        if stop.wait(rng.uniform(0.5, 2.5) if live else rng.uniform(1, 5)):
            break
        lobby_turn(client, game, view, stats)
        turns += 1
        if turns % 10 == 0:
            status, _ = client.call("POST", f"/api/games/{game}/chat",
                                    {"text": f"turn {turns}: well played"}, "chat")
            if status not in (201, 429):
                stats.error(f"chat: {status}")
    if follower:
        follower.stop.set()


def spectator(ip, port, game_box, stop, stats):
    """Follows a live game's events and reads the game at each change, as its page does."""
    client = Client(ip, port, stats)
    follower = Follower(ip, port, f"/api/games/{game_box[0]}", stop)
    while not stop.is_set():
        if follower.changed.wait(2.0):
            follower.changed.clear()
            status, _ = client.call("GET", f"/api/games/{game_box[0]}", None, "watched state")
            if status != 200:
                stats.error(f"watched state: {status}")
            stats.count("watched updates")


def lobby_pair(n, is_live, port, stop, stats, spectators, threads):
    """Pair `n`: two accounts, a seek and its acceptance, then their players and spectators."""
    seeker = sign_up(address(3, 2 * n), port, stats, f"soak{n}a")
    taker = sign_up(address(3, 2 * n + 1), port, stats, f"soak{n}b")
    if seeker is None or taker is None or stop.is_set():
        return
    clock = {"initial": 600, "increment": 5} if is_live else {"days": 3}
    seek = {"variant": random.choice(["boyer-1951", "vchess", "football-960"]),
            "clock": clock, "color": "random"}
    status, made = seeker.call("POST", "/api/seeks", seek, "seek")
    if status != 201:
        stats.error(f"seek: {status} {made}")
        return
    status, game = taker.call("POST", f"/api/seeks/{made['id']}/accept", None, "accept")
    if status != 201:
        stats.error(f"accept: {status} {game}")
        return
    stats.count("lobby games made")
    box = [game["game"]]
    for i, client in enumerate((seeker, taker)):
        rng = random.Random(2 * n + i)
        t = threading.Thread(target=lobby_player, args=(client, box, is_live, stop, stats, rng))
        t.start()
        threads.append(t)
    if is_live:
        for k in range(spectators):
            t = threading.Thread(target=spectator,
                                 args=(address(4, spectators * n + k), port, box, stop, stats))
            t.start()
            threads.append(t)


def lobby(port, stop, stats, correspondence, live, spectators):
    """Makes the lobby's pairs, live games first, eight at a time, each then playing at once;
    returns the list their threads are added to."""
    threads = []
    order = list(range(correspondence, correspondence + live)) + list(range(correspondence))

    def maker(k):
        for n in order[k::8]:
            if stop.is_set():
                return
            lobby_pair(n, n >= correspondence, port, stop, stats, spectators, threads)

    makers = [threading.Thread(target=maker, args=(k,), daemon=True) for k in range(8)]
    for t in makers:
        t.start()
    threads.extend(makers)
    return threads


# Hostile clients ---------------------------------------------------------------------------

def idle_sockets(port, stop, stats, ip, count):
    """Keeps `count` sockets open and silent from one address, opening a new one for each the
    server closes."""
    socks = []
    while not stop.is_set():
        while len(socks) < count and not stop.is_set():
            try:
                socks.append(socket.create_connection(("127.0.0.1", port), timeout=5,
                                                      source_address=(ip, 0)))
                stats.saw("idle socket opened")
            except OSError:
                stats.saw("idle socket refused at connect")
                break
        stop.wait(1.0)
        alive = []
        for s in socks:
            s.setblocking(False)
            try:
                if s.recv(1) == b"":
                    stats.saw("idle socket closed by the server")
                    s.close()
                    continue
            except BlockingIOError:
                pass
            except OSError:
                stats.saw("idle socket closed by the server")
                s.close()
                continue
            alive.append(s)
        socks = alive
    for s in socks:
        s.close()


def drip(port, stop, stats, ip):
    """Sends a request's head one byte every half second, again and again."""
    head = b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"x" * 4000
    while not stop.is_set():
        start = time.monotonic()
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(ip, 0))
            for b in head:
                if stop.is_set():
                    break
                s.send(bytes([b]))
                time.sleep(0.5)
            s.close()
        except OSError:
            stats.saw(f"drip cut after {round(time.monotonic() - start)} s")


def oversized(port, stop, stats, ip):
    """Bodies over the limit, bodies that never finish, records beyond the viewer's turns."""
    client = Client(ip, port, stats, hostile=True)
    big = "#" * (3 << 20)
    nulls = "[Variant \"boyer-1951\"]\n\n" + "Nc3 Nc7 Nb1 Nb9 " * 30000
    while not stop.is_set():
        status, _ = client.call("POST", "/api/definitions/check", {"text": big}, "big body")
        stats.saw(f"3 MiB definition: {status}")
        status, _ = client.call("POST", "/api/records/open", {"record": nulls}, "long record")
        stats.saw(f"record of 120,000 turns: {status}")
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=90, source_address=(ip, 0))
            s.sendall(b"POST /api/definitions/check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"Content-Type: application/json\r\nContent-Length: 3000000\r\n\r\n{\"text\":\"")
            start = time.monotonic()
            answer = s.recv(64)
            if stop.is_set():
                break
            stats.saw(f"unfinished body: {answer[:12].decode(errors='replace')} after "
                      f"{round(time.monotonic() - start)} s")
            s.close()
        except OSError as e:
            stats.saw(f"unfinished body: {type(e).__name__}")
        stop.wait(1.0)


def draw_flood(port, stop, stats, ip):
    """Offers draws in games against the engine as fast as the server lets it, starting a new
    game when one ends."""
    client = Client(ip, port, stats, hostile=True)
    path = None
    while not stop.is_set():
        if path is None:
            status, made = client.call("POST", "/api/games", {"opponent": "engine", "level": 2})
            if status != 200:
                stats.saw(f"draw flood, new game: {status}")
                stop.wait(3)
                continue
            path = f"/api/games/{made['id']}/{made['key']}"
        try:
            client.conn = client.conn or http.client.HTTPConnection(
                "127.0.0.1", port, timeout=60, source_address=(ip, 0))
            client.conn.request("POST", f"{path}/draw", body=b'{"action":"offer"}',
                                headers={"Content-Type": "application/json"})
            response = client.conn.getresponse()
            answer = response.read()
            stats.saw(f"draw offer: {response.status}")
            if b"accepted" in answer or response.status == 409:
                path = None
        except (OSError, http.client.HTTPException):
            client.conn = None
            stats.saw("draw offer: connection lost")
            stop.wait(0.01)  # the flood's own processor time is the players' too


def check_flood(port, stop, stats, ip, text):
    """Sends a heavy definition to be checked, again and again."""
    client = Client(ip, port, stats, hostile=True)
    while not stop.is_set():
        try:
            client.conn = client.conn or http.client.HTTPConnection(
                "127.0.0.1", port, timeout=60, source_address=(ip, 0))
            client.conn.request("POST", "/api/definitions/check",
                                body=json.dumps({"text": text}).encode(),
                                headers={"Content-Type": "application/json"})
            response = client.conn.getresponse()
            response.read()
            stats.saw(f"heavy check: {response.status}")
        except (OSError, http.client.HTTPException):
            client.conn = None
            stats.saw("heavy check: connection lost")
            stop.wait(0.01)


def hostile(port, stop, stats):
    """Starts every hostile client; returns their threads."""
    heavy = 'extends = "boyer-1951"\n' + "".join(f"[x{i}]\n" for i in range(100000))
    jobs = [(idle_sockets, (address(2, 0), 300)), (idle_sockets, (address(2, 1), 300))]
    jobs += [(idle_sockets, (address(2, 10 + i), 40)) for i in range(10)]
    jobs += [(drip, (address(2, 30 + i),)) for i in range(20)]
    jobs += [(oversized, (address(2, 60 + i),)) for i in range(4)]
    jobs += [(draw_flood, (address(2, 70 + i % 3),)) for i in range(9)]
    jobs += [(check_flood, (address(2, 80 + i), heavy)) for i in range(4)]
    threads = [threading.Thread(target=f, args=(port, stop, stats, *args), daemon=True)
               for f, args in jobs]
    for t in threads:
        t.start()
    return threads


def percentile(values, p):
    values = sorted(values)
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kickoff", default=os.path.join(ROOT, "target/release/kickoff"))
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--correspondence", type=int, default=0)
    parser.add_argument("--live", type=int, default=0)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--no-hostile", action="store_true")
    parser.add_argument("--max-mib", type=int, default=1024)
    parser.add_argument("--json")
    args = parser.parse_args()
    raise_file_limit()
    random.seed(1)
    stats = Stats()
    server = Server(args.kickoff)
    stop = threading.Event()
    started = time.monotonic()
    threads = [threading.Thread(target=players, args=(n, server.port, stop, stats,
                                                      ["boyer-1951", "vchess", "football-960"]))
               for n in range(args.games)]
    for t in threads:
        t.start()
    if not args.no_hostile:
        hostile(server.port, stop, stats)
    lobby_threads = lobby(server.port, stop, stats, args.correspondence, args.live,
                          args.spectators)
    while time.monotonic() - started < args.seconds and server.process.poll() is None:
        time.sleep(1)
    stop.set()
    for t in threads + list(lobby_threads):
        t.join(timeout=70)
    alive = server.stop()
    report = {
        "seconds": round(time.monotonic() - started),
        "games": args.games,
        "lobby games": {"correspondence": args.correspondence, "live": args.live,
                        "spectators each": args.spectators},
        "hostile": not args.no_hostile,
        "server survived": alive,
        "server exit (a negative code is the signal)": server.exit,
        "peak MiB": server.peak_kib // 1024,
        "server CPU s": round(server.cpu or 0),
        "soak clients CPU s": round(sum(resource.getrusage(resource.RUSAGE_SELF)[:2])),
        "median MiB": (statistics.median(server.samples) // 1024) if server.samples else None,
        "latency ms": {kind: {"n": len(v), "p50": round(1000 * percentile(v, 50)),
                              "p99": round(1000 * percentile(v, 99))}
                       for kind, v in sorted(stats.latency.items())},
        "counts": dict(stats.counts),
        "player errors": dict(stats.errors),
        "player requests refused for now, then asked again": dict(stats.refusals),
        "hostile outcomes": dict(stats.hostile.most_common(30)),
        "server warnings": server.warnings[:20],
    }
    print(json.dumps(report, indent=2))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    failed = not alive or stats.errors or server.peak_kib > args.max_mib * 1024
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
