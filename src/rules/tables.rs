//! Per-square tables computed once when the rules are compiled, so that turn generation only
//! reads arrays: where each piece type can go from each square, where the ball can fly from each
//! square. They belong to the rules; the turn generator (`movegen`) reads them.

use std::fmt;

use crate::rules::Rules;
use crate::rules::{Leg, Reach};
use crate::side::Side;
use crate::square::{SQUARES, Square};
use crate::square_set::SquareSet;

/// The eight unit steps, anticlockwise from "right"; `DIRS[(d + 4) % 8]` is the opposite of `d`.
pub(crate) const DIRS: [(i8, i8); 8] =
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// Reach stored for an unlimited leg: longer than any ray.
pub(crate) const UNLIMITED: u8 = u8::MAX;

/// Rays of squares grouped by key. Each entry knows where the next ray starts, so that a
/// blocked ray is skipped in one step.
#[derive(Clone, Default)]
pub(crate) struct RayTable {
    spans: Vec<(u32, u32)>,
    squares: Vec<Square>,
    next: Vec<u32>,
    /// Per entry: the index of the leg whose ray it belongs to (for tagged tables).
    tags: Vec<u8>,
}

impl RayTable {
    /// Appends the rays of the next key.
    fn push_key(&mut self, rays: &[Vec<Square>]) {
        self.push_tagged(rays.iter().map(|r| (0, r.as_slice())));
    }

    /// Appends the rays of the next key, each with a tag (its leg's index).
    fn push_tagged<'a>(&mut self, rays: impl Iterator<Item = (u8, &'a [Square])>) {
        let start = self.squares.len() as u32;
        for (tag, ray) in rays.filter(|(_, r)| !r.is_empty()) {
            let end = (self.squares.len() + ray.len()) as u32;
            for &s in ray {
                self.squares.push(s);
                self.next.push(end);
                self.tags.push(tag);
            }
        }
        self.spans.push((start, self.squares.len() as u32));
    }

    /// The tag of entry `i`.
    #[inline]
    pub(crate) fn tag(&self, i: usize) -> u8 {
        self.tags[i]
    }

    /// The entries of `key`: a range of indices into [`RayTable::square`].
    #[inline]
    pub(crate) fn span(&self, key: usize) -> (usize, usize) {
        let (a, b) = self.spans[key];
        (a as usize, b as usize)
    }

    /// The square of entry `i`.
    #[inline]
    pub(crate) fn square(&self, i: usize) -> Square {
        self.squares[i]
    }

    /// The first entry of the ray after the one holding entry `i`.
    #[inline]
    pub(crate) fn next_ray(&self, i: usize) -> usize {
        self.next[i] as usize
    }

    /// The bytes the table takes in memory.
    pub(crate) fn bytes(&self) -> usize {
        self.spans.capacity() * std::mem::size_of::<(u32, u32)>()
            + self.squares.capacity() * std::mem::size_of::<Square>()
            + self.next.capacity() * std::mem::size_of::<u32>()
            + self.tags.capacity()
    }

    /// The squares of key `key` as one slice (for single-ray keys).
    #[inline]
    pub(crate) fn slice(&self, key: usize) -> &[Square] {
        let (a, b) = self.span(key);
        &self.squares[a..b]
    }
}

