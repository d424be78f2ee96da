#!/usr/bin/env python3
"""An independent forced-goal solver for Football Chess, on top of football.py.

forced(fen, rules, N) -> (verdict, k): whether the side to move forces a goal (the ball on
the goal it attacks, by its own kick or by the defender's own goal) within N of its own turns,
every defence tried (null turns and forced passes included).  k is the smallest number of own
turns that wins, or None.

Repetition: a game is drawn when a position (placement, ball, side to move; the turn counter
ignored) occurs for the third time, counting from the solved position on (it is the first
occurrence).  A draw is not a win.  `no_goal_before` uses the turn count of the FEN.

Search: plain AND/OR search with early exits, a "can the side to move score this turn" test
at the attacker's last turn (memoised: it depends on the position only), and memoisation of
inner nodes keyed by the position, the turns left and every earlier position of the line that
could still become a third occurrence below that node (so the cached answer never depends on
history it does not record).

Usage:
  solve.py solve RULES "FEN" N
  solve.py generate --seed SEED --out FILE [--n3 COUNT]
  solve.py selfcheck COUNT SEED               forced() against a plain search, N = 1 and 2
  solve.py compare FILE --kickoff BINARY      (check a data file against a kickoff binary)
"""

import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import football as F  # noqa: E402

CHEB = [[max(abs(a % 9 - b % 9), abs(a // 9 - b // 9)) for b in range(81)] for a in range(81)]


class Timeout(Exception):
    """The search expanded more nodes than it was allowed."""


class Solver:
    node_limit = None    # node count at which forced() gives up (raises Timeout)
    draw_at = 3          # end.repetition: the occurrence of a position that draws

    @staticmethod
    def rep_key(pl, ball, side, turns):
        """What counts as the same position for repetition: the turn counter is ignored."""
        return (pl, ball, side)

    def __init__(self, rules):
        self.R = F.RULES[rules]
        self.score_memo = {}
        self.nodes = 0

    def can_score(self, pl, ball, side, turns):
        ok_goal = turns >= self.R.no_goal_before
        if not ok_goal:
            return False
        key = (pl, ball, side)
        got = self.score_memo.get(key)
        if got is None:
            if len(self.score_memo) > 3_000_000:
                self.score_memo.clear()
            got = F.can_score(pl, ball, side, turns, self.R)
            self.score_memo[key] = got
        return got

    def forced(self, fen, n):
        pl, ball, side, turns = F.parse_fen(fen)
        if F.IS_GOAL[ball]:
            raise ValueError('the game is over: the ball is on a goal square')
        self.memo = {}
        for m in range(1, n + 1):
            hist = {self.rep_key(pl, ball, side, turns): 1}
            if self.win(pl, ball, side, turns, m, hist):
                return 'win', m
        return 'no-win', None

    def win(self, pl, ball, side, turns, m, hist):
        """Does the side to move (the attacker) force a goal within m of its turns?"""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise Timeout()
        if self.can_score(pl, ball, side, turns):
            return True
        if m == 1:
            return False
        R = self.R
        # Earlier positions that could still reach a third occurrence below this node:
        # below it each side has at most m - 1 more positions that can be drawn.
        need = self.draw_at + 1 - m
        rel = frozenset(kv for kv in hist.items() if kv[1] >= need) if need > 0 else \
            frozenset(hist.items())
        key = (pl, ball, side, min(turns, R.no_goal_before), m, rel)
        got = self.memo.get(key)
        if got is not None:
            return got
        me, other = side, 1 - side
        my_goal, their_goal = F.TARGET[me], F.TARGET[other]
        cand = [r for r in F.successors(pl, ball, me, turns, R) if not F.IS_GOAL[r[1]]]
        dist = CHEB[my_goal]
        cand.sort(key=lambda r: dist[r[1]])
        result = False
        for pl2, b2 in cand:
            k2 = self.rep_key(pl2, b2, other, turns + 1)
            c2 = hist.get(k2, 0) + 1
            if c2 >= self.draw_at:
                continue            # drawn at once
            hist[k2] = c2
            replies = F.successors(pl2, b2, other, turns + 1, R)
            refuted = False
            todo = []
            for pl3, b3 in replies:
                if b3 == their_goal:
                    refuted = True   # the defender scores
                    break
                if b3 == my_goal:
                    continue         # the defender's own goal: a win
                todo.append((pl3, b3))
            if not refuted:
                todo.sort(key=lambda r: -dist[r[1]])
                for pl3, b3 in todo:
                    k3 = self.rep_key(pl3, b3, me, turns + 2)
                    c3 = hist.get(k3, 0) + 1
                    if c3 >= self.draw_at:
                        refuted = True   # the defender draws by repetition
                        break
                    hist[k3] = c3
                    w = self.win(pl3, b3, me, turns + 2, m - 1, hist)
                    if c3 == 1:
                        del hist[k3]
                    else:
                        hist[k3] = c3 - 1
                    if not w:
                        refuted = True
                        break
            if c2 == 1:
                del hist[k2]
            else:
                hist[k2] = c2 - 1
            if not refuted:
                result = True
                break
        self.memo[key] = result
        return result


_SOLVERS = {}


def forced(fen, rules, n, max_nodes=None):
    """-> ('win', k) or ('no-win', None); raises Timeout past `max_nodes` nodes if given."""
    s = _SOLVERS.get(rules)
    if s is None:
        s = _SOLVERS[rules] = Solver(rules)
    s.node_limit = None if max_nodes is None else s.nodes + max_nodes
    try:
        return s.forced(fen, n)
    finally:
        s.node_limit = None


# ---------------------------------------------------------------- test data

BOYER_START = 'rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 0'
VCHESS_START = 'rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0'
BACK_FILES = [0, 1, 2, 3, 5, 6, 7, 8]


def random_960(rng):
    while True:
        pieces = list('KQRRBBNN')
        rng.shuffle(pieces)
        bishops = [BACK_FILES[i] for i, p in enumerate(pieces) if p == 'B']
        if bishops[0] % 2 != bishops[1] % 2:
            break
    white = ''.join(pieces[:4]) + '1' + ''.join(pieces[4:])
    return white.lower() + '/9/9/9/4a4/9/9/9/' + white + ' w 0'


def random_line(rng, fen, rules, plies):
    """Random play: each turn a uniformly chosen distinct result that does not score."""
    R = F.RULES[rules]
    pl, ball, side, turns = F.parse_fen(fen)
    for _ in range(plies):
        succ = [r for r in F.successors(pl, ball, side, turns, R) if not F.IS_GOAL[r[1]]]
        if not succ:
            return None
        pl, ball = rng.choice(succ)
        side, turns = 1 - side, turns + 1
    return F.to_fen(pl, ball, side, turns)


def near_goal(fen, dmax):
    pl, ball, side, turns = F.parse_fen(fen)
    return CHEB[ball][F.TARGET[side]] <= dmax


# Constructed positions, each for a rule the random ones rarely meet.
EDGES = [
    # no goal on the first turns: the shot K e7 > e9 waits for turn 2
    ('vchess', '3r5/3Na4/4K4/9/9/9/9/9/9 w 0', (1, 2)),
    ('vchess', '3r5/3Na4/4K4/9/9/9/9/9/9 w 1', (1, 2)),
    ('vchess', '3r5/3Na4/4K4/9/9/9/9/9/9 w 2', (1,)),
    ('boyer', '3r5/3Na4/4K4/9/9/9/9/9/9 w 0', (1,)),
    # White's only turn is the null turn (turns 0 and 1: no goal yet); Black's null turn
    # brings the position back a second time, which is no draw: White then scores
    ('vchess', '9/3bab3/3rKr3/3nqn3/9/9/9/9/9 w 0', (1, 2, 3)),
    ('vchess', '9/3bab3/3rKr3/3nqn3/9/9/9/9/9 w 1', (1, 2)),
    ('boyer', '9/3bab3/3rKr3/3nqn3/9/9/9/9/9 w 0', (1,)),
    # Boyer: Black's king, boxed in, can only kick the ball into its own goal; vchess: it may
    # also stand still (null turn), but not for long
    ('boyer', '9/3BaB3/3RkR3/3NQN3/9/9/9/9/K8 w 10', (1, 2)),
    ('vchess', '9/3BaB3/3RkR3/3NQN3/9/9/9/9/K8 w 10', (1, 2)),
    # Black's king, boxed in a corner away from the ball, has no turn: it passes
    ('boyer', 'kN7/NN2a4/9/9/4K4/9/9/9/9 w 7', (1, 2, 3)),
    ('vchess', 'kN7/NN2a4/9/9/4K4/9/9/9/9 b 8', (1, 2)),
]


def generate(seed, out, n3_count, max_nodes=600_000):
    rng = random.Random(seed)
    rows = []
    seen = set()
    t_start = time.time()
    counter = {}

    def candidate(near, rules=None):
        """A random position: (fen, rules)."""
        while True:
            kind = rng.choice(['boyer', 'vchess', '960'])
            if kind == 'boyer':
                start, r = BOYER_START, 'boyer'
            elif kind == 'vchess':
                start, r = VCHESS_START, 'vchess'
            else:
                start, r = random_960(rng), rng.choice(['boyer', 'vchess'])
            if rules is not None:
                r = rules
            fen = random_line(rng, start, r, rng.randint(1, 40))
            if fen is None or (fen, r) in seen:
                continue
            if near is not None and near_goal(fen, 2) != near:
                continue
            return fen, r

    def add(prefix, n, fen, rules, verdict, k, secs):
        seen.add((fen, rules))
        counter[prefix] = counter.get(prefix, 0) + 1
        rows.append({'id': '%s-%03d' % (prefix, counter[prefix]), 'rules': rules, 'fen': fen,
                     'turns': n, 'verdict': verdict, 'k': k})
        print('%-14s %-6s N=%d %-6s k=%s %6.2fs  %s' % (rows[-1]['id'], rules, n, verdict, k,
                                                       secs, fen), flush=True)

    # constructed positions
    for rules, fen, ns in EDGES:
        for n in ns:
            t0 = time.time()
            v, k = forced(fen, rules, n)
            add('ind-edge-n%d' % n, n, fen, rules, v, k, time.time() - t0)

    # N = 1: 30 positions, two thirds with the ball near the goal the side attacks
    for i in range(30):
        fen, rules = candidate(near=(i % 3 != 2))
        t0 = time.time()
        v, k = forced(fen, rules, 1)
        add('ind-n1', 1, fen, rules, v, k, time.time() - t0)

    # N = 2: 50 positions a rule set: 5 won in one turn, 12 won in two, 33 not won
    for rules in ('boyer', 'vchess'):
        quota = {1: 5, 2: 12, None: 33}
        got = {1: 0, 2: 0, None: 0}
        tries = 0
        while sum(got.values()) < 50:
            tries += 1
            fen, _ = candidate(near=True if got[2] < quota[2] and rng.random() < 0.8 else None,
                               rules=rules)
            t0 = time.time()
            v, k = forced(fen, rules, 2)
            if got[k] >= quota[k]:
                continue
            got[k] += 1
            add('ind-n2', 2, fen, rules, v, k, time.time() - t0)
        print('N=2 %s: %d positions tried' % (rules, tries), flush=True)

    # N = 3: both starts, then n3_count random positions, mostly not won within 2;
    # a position whose search passes max_nodes nodes is left out
    for fen, rules in ((VCHESS_START, 'vchess'), (BOYER_START, 'boyer')):
        t0 = time.time()
        v, k = forced(fen, rules, 3)
        add('ind-n3', 3, fen, rules, v, k, time.time() - t0)
    n3 = 0
    while n3 < n3_count:
        fen, rules = candidate(near=(n3 % 3 != 2))
        v2, k2 = forced(fen, rules, 2)
        if v2 == 'win' and rng.random() < 0.7:
            continue
        t0 = time.time()
        try:
            v, k = forced(fen, rules, 3, max_nodes=max_nodes)
        except Timeout:
            print('left out (over %d nodes): %s %s' % (max_nodes, rules, fen), flush=True)
            continue
        add('ind-n3', 3, fen, rules, v, k, time.time() - t0)
        n3 += 1

    with open(out, 'w') as fh:
        for r in rows:
            fh.write(json.dumps(r) + '\n')
    print('wrote %d positions to %s in %.0f s' % (len(rows), out, time.time() - t_start))


def naive_win(pl, ball, side, turns, R, m, hist):
    """The same question answered the plain way: every turn from the full generator of
    football.py, no memo, no goal test, no pruning but the early exits."""
    me, other = side, 1 - side
    for (pl2, b2) in F.turn_results(pl, ball, me, turns, R):
        if b2 == F.TARGET[me]:
            return True
        if F.IS_GOAL[b2] or m == 1:
            continue
        k2 = (pl2, b2, other)
        if hist.get(k2, 0) + 1 >= 3:
            continue
        hist[k2] = hist.get(k2, 0) + 1
        ok = True
        for (pl3, b3) in F.turn_results(pl2, b2, other, turns + 1, R):
            if b3 == F.TARGET[me]:
                continue
            if F.IS_GOAL[b3]:
                ok = False
                break
            k3 = (pl3, b3, me)
            if hist.get(k3, 0) + 1 >= 3:
                ok = False
                break
            hist[k3] = hist.get(k3, 0) + 1
            w = naive_win(pl3, b3, me, turns + 2, R, m - 1, hist)
            hist[k3] -= 1
            if not w:
                ok = False
                break
        hist[k2] -= 1
        if ok:
            return True
    return False


def self_check(count, seed):
    """forced() against naive_win() on random-play positions, N = 1 and 2."""
    rng = random.Random(seed)
    n = wins = 0
    t0 = time.time()
    while n < count:
        kind = rng.choice(['boyer', 'vchess', '960'])
        start = {'boyer': BOYER_START, 'vchess': VCHESS_START}.get(kind) or random_960(rng)
        rules = rng.choice(['boyer', 'vchess'])
        fen = random_line(rng, start, rules, rng.randint(0, 30))
        if fen is None or (n % 2 == 0 and not near_goal(fen, 2)):
            continue
        pl, ball, side, turns = F.parse_fen(fen)
        for m in (1, 2):
            v, k = Solver(rules).forced(fen, m)
            naive = next((j for j in range(1, m + 1) if naive_win(
                pl, ball, side, turns, F.RULES[rules], j, {(pl, ball, side): 1})), None)
            assert (v == 'win') == (naive is not None) and k == naive, (fen, rules, m, v, k, naive)
        n += 1
        wins += v == 'win'
    print('forced() agrees with the plain search on %d positions (N = 1 and 2; %d won within 2) '
          'in %.0f s' % (n, wins, time.time() - t0))


def compare(path, binary):
    names = {'boyer': 'boyer-1951', 'vchess': 'vchess'}
    n = agree = 0
    for line in open(path):
        d = json.loads(line)
        t0 = time.time()
        p = subprocess.run([binary, 'solve', names[d['rules']], '--fen', d['fen'],
                            '--turns', str(d['turns']), '--format', 'json'],
                           capture_output=True, text=True)
        dt = time.time() - t0
        try:
            theirs = json.loads(p.stdout)
        except ValueError:
            print('%s: no JSON answer: %s %s' % (d['id'], p.stdout.strip(), p.stderr.strip()))
            continue
        n += 1
        tv, tk = theirs.get('verdict'), theirs.get('turns')
        if tv == d['verdict'] and (d['verdict'] != 'win' or tk == d['k']):
            agree += 1
        else:
            print('DISAGREE %s %s N=%d %s: mine %s k=%s, theirs %s' % (
                d['id'], d['rules'], d['turns'], d['fen'], d['verdict'], d['k'],
                json.dumps(theirs)))
        print('%s %.2fs' % (d['id'], dt), file=sys.stderr)
    print('%d / %d agree' % (agree, n))


def main(argv):
    if len(argv) == 4 and argv[0] == 'solve':
        t0 = time.time()
        v, k = forced(argv[2], argv[1], int(argv[3]))
        print(json.dumps({'verdict': v, 'k': k, 'seconds': round(time.time() - t0, 2),
                          'nodes': _SOLVERS[argv[1]].nodes}))
        return 0
    if argv and argv[0] == 'generate':
        seed, out, n3 = 1, None, 150
        i = 1
        while i < len(argv):
            if argv[i] == '--seed':
                seed = int(argv[i + 1])
            elif argv[i] == '--out':
                out = argv[i + 1]
            elif argv[i] == '--n3':
                n3 = int(argv[i + 1])
            i += 2
        generate(seed, out, n3)
        return 0
    if len(argv) == 3 and argv[0] == 'selfcheck':
        self_check(int(argv[1]), int(argv[2]))
        return 0
    if len(argv) == 4 and argv[0] == 'compare' and argv[2] == '--kickoff':
        compare(argv[1], argv[3])
        return 0
    print(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
