#!/usr/bin/env python3
"""A second, independent implementation of Football Chess turns (Boyer 1951 and vchess.club).

Written from the rules text alone, to cross-check kickoff.  Standard library only.

Board: 9x9, square index = rank * 9 + file (a1 = 0, i1 = 8, a9 = 72, i9 = 80).
A position is (placement, ball, side, turns): `placement` is an 81-character string of piece
letters and '.', without the ball; `ball` the ball's square; `side` 0 (White) or 1 (Black);
`turns` the number of completed turns.

Usage:
  football.py turns RULES "FEN"            list every result of the side to move's turns
  football.py verify REFERENCE.jsonl       compare with a jsonl file of expected turns, then
                                           check the fast generator against the plain one
  football.py perft RULES "FEN" DEPTH      count turns to a depth (a scoring turn is a leaf)
"""

import gzip
import json
import sys
import time

N = 9
SQUARES = N * N
E1 = 4           # Black's target (White's own goal)
E9 = 76          # White's target (Black's own goal)
GOALS = (E1, E9)
IS_GOAL = [False] * SQUARES
IS_GOAL[E1] = IS_GOAL[E9] = True
TARGET = (E9, E1)  # the goal each side attacks: White e9, Black e1
CORNERS = (0, 8, 72, 80)
IS_CORNER = [s in CORNERS for s in range(SQUARES)]

# directions: 0..3 orthogonal, 4..7 diagonal
DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
OPPOSITE = [1, 0, 3, 2, 7, 6, 5, 4]
HORIZONTAL = [True, True, False, False, False, False, False, False]
ALL_DIRS = tuple(range(8))
ORTHO_DIRS = (0, 1, 2, 3)
DIAG_DIRS = (4, 5, 6, 7)
KNIGHT_LEAPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def on_board(f, r):
    return 0 <= f < N and 0 <= r < N


RAYS = [[[] for _ in range(8)] for _ in range(SQUARES)]
ADJ = [[] for _ in range(SQUARES)]
ADJ_MASK = [0] * SQUARES
KNIGHT = [[] for _ in range(SQUARES)]
DIR_OF = {}  # (from, to) adjacent -> direction index of to - from
RAY_MASK = [[0] * 8 for _ in range(SQUARES)]
KNIGHT_MASK = [0] * SQUARES
for s in range(SQUARES):
    f, r = s % N, s // N
    for d, (df, dr) in enumerate(DIRS):
        ff, rr = f + df, r + dr
        while on_board(ff, rr):
            RAYS[s][d].append(rr * N + ff)
            ff += df
            rr += dr
        if on_board(f + df, r + dr):
            t = (r + dr) * N + f + df
            ADJ[s].append(t)
            ADJ_MASK[s] |= 1 << t
            DIR_OF[(s, t)] = d
    for df, dr in KNIGHT_LEAPS:
        if on_board(f + df, r + dr):
            KNIGHT[s].append((r + dr) * N + f + df)
            KNIGHT_MASK[s] |= 1 << ((r + dr) * N + f + df)
    for d in range(8):
        for t in RAYS[s][d]:
            RAY_MASK[s][d] |= 1 << t

# How each piece moves and kicks: (line directions, line range, leaps?)
SLIDE = {'K': (ALL_DIRS, 1), 'Q': (ALL_DIRS, N), 'R': (ORTHO_DIRS, N), 'B': (DIAG_DIRS, N), 'N': ((), 0)}
LEAPER = {'N': True, 'K': False, 'Q': False, 'R': False, 'B': False}
OWN = (frozenset('KQRBN'), frozenset('kqrbn'))


class Rules:
    def __init__(self, name, backward, corner_exception, corner_jump, null, no_goal_before,
                 no_slide=True, leap_adjacent=False):
        self.name = name
        self.backward = backward                  # kick.direction = "line"
        self.corner_exception = corner_exception  # kick.corner_exception
        self.corner_jump = corner_jump            # set of piece letters (uppercase) with corner_jump
        self.null = null                          # "never" | "when-adjacent" | "always"
        self.no_goal_before = no_goal_before      # turn.no_goal_before
        self.no_slide = no_slide                  # kick.goal_rank = "no-slide"
        self.leap_adjacent = leap_adjacent        # kick.leap_adjacent