/// Everything turn generation looks up, built once per rule set.
#[derive(Clone)]
pub struct Tables {
    pub(crate) kinds: usize,
    pub(crate) goals: SquareSet,
    /// Per side: the squares it scores on (`goals.white`, `goals.black`).
    pub(crate) goals_of: [SquareSet; 2],
    /// Per rank: the files that hold a goal square.
    pub(crate) goal_files: [u16; crate::square::MAX_RANKS as usize],
    pub(crate) corners: SquareSet,
    /// Per square: its on-board neighbours.
    pub(crate) neighbours: Vec<SquareSet>,
    /// Key `square * 8 + dir`: the squares from `square` in direction `dir` to the edge.
    pub(crate) lines: RayTable,
    /// Key `piece_key * SQUARES + square`: a piece's move rays.
    pub(crate) moves: RayTable,
    /// Key `piece_key * SQUARES + square`: the ball's leap-kick rays from `square`.
    pub(crate) leaps: RayTable,
    /// Per piece key: the kick reach along each unit direction (0: none).
    pub(crate) line_reach: Vec<[u8; 8]>,
    /// Per piece key: the directions (bits) a corner jump may take; 0 without corner jump.
    pub(crate) jump_dirs: Vec<u8>,
    /// Per piece key: whether two of its move legs can reach one square.
    pub(crate) move_overlap: Vec<bool>,
    /// Per piece key: whether two of its kicks can send the ball to one square.
    pub(crate) kick_overlap: Vec<bool>,
    /// The index in [`DIRS`] of the unit step `(df, dr)`, at `(df + 1) * 3 + dr + 1`.
    pub(crate) dir_of: [u8; 9],
    /// Per contents code: whether the piece is royal.
    pub(crate) royal: [bool; 64],
    /// Whether any piece is royal.
    pub(crate) has_royals: bool,
    /// Per contents code: whether the piece is its side's goal (`target`).
    pub(crate) target: [bool; 64],
    /// Whether any piece is a goal.
    pub(crate) has_targets: bool,
    /// Per contents code: whether the piece keeps a carried ball for one turn at most
    /// (`hold = "one-turn"`).
    pub(crate) one_turn: [bool; 64],
    /// Per contents code: whether its teammates may not pass it the ball back after it gave it
    /// up (`backpass = false`).
    pub(crate) no_backpass: [bool; 64],
    /// Whether any piece is a keeper (`hold = "one-turn"` or `backpass = false`): positions
    /// then keep the keepers' state.
    pub(crate) has_keepers: bool,
    /// Whether any piece tackles (`tackle = true`): [`Rules::has_tacklers`] for the walk, which
    /// asks for every jump and tackle.
    pub(crate) has_tacklers: bool,
    /// Per piece key: which of its kick legs (by index, the tags of `ball_rays`) hop (`p`).
    pub(crate) kick_hops: Vec<Vec<bool>>,
    /// Whether any kick leg hops.
    pub(crate) any_kick_hop: bool,
    /// Per piece key: the squares it may end a move on (its zone, and the goal squares it may
    /// stand on).
    pub(crate) stand: Vec<SquareSet>,
    /// Per piece key: the squares it may capture on (goal squares it enters by capturing too).
    pub(crate) capture_on: Vec<SquareSet>,
    /// Per piece key: the goal squares it may enter only holding the ball, scoring (`goals =
    /// "holder"`).
    pub(crate) score_on: Vec<SquareSet>,
    /// Whether any piece sprints or dribbles (`sprint`, `dribble`).
    pub(crate) has_specials: bool,
    /// Per piece key: the squares where it promotes.
    pub(crate) promote: Vec<SquareSet>,
    /// Per piece key: the squares its initial (`i`) legs start from.
    pub(crate) initial: Vec<SquareSet>,
    /// Key `piece_key * SQUARES + square`: the ray of every move leg, tagged with the leg's
    /// index in the piece's moves (for rules beyond Boyer's family).
    pub(crate) legs: RayTable,
    /// Key `piece_key * SQUARES + square`: the ball's rays from `square` when this piece kicks
    /// it from there by its whole pattern (kick modes `from-ball` and `enter`), tagged with the
    /// kick leg's index.
    pub(crate) ball_rays: RayTable,
    /// The squares the ball may not stop on.
    pub(crate) ball_forbidden: SquareSet,
    /// Every square of the board (holes left out).
    pub(crate) on_board: SquareSet,
    /// Per side: the squares a piece may end its arrangement move on (`[arrangement]`).
    pub(crate) arrange_to: [SquareSet; 2],
    /// Per side: the squares where its holder (not a goal piece) may not end its turn
    /// (`ball.offside`).
    pub(crate) offside: [SquareSet; 2],
    /// Per piece key: the squares it may be placed on in a placement stage (the stage's
    /// squares, narrowed by its `place`, where it may stand).
    pub(crate) place_on: Vec<SquareSet>,
    /// Whether the rules are within Boyer's family, as the key table declares it
    /// (`definition::keys::in_boyers_family`).
    family: bool,
    /// Whether turns are walked as whole kick chains (`movegen::chains`, `recount`): in
    /// Boyer's family, unless [`Rules::with_general_walker`] asked otherwise.
    chains: bool,
}

impl Tables {
    /// The bytes the tables take in memory (their rays above all: a board of 16 by 24 with
    /// twenty-five kinds of riders takes tens of megabytes).
    pub(crate) fn bytes(&self) -> usize {
        let sets = self.neighbours.capacity()
            + self.stand.capacity()
            + self.capture_on.capacity()
            + self.score_on.capacity()
            + self.promote.capacity()
            + self.initial.capacity();
        [&self.lines, &self.moves, &self.leaps, &self.legs, &self.ball_rays]
            .iter()
            .map(|t| t.bytes())
            .sum::<usize>()
            + sets * std::mem::size_of::<SquareSet>()
            + self.line_reach.capacity() * 8
            + self.jump_dirs.capacity()
            + self.move_overlap.capacity()
            + self.kick_overlap.capacity()
            + std::mem::size_of::<Tables>()
    }
}

/// The index of `side`'s piece type `kind` in per-piece tables, with `kinds` types a side.
#[inline]
pub(crate) fn piece_key(kinds: usize, side: Side, kind: usize) -> usize {
    side.index() * kinds + kind
}

/// The unit step from `from` to the adjacent `to` as `(df + 1) * 3 + dr + 1`, in `0..9` (the
/// index of [`Tables::dir_of`]).
#[inline]
pub(crate) fn step_slot(from: Square, to: Square) -> usize {
    let df = i32::from(to.file()) - i32::from(from.file()) + 1;
    let dr = i32::from(to.rank()) - i32::from(from.rank()) + 1;
    (df * 3 + dr) as usize
}

impl Default for Tables {
    fn default() -> Self {
        Tables {
            kinds: 0,
            goals: SquareSet::EMPTY,
            goals_of: [SquareSet::EMPTY; 2],
            goal_files: Default::default(),
            corners: SquareSet::EMPTY,
            neighbours: Vec::new(),
            lines: RayTable::default(),
            moves: RayTable::default(),
            leaps: RayTable::default(),
            line_reach: Vec::new(),
            jump_dirs: Vec::new(),
            move_overlap: Vec::new(),
            kick_overlap: Vec::new(),
            dir_of: [0; 9],
            royal: [false; 64],
            has_royals: false,
            target: [false; 64],
            has_targets: false,
            one_turn: [false; 64],
            no_backpass: [false; 64],
            has_keepers: false,
            has_tacklers: false,
            kick_hops: Vec::new(),
            any_kick_hop: false,
            stand: Vec::new(),
            capture_on: Vec::new(),
            score_on: Vec::new(),
            has_specials: false,
            promote: Vec::new(),
            initial: Vec::new(),
            legs: RayTable::default(),
            ball_rays: RayTable::default(),
            ball_forbidden: SquareSet::EMPTY,
            on_board: SquareSet::EMPTY,
            arrange_to: [SquareSet::EMPTY; 2],
            offside: [SquareSet::EMPTY; 2],
            place_on: Vec::new(),
            family: false,
            chains: false,
        }
    }
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tables {{ {} piece kinds }}", self.kinds)
    }
}

/// A leg in `side`'s frame: Black mirrors ranks.
fn oriented(leg: Leg, side: Side) -> (i8, i8, u8) {
    let (x, y) = leg.step;
    let y = if side == Side::White { y } else { -y };
    let reach = match leg.reach {
        Reach::Steps(n) => n,
        Reach::Unlimited => UNLIMITED,
    };
    (x, y, reach)
}