RULES = {
    'boyer': Rules('boyer', backward=False, corner_exception=False, corner_jump=frozenset(),
                   null='never', no_goal_before=0),
    'vchess': Rules('vchess', backward=True, corner_exception=True, corner_jump=frozenset('B'),
                    null='when-adjacent', no_goal_before=2),
}


# ---------------------------------------------------------------- positions and notation

def sq_name(s):
    return 'abcdefghi'[s % N] + str(s // N + 1)


def parse_fen(fen):
    """-> (placement, ball, side, turns)"""
    parts = fen.split()
    rows = parts[0].split('/')
    if len(rows) != N:
        raise ValueError('need 9 ranks: ' + fen)
    cells = ['.'] * SQUARES
    ball = None
    for i, row in enumerate(rows):
        r = N - 1 - i
        f = 0
        j = 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                f += int(row[j:k])
                j = k
                continue
            if f >= N:
                raise ValueError('rank too long: ' + fen)
            if c == 'a':
                if ball is not None:
                    raise ValueError('two balls: ' + fen)
                ball = r * N + f
            elif c in 'KQRBNkqrbn':
                cells[r * N + f] = c
            else:
                raise ValueError('bad letter %r in %s' % (c, fen))
            f += 1
            j += 1
        if f != N:
            raise ValueError('rank of wrong length: ' + fen)
    if ball is None:
        raise ValueError('no ball: ' + fen)
    side = {'w': 0, 'b': 1}[parts[1]]
    turns = int(parts[2]) if len(parts) > 2 else 0
    for g in GOALS:
        if cells[g] != '.':
            raise ValueError('a piece on a goal square: ' + fen)
    return ''.join(cells), ball, side, turns


def to_fen(placement, ball, side, turns):
    rows = []
    for r in range(N - 1, -1, -1):
        out = []
        empty = 0
        for f in range(N):
            s = r * N + f
            c = 'a' if s == ball else placement[s]
            if c == '.':
                empty += 1
            else:
                if empty:
                    out.append(str(empty))
                    empty = 0
                out.append(c)
        if empty:
            out.append(str(empty))
        rows.append(''.join(out))
    return '/'.join(rows) + ' ' + 'wb'[side] + ' ' + str(turns)


# ---------------------------------------------------------------- piece moves

def piece_moves(board, side, R):
    """Every piece move of `side` on `board` (a list with 'a' on the ball's square):
    list of (from, to)."""
    own = OWN[side]
    moves = []
    for s in range(SQUARES):
        p = board[s]
        if p not in own:
            continue
        t = p.upper()
        start = len(moves)
        if t == 'N':
            for u in KNIGHT[s]:
                if board[u] == '.' and not IS_GOAL[u]:
                    moves.append((s, u))
        else:
            dirs, rng = SLIDE[t]
            for d in dirs:
                ray = RAYS[s][d]
                for i in range(min(rng, len(ray))):
                    u = ray[i]
                    if board[u] != '.':
                        break
                    if not IS_GOAL[u]:
                        moves.append((s, u))
            if len(moves) == start and IS_CORNER[s] and t in R.corner_jump and rng >= N:
                # corner jump: over the occupied neighbour along a slide line
                for d in dirs:
                    ray = RAYS[s][d]
                    if len(ray) >= 2 and board[ray[0]] != '.' and board[ray[1]] == '.' \
                            and not IS_GOAL[ray[1]]:
                        moves.append((s, ray[1]))
    return moves


# ---------------------------------------------------------------- kicks

def kick_dests(board, k, ball, R, goal_ok):
    """Destinations of the ball kicked by the piece on k (adjacent to ball)."""
    t = board[k].upper()
    out = []
    if LEAPER[t]:
        check_adj = not R.leap_adjacent and not (R.corner_exception and IS_CORNER[ball])
        amask = ADJ_MASK[k]
        for u in KNIGHT[ball]:
            if board[u] != '.':
                continue
            if check_adj and (amask >> u) & 1:
                continue
            if IS_GOAL[u] and not goal_ok:
                continue
            out.append(u)
    dirs, rng = SLIDE[t]
    d = DIR_OF[(k, ball)]
    if d in dirs:
        stop_at_goal = R.no_slide and HORIZONTAL[d]
        ray = RAYS[ball][d]
        for i in range(min(rng, len(ray))):
            u = ray[i]
            if board[u] != '.':
                break
            if IS_GOAL[u]:
                if stop_at_goal:
                    break
                if goal_ok:
                    out.append(u)
                continue
            out.append(u)
        if R.backward:
            ray = RAYS[ball][OPPOSITE[d]]  # ray[0] is the kicker's square
            for i in range(1, min(rng + 1, len(ray))):
                u = ray[i]
                if board[u] != '.':
                    break
                if IS_GOAL[u]:
                    if stop_at_goal:
                        break
                    if goal_ok:
                        out.append(u)
                    continue
                out.append(u)
    return out


def build_kick_table(R):
    """For every piece letter, kicker square k and adjacent ball square b: the kick's
    geometry as (leap squares, rays, read mask), so that the fast searches below only
    have to test which squares are empty.  kick_dests() is the plain statement of the rules;
    self_check() compares the two on every position of the reference file."""
    table = {}
    for t in 'KQRBN':
        entries = [None] * (SQUARES * SQUARES)
        dirs, rng = SLIDE[t]
        for k in range(SQUARES):
            for b in ADJ[k]:
                leaps = ()
                if LEAPER[t]:
                    check_adj = not R.leap_adjacent and not (R.corner_exception and IS_CORNER[b])
                    leaps = tuple(u for u in KNIGHT[b] if not (check_adj and (ADJ_MASK[k] >> u) & 1))
                rays = []
                d = DIR_OF[(k, b)]
                if d in dirs:
                    stop_at_goal = R.no_slide and HORIZONTAL[d]
                    fwd = RAYS[b][d][:rng]
                    back = RAYS[b][OPPOSITE[d]][1:rng + 1] if R.backward else []
                    for ray in (fwd, back):
                        if stop_at_goal:
                            cut = [i for i, u in enumerate(ray) if IS_GOAL[u]]
                            if cut:
                                ray = ray[:cut[0]]
                        if ray:
                            rays.append(tuple(ray))
                mask = 0
                for u in leaps:
                    mask |= 1 << u
                for ray in rays:
                    for u in ray:
                        mask |= 1 << u
                entries[k * SQUARES + b] = (leaps, tuple(rays), mask)
        table[t] = entries
        table[t.lower()] = entries
    return table


def chain_counts(board, ball, used, own, R, goal_ok, memo):
    """{final ball square: number of kick sequences} from this state; the empty sequence
    (stopping now) included.  A goal is a leaf."""
    key = (ball, used)
    got = memo.get(key)
    if got is not None:
        return got
    res = {ball: 1}
    for k in ADJ[ball]:
        if board[k] in own and not (used >> k) & 1:
            for u in kick_dests(board, k, ball, R, goal_ok):
                if IS_GOAL[u]:
                    res[u] = res.get(u, 0) + 1
                else:
                    board[ball] = '.'
                    board[u] = 'a'
                    sub = chain_counts(board, u, used | (1 << k), own, R, goal_ok, memo)
                    board[u] = '.'
                    board[ball] = 'a'
                    for v, c in sub.items():
                        res[v] = res.get(v, 0) + c
    memo[key] = res
    return res


def chain_reach(board, ball, own, R, goal_ok, want_touched=False):
    """Set of squares the ball can end on after zero or more kicks (goals included), and
    (with want_touched) a mask of every square whose contents the search depended on.
    Breadth first; a state (ball square, kickers used) is skipped when a state on the same
    square with a subset of its kickers used was already reached (it can do no more)."""
    touched = ADJ_MASK[ball]
    if not any(board[k] in own for k in ADJ[ball]):
        return {ball}, touched
    table = R.kick_table
    seen = {ball: [0]}
    reach = {ball}
    level = [(ball, 0)]
    board[ball] = '.'
    while level:
        nxt = []
        for b, used in level:
            if want_touched:
                touched |= ADJ_MASK[b]
            for k in ADJ[b]:
                p = board[k]
                if p in own and not (used >> k) & 1:
                    leaps, rays, mask = table[p][k * 81 + b]
                    if want_touched:
                        touched |= mask
                    nu = used | (1 << k)
                    dests = [u for u in leaps if board[u] == '.']
                    for ray in rays:
                        for u in ray:
                            if board[u] != '.':
                                break
                            dests.append(u)
                    for u in dests:
                        if IS_GOAL[u]:
                            if goal_ok:
                                reach.add(u)
                            continue
                        reach.add(u)
                        lst = seen.get(u)
                        if lst is None:
                            seen[u] = [nu]
                        elif any(x & ~nu == 0 for x in lst):
                            continue
                        else:
                            lst.append(nu)
                        nxt.append((u, nu))
        level = nxt
    board[ball] = 'a'
    return reach, touched


def chain_scores(board, ball, own, R, target, want_touched=False):
    """Whether some kick sequence puts the ball on `target` (goals are allowed), and (with
    want_touched, when it does not) a mask of every square the search depended on.
    The same search as chain_reach, stopping at the first goal."""
    touched = ADJ_MASK[ball]
    if not any(board[k] in own for k in ADJ[ball]):
        return False, touched
    table = R.kick_table
    seen = {ball: [0]}
    level = [(ball, 0)]
    board[ball] = '.'
    while level:
        nxt = []
        for b, used in level:
            if want_touched:
                touched |= ADJ_MASK[b]
            for k in ADJ[b]:
                p = board[k]
                if p in own and not (used >> k) & 1:
                    leaps, rays, mask = table[p][k * 81 + b]
                    if want_touched:
                        touched |= mask
                    nu = used | (1 << k)
                    dests = [u for u in leaps if board[u] == '.']
                    for ray in rays:
                        for u in ray:
                            if board[u] != '.':
                                break
                            dests.append(u)
                    for u in dests:
                        if u == target:
                            board[ball] = 'a'
                            return True, touched
                        if IS_GOAL[u]:
                            continue
                        lst = seen.get(u)
                        if lst is None:
                            seen[u] = [nu]
                        elif any(x & ~nu == 0 for x in lst):
                            continue
                        else:
                            lst.append(nu)
                        nxt.append((u, nu))
        level = nxt
    board[ball] = 'a'
    return False, touched


for _R in RULES.values():
    _R.kick_table = build_kick_table(_R)


# ---------------------------------------------------------------- whole turns

def null_allowed(board, ball, side, R):
    if R.null == 'always':
        return True
    if R.null == 'when-adjacent':
        own = OWN[side]
        return any(board[k] in own for k in ADJ[ball])
    return False


def turn_results(placement, ball, side, turns, R):
    """Every turn of the side to move: -> {(placement, ball) after the turn: number of turns}."""
    if IS_GOAL[ball]:
        raise ValueError('the game is over: the ball is on a goal square')
    board = list(placement)
    board[ball] = 'a'
    own = OWN[side]
    goal_ok = turns >= R.no_goal_before
    results = {}
    # no piece move: kicks only (or the null turn)
    cc = chain_counts(board, ball, 0, own, R, goal_ok, {})
    for v, c in cc.items():
        if v == ball:
            c -= 1          # the empty sequence is the null turn
            if null_allowed(board, ball, side, R):
                c += 1
        if c:
            results[(placement, v)] = results.get((placement, v), 0) + c
    for f, t in piece_moves(board, side, R):
        p = board[f]
        board[f] = '.'
        board[t] = p
        pl = ''.join(board[:ball]) + '.' + ''.join(board[ball + 1:])
        cc = chain_counts(board, ball, 0, own, R, goal_ok, {})
        for v, c in cc.items():
            results[(pl, v)] = results.get((pl, v), 0) + c
        board[t] = '.'
        board[f] = p
    if not results:
        results[(placement, ball)] = 1   # forced pass
    return results


def successors(placement, ball, side, turns, R):
    """Distinct results of the side to move's turns: list of (placement, ball)."""
    board = list(placement)
    board[ball] = 'a'
    own = OWN[side]
    goal_ok = turns >= R.no_goal_before
    out = []
    reach, touched = chain_reach(board, ball, own, R, goal_ok, True)
    null_ok = null_allowed(board, ball, side, R)
    for v in reach:
        if v == ball and not null_ok and not _returns(board, ball, own, R, goal_ok):
            continue   # only the null turn leaves everything in place
        out.append((placement, v))
    for f, t in piece_moves(board, side, R):
        p = board[f]
        pl = placement[:f] + '.' + placement[f + 1:]
        pl = pl[:t] + p + pl[t + 1:]
        if not ((touched >> f) & 1 or (touched >> t) & 1):
            # the move changes no square the kicks depend on: the same kicks
            for v in reach:
                out.append((pl, v))
            continue
        board[f] = '.'
        board[t] = p
        for v in chain_reach(board, ball, own, R, goal_ok)[0]:
            out.append((pl, v))
        board[t] = '.'
        board[f] = p
    if not out:
        out.append((placement, ball))
    return out


def _returns(board, ball, own, R, goal_ok):
    """Whether a non-empty kick sequence brings the ball back to its square."""
    cc = chain_counts(board, ball, 0, own, R, goal_ok, {})
    return cc.get(ball, 0) > 1


def build_shot_table(R):
    """SHOTS[target][letter][k]: the shots into goal `target` open to a piece on k, as
    (ball square s adjacent to k, mask of squares that must hold no piece): the last kick of
    every scoring turn is one of them.  Found with kick_dests() on an otherwise empty board."""
    shots = {}
    for target in GOALS:
        per = {}
        for t in 'KQRBN':
            lst = [()] * SQUARES
            for k in range(SQUARES):
                if IS_GOAL[k]:
                    continue
                out = []
                for s in ADJ[k]:
                    if IS_GOAL[s]:
                        continue
                    board = ['.'] * SQUARES
                    board[k] = t
                    board[s] = 'a'
                    if target not in kick_dests(board, k, s, R, True):
                        continue
                    mask = 0
                    if t != 'N':
                        # a line kick: every square between s and the goal but the kicker's
                        fs, rs = s % N, s // N
                        ft, rt = target % N, target // N
                        df = (ft > fs) - (ft < fs)
                        dr = (rt > rs) - (rt < rs)
                        u = s + dr * N + df
                        while u != target:
                            if u != k:
                                mask |= 1 << u
                            u += dr * N + df
                    out.append((s, mask))
                lst[k] = tuple(out)
            per[t] = lst
            per[t.lower()] = lst
        shots[target] = per
    return shots


def may_shoot(board, own_squares, occ, shots):
    """Whether some piece of the side has an open shot (a necessary condition to score)."""
    for k in own_squares:
        for s, mask in shots[board[k]][k]:
            if not (occ >> s) & 1 and not occ & mask:
                return True
    return False


def can_score(placement, ball, side, turns, R):
    """Whether the side to move has a turn that puts the ball on the goal it attacks."""
    if turns < R.no_goal_before:
        return False
    target = TARGET[side]
    shots = R.shot_table[target]
    board = list(placement)
    own = OWN[side]
    own_squares = [s for s in range(SQUARES) if board[s] in own]
    occ = 0
    for s in range(SQUARES):
        if board[s] != '.':
            occ |= 1 << s
    board[ball] = 'a'
    touched = None
    if may_shoot(board, own_squares, occ, shots):
        found, touched = chain_scores(board, ball, own, R, target, True)
        if found:
            return True
    for f, t in piece_moves(board, side, R):
        if touched is not None and not ((touched >> f) & 1 or (touched >> t) & 1):
            continue   # the move changes nothing the kicks depend on
        p = board[f]
        board[f] = '.'
        board[t] = p
        sq2 = [t if s == f else s for s in own_squares]
        if may_shoot(board, sq2, occ ^ (1 << f) ^ (1 << t), shots):
            ok = chain_scores(board, ball, own, R, target)[0]
        else:
            ok = False
        board[t] = '.'
        board[f] = p
        if ok:
            return True
    return False


for _R in RULES.values():
    _R.shot_table = build_shot_table(_R)


def fen_results(fen, rules):
    placement, ball, side, turns = parse_fen(fen)
    R = RULES[rules]
    res = turn_results(placement, ball, side, turns, R)
    out = {}
    for (pl, v), c in res.items():
        k = to_fen(pl, v, 1 - side, turns + 1)
        out[k] = out.get(k, 0) + c
    return out


def perft(placement, ball, side, turns, R, depth, tt=None):
    if tt is None:
        tt = {}
    key = (placement, ball, side, min(turns, R.no_goal_before), depth)
    if key in tt:
        return tt[key]
    res = turn_results(placement, ball, side, turns, R)
    total = 0
    for (pl, v), c in res.items():
        if depth == 1 or IS_GOAL[v]:
            total += c
        else:
            total += c * perft(pl, v, 1 - side, turns + 1, R, depth - 1, tt)
    tt[key] = total
    return total


# ---------------------------------------------------------------- command line

def verify(path):
    n = ok = 0
    bad = []
    t0 = time.time()
    for line in (gzip.open(path, 'rt') if path.endswith('.gz') else open(path)):
        line = line.strip()
        if not line:
            continue
        d = json.loads(line)
        n += 1
        got = fen_results(d['fen'], d['rules'])
        turns = sum(got.values())
        if turns == d['turns'] and got == d['results']:
            ok += 1
        else:
            bad.append(d['id'])
            if len(bad) <= 10:
                exp = d['results']
                print('MISMATCH %s %s %s: turns %d expected %d' % (d['id'], d['rules'], d['fen'],
                                                                   turns, d['turns']))
                for k in sorted(set(got) | set(exp)):
                    if got.get(k) != exp.get(k):
                        print('   %s  got %s expected %s' % (k, got.get(k), exp.get(k)))
    print('%d / %d positions agree (%.1f s)' % (ok, n, time.time() - t0))
    # cross-check the fast generator and the goal test against the counting one
    return ok == n


def self_check(path):
    """successors() and can_score() must agree with turn_results() on every position."""
    n = 0
    for line in (gzip.open(path, 'rt') if path.endswith('.gz') else open(path)):
        d = json.loads(line)
        pl, ball, side, turns = parse_fen(d['fen'])
        R = RULES[d['rules']]
        full = turn_results(pl, ball, side, turns, R)
        fast = successors(pl, ball, side, turns, R)
        assert len(fast) == len(set(fast)), d['id']
        assert set(fast) == set(full), d['id']
        scores = any(v == TARGET[side] for (_, v) in full)
        assert scores == can_score(pl, ball, side, turns, R), d['id']
        n += 1
    print('successors() and can_score() agree with the full generator on %d positions' % n)


def random_self_check(count, seed):
    """The same comparison on positions reached by random play (seeded) from Boyer's start,
    vchess.club's start and 960-style back ranks, under both rule sets."""
    import random
    rng = random.Random(seed)
    starts = ['rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 0', 'rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0']
    n = scoring = 0
    while n < count:
        start = rng.choice(starts)
        if rng.random() < 0.4:
            while True:
                p = list('KQRRBBNN')
                rng.shuffle(p)
                files = [f for f, q in zip([0, 1, 2, 3, 5, 6, 7, 8], p) if q == 'B']
                if files[0] % 2 != files[1] % 2:
                    break
            w = ''.join(p[:4]) + '1' + ''.join(p[4:])
            start = w.lower() + '/9/9/9/4a4/9/9/9/' + w + ' w 0'
        R = RULES[rng.choice(['boyer', 'vchess'])]
        pl, ball, side, turns = parse_fen(start)
        for _ in range(rng.randint(1, 60)):
            full = turn_results(pl, ball, side, turns, R)
            fast = successors(pl, ball, side, turns, R)
            assert len(fast) == len(set(fast)) and set(fast) == set(full), to_fen(pl, ball, side, turns)
            scores = any(v == TARGET[side] for (_, v) in full)
            assert scores == can_score(pl, ball, side, turns, R), to_fen(pl, ball, side, turns)
            scoring += scores
            n += 1
            nxt = [r for r in full if not IS_GOAL[r[1]]]
            if not nxt:
                break
            pl, ball = rng.choice(nxt)
            side, turns = 1 - side, turns + 1
    print('successors() and can_score() agree with the full generator on %d random-play '
          'positions (%d with a scoring turn)' % (n, scoring))


def main(argv):
    if len(argv) >= 2 and argv[0] == 'verify':
        good = verify(argv[1])
        self_check(argv[1])
        random_self_check(3000, 1)
        return 0 if good else 1
    if len(argv) == 3 and argv[0] == 'turns':
        res = fen_results(argv[2], argv[1])
        for k in sorted(res):
            print(res[k], k)
        print('turns:', sum(res.values()), 'distinct results:', len(res))
        return 0
    if len(argv) == 4 and argv[0] == 'perft':
        pl, ball, side, turns = parse_fen(argv[2])
        for d in range(1, int(argv[3]) + 1):
            t0 = time.time()
            print(d, perft(pl, ball, side, turns, RULES[argv[1]], d), '%.2fs' % (time.time() - t0))
        return 0
    print(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