impl Tables {
    /// Whether a kick from `from` to `to` along their rank reaches or crosses a goal square of
    /// that rank: what `kick.goal_rank = "no-slide"` forbids (rule:
    /// `docs/rules.md#no-kick-along-the-goal-rank`). Turn generation and the evaluation both ask
    /// here.
    #[inline]
    #[must_use]
    pub(crate) fn along_goal_rank(&self, from: Square, to: Square) -> bool {
        from.rank() == to.rank()
            && files_between(u32::from(self.goal_files[usize::from(from.rank())]), from, to)
    }

    /// Whether the rules are within Boyer's family (read from the key table when the definition
    /// was compiled: `definition::keys::in_boyers_family`): a kicked ball, kicks from beside
    /// it, one optional piece move and then kicks, no captures, holes, zones or points.
    #[inline]
    #[must_use]
    pub(crate) fn in_family(&self) -> bool {
        self.family
    }

    /// Whether turns are walked as whole kick chains (`movegen::chains`), the fast walk of
    /// Boyer's family, rather than action by action (`movegen::general`). A result of a turn
    /// is then its piece move and the ball's final square, nothing else.
    #[inline]
    #[must_use]
    pub(crate) fn walks_chains(&self) -> bool {
        self.chains
    }

    /// The same tables, turns walked action by action (see [`Rules::with_general_walker`]).
    pub(crate) fn without_chains(&self) -> Tables {
        Tables { chains: false, ..self.clone() }
    }

    /// Builds every table for `rules`; `family` says whether they are within Boyer's family
    /// (`definition::keys::in_boyers_family`).
    #[must_use]
    pub fn build(rules: &Rules, family: bool) -> Tables {
        let kinds = rules.pieces().len();
        let mut t = Tables { kinds, ..Tables::default() };
        t.geometry(rules);
        for side in Side::ALL {
            for (kind, piece) in rules.pieces().iter().enumerate() {
                t.piece_tables(rules, side, &piece.moves, &piece.kicks, piece.corner_jump);
                t.generic_tables(rules, side, kind);
            }
        }
        t.has_keepers = rules.has_keepers();
        t.ball_forbidden = rules.ball().forbidden;
        t.on_board = rules.board().squares().collect();
        let board = rules.board();
        let by_side = |squares: SquareSet| -> [SquareSet; 2] {
            let white: SquareSet = board.squares().filter(|&s| squares.contains(s)).collect();
            [white, white.iter().map(|s| board.mirror(s)).collect()]
        };
        if let Some(arrangement) = rules.arrangement() {
            t.arrange_to = by_side(arrangement.squares);
        }
        if rules.carried_ball() {
            t.offside = by_side(rules.ball().carried.offside);
        }
        if let Some(stage) = rules.placement_stage() {
            t.place_on = vec![SquareSet::EMPTY; 2 * kinds];
            for (kind, piece) in rules.pieces().iter().enumerate() {
                let squares = by_side(stage.squares & piece.place.unwrap_or(stage.squares));
                for side in Side::ALL {
                    let key = t.piece_key(side, kind);
                    t.place_on[key] = t.stand[key] & squares[side.index()];
                }
            }
        }
        t.family = family;
        t.chains = family;
        t
    }

    /// The tables of one side's piece type that rules beyond Boyer's family read: where it may
    /// stand, capture and promote, its tagged move rays and its rays of kicks from the ball.
    fn generic_tables(&mut self, rules: &Rules, side: Side, kind: usize) {
        let piece = &rules.pieces()[kind];
        let board = rules.board();
        let own = |s: Square| if side == Side::White { s } else { board.mirror(s) };
        let code = usize::from(crate::rules::cell::piece_code(side, kind));
        self.royal[code] = piece.royal;
        self.has_royals |= piece.royal;
        self.target[code] = piece.target;
        self.has_targets |= piece.target;
        self.one_turn[code] = piece.hold == crate::rules::Hold::OneTurn;
        self.no_backpass[code] = !piece.backpass;
        self.has_tacklers |= piece.tackle;
        self.kick_hops.push(piece.kicks.iter().map(|l| l.hop).collect());
        self.any_kick_hop |= piece.kicks.iter().any(|l| l.hop);
        let zone: SquareSet =
            board.squares().filter(|&s| piece.zone.is_none_or(|z| z.contains(own(s)))).collect();
        let goal_ok = |s: Square, capturing: bool| {
            !self.goals.contains(s)
                || match piece.goals {
                    crate::rules::GoalAccess::Always => true,
                    crate::rules::GoalAccess::Capture => capturing,
                    crate::rules::GoalAccess::Never | crate::rules::GoalAccess::Holder => false,
                }
        };
        // A piece that enters goals only with the ball: the squares where its side scores.
        let scoring = rules.goals(side);
        self.score_on.push(if piece.goals == crate::rules::GoalAccess::Holder {
            zone.iter().filter(|s| scoring.contains(s)).collect()
        } else {
            SquareSet::EMPTY
        });
        self.has_specials |= !piece.sprint.is_empty() || piece.dribble;
        self.stand.push(zone.iter().filter(|&s| goal_ok(s, false)).collect());
        self.capture_on.push(zone.iter().filter(|&s| goal_ok(s, true)).collect());
        self.promote.push(match &piece.promotion {
            Some(p) => board.squares().filter(|&s| p.squares.contains(own(s))).collect(),
            None => SquareSet::EMPTY,
        });
        self.initial.push(
            rules
                .start()
                .pieces
                .iter()
                .filter(|&&(_, s, k)| s == side && k.index() == kind)
                .map(|&(sq, _, _)| sq)
                .collect(),
        );
        let moves: Vec<_> = piece.moves.iter().map(|&l| oriented(l, side)).collect();
        let kicks: Vec<_> = piece.kicks.iter().map(|&l| oriented(l, side)).collect();
        for s in Square::all() {
            let on = board.contains(s);
            let rays = |legs: &[(i8, i8, u8)]| -> Vec<(u8, Vec<Square>)> {
                if !on {
                    return Vec::new();
                }
                legs.iter()
                    .enumerate()
                    .map(|(i, &(x, y, reach))| (i as u8, ray(s, (x, y), reach, rules)))
                    .collect()
            };
            let move_rays = rays(&moves);
            self.legs.push_tagged(move_rays.iter().map(|(i, r)| (*i, r.as_slice())));
            let kick_rays = rays(&kicks);
            self.ball_rays.push_tagged(kick_rays.iter().map(|(i, r)| (*i, r.as_slice())));
        }
    }

    /// The index of a side's piece type in the per-piece tables.
    #[inline]
    pub(crate) fn piece_key(&self, side: Side, kind: usize) -> usize {
        piece_key(self.kinds, side, kind)
    }

    /// The direction index of the unit step from `from` to the adjacent `to`.
    #[inline]
    pub(crate) fn dir_between(&self, from: Square, to: Square) -> usize {
        usize::from(self.dir_of[step_slot(from, to)])
    }

    fn geometry(&mut self, rules: &Rules) {
        let board = rules.board();
        for side in Side::ALL {
            for &g in rules.goals(side) {
                self.goals.insert(g);
                self.goals_of[side.index()].insert(g);
                self.goal_files[usize::from(g.rank())] |= 1 << g.file();
            }
        }
        for (d, &(x, y)) in DIRS.iter().enumerate() {
            self.dir_of[((x + 1) * 3 + y + 1) as usize] = d as u8;
        }
        self.neighbours = vec![SquareSet::EMPTY; SQUARES];
        for s in Square::all() {
            let on = board.contains(s);
            if on && board.is_corner(s) {
                self.corners.insert(s);
            }
            for &(x, y) in &DIRS {
                let ray = if on { ray(s, (x, y), UNLIMITED, rules) } else { Vec::new() };
                if let Some(&n) = ray.first() {
                    self.neighbours[s.index()].insert(n);
                }
                self.lines.push_key(&[ray]);
            }
        }
    }

    fn piece_tables(
        &mut self,
        rules: &Rules,
        side: Side,
        moves: &[Leg],
        kicks: &[Leg],
        jump: bool,
    ) {
        let board = rules.board();
        let moves: Vec<_> = moves.iter().map(|&l| oriented(l, side)).collect();
        let kicks: Vec<_> = kicks.iter().map(|&l| oriented(l, side)).collect();
        let leaps: Vec<_> =
            kicks.iter().copied().filter(|&(x, y, _)| x.abs() > 1 || y.abs() > 1).collect();
        for s in Square::all() {
            let on = board.contains(s);
            let rays_of = |legs: &[(i8, i8, u8)]| -> Vec<Vec<Square>> {
                if !on {
                    return Vec::new();
                }
                legs.iter().map(|&(x, y, reach)| ray(s, (x, y), reach, rules)).collect()
            };
            self.moves.push_key(&rays_of(&moves));
            self.leaps.push_key(&rays_of(&leaps));
        }
        let mut reach = [0u8; 8];
        let mut jump_dirs = 0u8;
        for (d, &(x, y)) in DIRS.iter().enumerate() {
            if let Some(&(_, _, r)) = kicks.iter().find(|&&(a, b, _)| (a, b) == (x, y)) {
                reach[d] = r;
            }
            if jump && moves.contains(&(x, y, UNLIMITED)) {
                jump_dirs |= 1 << d;
            }
        }
        self.line_reach.push(reach);
        self.jump_dirs.push(jump_dirs);
        self.move_overlap.push(overlaps(&moves, &[]));
        let backward = rules.kick().direction == crate::rules::KickDirection::Line;
        self.kick_overlap.push(kicks_overlap(&leaps, &reach, backward));
    }
}

/// Whether two kicks of one kicker can send the ball to the same square: along each unit
/// direction, the line kick (and the backward one) against the leaps.
fn kicks_overlap(leaps: &[(i8, i8, u8)], reach: &[u8; 8], backward: bool) -> bool {
    DIRS.iter().enumerate().any(|(d, &(x, y))| {
        let r = reach[d].min(16);
        let mut line: Vec<(i8, i8, u8)> = vec![(x, y, r)];
        if backward && r > 0 {
            // The backward kick lands on -2d, -3d, ...: offsets that a leap may share.
            line.extend((2..=i8::try_from(r).unwrap_or(16) + 1).map(|i| (-x * i, -y * i, 1)));
        }
        overlaps(leaps, &line)
    })
}

/// Whether two of these legs (with `extra` ones) can land on the same offset.
fn overlaps(legs: &[(i8, i8, u8)], extra: &[(i8, i8, u8)]) -> bool {
    let mut seen = std::collections::HashSet::new();
    for &(x, y, reach) in legs.iter().chain(extra) {
        for i in 1..=i16::from(reach.min(16)) {
            if !seen.insert((i16::from(x) * i, i16::from(y) * i)) {
                return true;
            }
        }
    }
    false
}

/// The squares from `from` (excluded) by repeated `step`, at most `reach` of them, to the edge.
fn ray(from: Square, step: (i8, i8), reach: u8, rules: &Rules) -> Vec<Square> {
    rules.board().ray(from, step, usize::from(reach))
}

/// Whether `files` (a set of files, one bit each) holds a file from `from`'s to `to`'s, both
/// included.
#[inline]
pub(crate) fn files_between(files: u32, from: Square, to: Square) -> bool {
    let (lo, hi) = (from.file().min(to.file()), from.file().max(to.file()));
    let between = ((2u32 << hi) - 1) & !((1u32 << lo) - 1);
    files & between != 0
}
