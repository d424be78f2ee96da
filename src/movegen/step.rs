//! The rules of a turn one action at a time, for every variant: what the side to move may do
//! next (move a piece, kick the ball), what each action does, and when the turn may end.
//!
//! A turn is walked as a sequence of [`Mid`] states, from [`Mid::start`] through
//! [`Mid::apply`] to [`Mid::finish`]. Listing turns, naming them, reading a typed turn and
//! entering one step by step all walk these states, so each rule of a turn is written here
//! once. (Boyer's family also has a faster walk of whole kick chains, in `chains`, which
//! `agree` checks against this one for every value of every key.)

use crate::movegen::kicks::KickContext;
use crate::movegen::turn::{Action, Kick, MoveKind, PieceMove};
use crate::position::Position;
use crate::rules::cell::{BALL, EMPTY, code_kind, code_side};
use crate::rules::{
    AfterGoal, Captures, EnterBy, KickMode, Leg, MUST_RELEASE, NO_BACKPASS, NextAfterGoal, Order,
    PieceKind, Steal, TacklePush,
};
use crate::side::Side;
use crate::square::{SQUARES, Square};
use crate::square_set::SquareSet;

/// The state of a turn between two actions.
#[derive(Clone, Copy, Debug)]
pub struct Mid<'r> {
    /// The board as it stands (the mover is still to move).
    pos: Position<'r>,
    /// Piece moves left.
    moves_left: u8,
    /// Kicks left ([`u8::MAX`]: no limit).
    kicks_left: u8,
    /// Whether the ball has been kicked this turn.
    kicked: bool,
    /// The squares of the pieces that have made all their moves this turn.
    moved: SquareSet,
    /// Moves made this turn per piece that may still move (by its square), as two bits
    /// (`turn.moves_per_piece` above 1).
    move_count: [SquareSet; 2],
    /// Kicks made this turn per piece (by its square), as four bits.
    kick_count: [SquareSet; 4],
    /// The side that scored a point this turn (the turn is over).
    scored: Option<Side>,
    /// The square the mover may capture en passant this turn.
    en_passant: Option<Square>,
    /// The opponent's in-place steal of the last turn (stealer, robbed).
    last_steal: Option<(Square, Square)>,
    /// Actions so far.
    actions: u16,
    /// Piece moves made so far (not sprints, dribbles or takes), counted up to
    /// `turn.min_moves`.
    plain_moves: u8,
    /// Whether this turn is one of a stage before play (arrangement or placement): one move
    /// of the stage, and nothing after it, even when it ends the stage.
    stage: bool,
}

impl<'r> Mid<'r> {
    /// The state before the first action of the side to move in `pos`.
    #[must_use]
    pub fn start(pos: &Position<'r>) -> Mid<'r> {
        let rules = pos.rules;
        let turn = rules.turn();
        let mut board = *pos;
        // What the last turn left for this one is read here; the board keeps what this turn
        // leaves for the next.
        board.change_state(|p| {
            p.en_passant = None;
            p.steal = None;
        });
        Mid {
            pos: board,
            moves_left: turn.moves,
            kicks_left: if turn.kicks == 0 { u8::MAX } else { turn.kicks },
            kicked: false,
            moved: SquareSet::EMPTY,
            move_count: [SquareSet::EMPTY; 2],
            kick_count: [SquareSet::EMPTY; 4],
            scored: None,
            en_passant: pos.en_passant,
            last_steal: pos.steal,
            actions: 0,
            plain_moves: 0,
            stage: pos.arranging() || pos.placing(),
        }
    }

    /// The board as it stands.
    #[must_use]
    pub fn position(&self) -> &Position<'r> {
        &self.pos
    }

    /// The side that scored a point with the last action, ending the turn.
    #[must_use]
    pub fn scored(&self) -> Option<Side> {
        self.scored
    }

    /// The number of actions made so far.
    #[must_use]
    pub fn actions_made(&self) -> usize {
        usize::from(self.actions)
    }

    /// Whether the turn may end here (with at least one action made): after a point, when
    /// nothing more can be done, or at any moment where turns may end early.
    #[must_use]
    pub fn may_stop(&self, more: bool) -> bool {
        if self.relaying() {
            // A received ball must be kicked on: the turn goes on (never without an action,
            // since a kick ends on a teammate only where that teammate can kick on).
            return false;
        }
        if more && self.moves_owed() > 0 && self.scored.is_none() {
            // The turn must still make a piece move (`turn.min_moves`).
            return false;
        }
        self.scored.is_some() || !more || self.pos.rules.turn().end_early
    }

    /// The piece moves the turn must still make (`turn.min_moves`).
    #[must_use]
    pub fn moves_owed(&self) -> u8 {
        self.pos.rules.turn().min_moves.saturating_sub(self.plain_moves)
    }

    /// Whether every action left must be a piece move: the turn owes as many moves as it has
    /// action points left (`turn.min_moves`).
    fn only_moves(&self) -> bool {
        let owed = self.moves_owed();
        owed > 0 && self.actions_left() <= u16::from(owed)
    }

    /// Whether a teammate has received a kicked ball (`kick.relay`) and must kick it on.
    #[must_use]
    pub fn relaying(&self) -> bool {
        self.pos.held && !self.pos.rules.carried_ball()
    }

    /// Appends every action the side to move may make next to `out`.
    pub fn actions(&self, out: &mut Vec<Action>) {
        if self.scored.is_some() || self.actions_left() == 0 {
            return;
        }
        let rules = self.pos.rules;
        let turn = rules.turn();
        let mover = self.pos.side;
        if self.relaying() {
            self.relay_kicks(out);
            return;
        }
        if self.stage {
            if self.actions == 0 && self.pos.arranging() {
                self.arrangement_moves(out);
            } else if self.actions == 0 {
                self.drops(out);
            }
            return;
        }
        let before = out.len();
        if self.moves_left > 0 && (turn.order == Order::Any || !self.kicked) {
            for from in (self.pos.men[mover.index()] & !self.moved).iter() {
                self.piece_actions(from, out);
            }
        }
        if self.only_moves() {
            // Every action left must be a piece move (`turn.min_moves`): no take in place, no
            // entering kick, and none of what follows.
            let moves: Vec<Action> = out
                .drain(before..)
                .filter(|a| matches!(a, Action::Move(m) if m.kind != MoveKind::InPlace))
                .collect();
            out.extend(moves);
            return;
        }
        if rules.tables().has_specials && self.actions_left() != u16::MAX {
            for (from, code) in
                self.pos.men[mover.index()].iter().map(|s| (s, self.pos.board[s.index()]))
            {
                let letter = rules.pieces()[code_kind(code)].letter;
                for to in self.special_targets(from).iter() {
                    out.push(Action::Move(PieceMove::new(letter, from, to)));
                }
            }
        }
        if !rules.carried_ball() && self.kicks_left > 0 {
            self.kicks_beside(out);
        }
        if rules.carried_ball() && rules.ball().carried.shoot && self.kicks_left > 0 {
            self.shots(out);
        }
    }

    /// The name of the side to move's keeper that holds the ball and must give it up by the
    /// end of this turn (`hold = "one-turn"`), if there is one.
    #[must_use]
    pub fn keeper_to_release(&self) -> Option<&'r str> {
        let (_, kind) = self.pos.piece_at(self.bound_keeper()?)?;
        Some(self.pos.rules.piece(kind).name.as_str())
    }

    /// The square of the side to move's keeper that holds the ball and must give it up by the
    /// end of this turn (`hold = "one-turn"`), while the turn goes on.
    fn bound_keeper(&self) -> Option<Square> {
        let pos = &self.pos;
        if pos.keepers & MUST_RELEASE[pos.side.index()] == 0 || self.scored.is_some() {
            return None;
        }
        held_by_keeper(pos, pos.side)
    }

    /// The piece moves left to the turn (`turn.moves`).
    #[must_use]
    pub fn moves_left(&self) -> u8 {
        self.moves_left
    }

    /// The kicks left to the turn, where `turn.kicks` limits them.
    #[must_use]
    pub fn kicks_left(&self) -> Option<u8> {
        (self.pos.rules.turn().kicks > 0).then_some(self.kicks_left)
    }

    /// The action points left to the turn, where it has them (`turn.actions`).
    #[must_use]
    pub fn points_left(&self) -> Option<u16> {
        (self.pos.rules.turn().actions > 0).then(|| self.actions_left())
    }

    /// The action points spent so far (0 where the turn has none): what is left of the turn
    /// with them.
    fn actions_spent(&self) -> u8 {
        if self.pos.rules.turn().actions == 0 {
            0
        } else {
            u8::try_from(self.actions).unwrap_or(u8::MAX)
        }
    }

    /// The actions left to the turn by its action points (`turn.actions`; [`u16::MAX`]
    /// without them).
    fn actions_left(&self) -> u16 {
        match self.pos.rules.turn().actions {
            0 => u16::MAX,
            n => u16::from(n).saturating_sub(self.actions),
        }
    }

    /// The shots of the mover's holder (`ball.shoot`): by its whole kick pattern from its
    /// square, to an empty square (the ball lies free there), into a goal, or to a friend (a
    /// pass, with `ball.pass`). With `ball.intercept` a shot flies over friends and ends on the
    /// first enemy in its way, who takes the ball (an enemy goal piece, `target`, is a goal,
    /// once goals are allowed; before, it stops the shot).
    fn shots(&self, out: &mut Vec<Action>) {
        let pos = &self.pos;
        let rules = pos.rules;
        let t = rules.tables();
        let Some((holder, code)) = pos.holder().filter(|&(_, c)| code_side(c) == pos.side) else {
            return;
        };
        let ctx = KickContext::new(pos);
        if self.kicks_of(holder) >= ctx.per_piece {
            return;
        }
        let mut friends = pos.men[pos.side.index()];
        friends.remove(holder);
        let receivers = if rules.ball().carried.pass { friends } else { SquareSet::EMPTY };
        let mut ctx = ctx.with_receivers(receivers);
        if rules.pieces()[code_kind(code)].lob {
            // A lob flies over every piece: nobody takes or stops it but a friend it ends on.
            let mut everyone = pos.men[0] | pos.men[1];
            everyone.remove(holder);
            ctx = ctx.with_interception(everyone, SquareSet::EMPTY);
        } else if rules.ball().carried.intercept {
            let mut enemies = pos.men[(!pos.side).index()];
            if t.has_targets && pos.before_goals_allowed() {
                enemies = enemies
                    .iter()
                    .filter(|s| !t.target[usize::from(pos.board[s.index()])])
                    .collect();
            }
            let over = if rules.ball().carried.over_friends { friends } else { SquareSet::EMPTY };
            ctx = ctx.with_interception(over, enemies);
        }
        let mut targets = take_scratch();
        let key = t.piece_key(pos.side, code_kind(code));
        ctx.kicks_from_ball(&pos.board, holder, key, &mut targets);
        targets.retain(|&to| !self.backpass_banned(to));
        out.extend(targets.iter().map(|&to| Action::Kick(Kick { kicker: holder, to })));
        give_scratch(targets);
    }

    /// Whether the ball may not be passed to `to`: a keeper of the side to move (`backpass =
    /// false`) stands there, and the side's keepers gave the ball up and no enemy has held it
    /// since.
    fn backpass_banned(&self, to: Square) -> bool {
        let pos = &self.pos;
        let code = pos.board[to.index()];
        pos.keepers & NO_BACKPASS[pos.side.index()] != 0
            && code >= 2
            && code_side(code) == pos.side
            && pos.rules.tables().no_backpass[usize::from(code)]
    }

    /// After an action: the side to move's keepers that gave the ball up are blocked once it has
    /// left them (`backpass = false`, when `passer` was one of them), and a side's block is
    /// lifted once an enemy holds the ball.
    fn keep_backpass(&mut self, passer: Option<u8>) {
        let t = self.pos.rules.tables();
        let side = self.pos.side;
        if let Some(code) = passer
            && code_side(code) == side
            && t.no_backpass[usize::from(code)]
        {
            self.pos.change_state(|p| p.keepers |= NO_BACKPASS[side.index()]);
        }
        lift_backpass(&mut self.pos);
    }

    /// The kicks of the pieces next to the ball (kick modes `beside` and `from-ball`).
    fn kicks_beside(&self, out: &mut Vec<Action>) {
        let pos = &self.pos;
        let t = pos.rules.tables();
        let ctx = KickContext::new(pos);
        let mut targets = take_scratch();
        let mut touched = SquareSet::EMPTY;
        let Some(ball) = pos.ball else { return };
        let kickers = t.neighbours[ball.index()] & pos.men[pos.side.index()];
        for k in kickers.iter() {
            if self.kicks_of(k) >= ctx.per_piece {
                continue;
            }
            let code = pos.board[k.index()];
            let kind = code_kind(code);
            targets.clear();
            let ctx = ctx.with_receivers(self.receivers(k));
            match pos.rules.pieces()[kind].kick_mode {
                KickMode::Beside => {
                    ctx.targets::<false>(&pos.board, k, ball, code, &mut targets, &mut touched);
                }
                KickMode::FromBall => {
                    let key = t.piece_key(pos.side, kind);
                    ctx.kicks_from_ball(&pos.board, ball, key, &mut targets);
                }
                KickMode::Enter => continue,
            }
            self.push_kicks(k, &targets, out);
        }
        give_scratch(targets);
    }

    /// The placements of the placement stage: each kind in the mover's hand (in the hand's
    /// order) onto each empty placement square where it may stand (and its `place` allows).
    fn drops(&self, out: &mut Vec<Action>) {
        let pos = &self.pos;
        let t = pos.rules.tables();
        let side = pos.side;
        let Some(stage) = pos.rules.placement_stage() else { return };
        let held = stage.held(pos.hand[side.index()]);
        for (i, kind) in held.clone() {
            // Each kind once: at its first copy in hand.
            if held.clone().any(|(j, k)| k == kind && j < i) {
                continue;
            }
            let key = t.piece_key(side, kind.index());
            let letter = pos.rules.piece(kind).letter;
            for to in t.place_on[key].iter() {
                if pos.board[to.index()] == EMPTY {
                    out.push(Action::Move(PieceMove::drop(letter, to)));
                }
            }
        }
    }

    /// The moves of the arrangement stage: a piece of the side to move still to arrange goes,
    /// by one of its moves, to an empty square of its side's arrangement squares (no capture,
    /// no ball, no promotion).
    fn arrangement_moves(&self, out: &mut Vec<Action>) {
        let pos = &self.pos;
        let t = pos.rules.tables();
        let side = pos.side;
        for from in (pos.men[side.index()] & pos.arranging).iter() {
            let code = pos.board[from.index()];
            let kind = code_kind(code);
            let piece = &pos.rules.pieces()[kind];
            let key = t.piece_key(side, kind);
            let to = t.stand[key] & t.arrange_to[side.index()];
            let (mut i, end) = t.legs.span(key * SQUARES + from.index());
            let before = out.len();
            while i < end {
                let leg = piece.moves[usize::from(t.legs.tag(i))];
                if leg.initial && !t.initial[key].contains(from) {
                    i = t.legs.next_ray(i);
                    continue;
                }
                let s = t.legs.square(i);
                if leg.lame && !path_clear(&pos.board, from, s) {
                    i = t.legs.next_ray(i);
                    continue;
                }
                if pos.board[s.index()] != EMPTY {
                    i = t.legs.next_ray(i);
                    continue;
                }
                let m = PieceMove::new(piece.letter, from, s);
                // Two legs may reach one square: one move.
                if leg.moves() && to.contains(s) && !out[before..].contains(&Action::Move(m)) {
                    out.push(Action::Move(m));
                }
                i += 1;
            }
        }
    }

    /// The teammates a kick by the piece on `kicker` may end on (`kick.relay`): the mover's
    /// other pieces that may still kick this turn.
    fn receivers(&self, kicker: Square) -> SquareSet {
        let pos = &self.pos;
        let rules = pos.rules;
        if !rules.kick().relay
            || rules.carried_ball()
            || self.kicks_left < 2
            || self.actions_left() < 2
        {
            return SquareSet::EMPTY;
        }
        let per_piece = rules.kick().per_piece;
        let mut set = pos.men[pos.side.index()];
        set.remove(kicker);
        set.iter().filter(|&s| self.kicks_of(s) < per_piece).collect()
    }

    /// Pushes the kicks by the piece on `kicker` to `targets`: to an empty square, or to a
    /// teammate who can kick the ball on (a kick that would leave it stuck with its receiver
    /// is not a kick).
    fn push_kicks(&self, kicker: Square, targets: &[Square], out: &mut Vec<Action>) {
        for &to in targets {
            let kick = Action::Kick(Kick { kicker, to });
            let receiver = to != kicker && self.pos.piece_at(to).is_some();
            if !receiver || self.apply(kick).can_kick_on() {
                out.push(kick);
            }
        }
    }

    /// Whether the teammate that received the ball has a kick on.
    fn can_kick_on(&self) -> bool {
        let mut kicks = Vec::new();
        self.relay_kicks(&mut kicks);
        !kicks.is_empty()
    }

    /// The kicks of a teammate that received the ball (`kick.relay`): by its whole kick
    /// pattern from its own square, where it stands with the ball.
    fn relay_kicks(&self, out: &mut Vec<Action>) {
        if self.kicks_left == 0 {
            return;
        }
        let pos = &self.pos;
        let t = pos.rules.tables();
        let Some(holder) = pos.ball else { return };
        let code = pos.board[holder.index()];
        if code < 2 {
            return;
        }
        let key = t.piece_key(pos.side, code_kind(code));
        let mut targets = Vec::new();
        let ctx = KickContext::new(pos).with_receivers(self.receivers(holder));
        ctx.kicks_from_ball(&pos.board, holder, key, &mut targets);
        self.push_kicks(holder, &targets, out);
    }

    /// The kicks made this turn by the piece on `square`.
    fn kicks_of(&self, square: Square) -> u8 {
        let bit = |i: usize| u8::from(self.kick_count[i].contains(square)) << i;
        bit(0) | bit(1) | bit(2) | bit(3)
    }

    /// Counts one more kick for the piece on `square`.
    fn count_kick(&mut self, square: Square) {
        let n = (self.kicks_of(square) + 1).min(15);
        for (i, set) in self.kick_count.iter_mut().enumerate() {
            if n >> i & 1 == 1 {
                set.insert(square);
            } else {
                set.remove(square);
            }
        }
    }

    /// A piece moved: what is counted for it this turn follows it to its new square, and, when
    /// `counts` (a move, not a sprint or a dribble), one more move is counted for it.
    fn follow(&mut self, from: Square, to: Square, counts: bool) {
        let n = self.kicks_of(from);
        for set in &mut self.kick_count {
            set.remove(from);
        }
        for _ in 0..n {
            self.count_kick(to);
        }
        let was_done = self.moved.contains(from);
        self.moved.remove(from);
        let per_piece = self.pos.rules.turn().moves_per_piece;
        if !counts {
            let made = self.moves_of(from);
            self.set_moves(from, 0);
            if was_done {
                self.moved.insert(to);
            } else {
                self.set_moves(to, made);
            }
            return;
        }
        let made = match per_piece {
            // A piece that moves once a turn (most games) has nothing counted.
            1 => 1,
            _ => {
                let made = self.moves_of(from) + 1;
                self.set_moves(from, 0);
                made
            }
        };
        if made >= per_piece {
            self.moved.insert(to);
        } else {
            self.set_moves(to, made);
        }
    }

    /// The moves made this turn by the piece on `square`, where it may still move.
    fn moves_of(&self, square: Square) -> u8 {
        u8::from(self.move_count[0].contains(square))
            | u8::from(self.move_count[1].contains(square)) << 1
    }

    /// Sets the moves made this turn by the piece on `square` (at most 3).
    fn set_moves(&mut self, square: Square, n: u8) {
        for (i, set) in self.move_count.iter_mut().enumerate() {
            if n >> i & 1 == 1 {
                set.insert(square);
            } else {
                set.remove(square);
            }
        }
    }

    /// Every action of the piece on `from`: its moves and captures (with promotions), what it
    /// may do with a carried ball, and its entering kicks.
    fn piece_actions(&self, from: Square, out: &mut Vec<Action>) {
        let pos = &self.pos;
        let rules = pos.rules;
        let t = rules.tables();
        let code = pos.board[from.index()];
        let kind = code_kind(code);
        let piece = &rules.pieces()[kind];
        let key = t.piece_key(pos.side, kind);
        if piece.kick_mode == KickMode::Enter
            && matches!(rules.kick().enter, EnterBy::Adjacent | EnterBy::Push)
            && pos.ball.is_some_and(|ball| from.distance(ball) == 1)
        {
            self.enter_kicks(from, out);
        }
        let table = &t.legs;
        let (mut i, end) = table.span(key * SQUARES + from.index());
        let before = out.len();
        let mut entered = false;
        // The entries before this one lie beyond a free ball on their ray (`ball.sweep`).
        let mut swept_until = 0;
        while i < end {
            let leg = piece.moves[usize::from(table.tag(i))];
            if leg.initial && !t.initial[key].contains(from) {
                i = table.next_ray(i);
                continue;
            }
            let s = table.square(i);
            if leg.lame && !path_clear(&pos.board, from, s) {
                i = table.next_ray(i);
                continue;
            }
            let what = pos.board[s.index()];
            if what == EMPTY {
                if leg.moves() && self.may_land(key, from, s) {
                    self.push_move(PieceMove::new(piece.letter, from, s), key, out);
                } else if leg.en_passant && Some(s) == self.en_passant {
                    self.en_passant_capture(piece.letter, from, s, out);
                }
                i += 1;
                continue;
            }
            if what == BALL && piece.kick_mode == KickMode::Enter {
                // Several legs may reach the ball: one set of entering kicks.
                if !entered && leg.moves() && rules.kick().enter == EnterBy::Move {
                    entered = true;
                    self.enter_kicks(from, out);
                }
            } else if what == BALL && self.sweeps_up(leg) {
                // The ride takes the ball on its square, or goes on and picks it up on its way.
                self.landing_on(leg, from, s, what, out);
                swept_until = table.next_ray(i);
                i += 1;
                continue;
            } else if i < swept_until {
                // Beyond a swept ball the piece arrives holding it.
                if rules.ball().carried.holder_captures {
                    self.landing_on(leg, from, s, what, out);
                }
            } else {
                self.landing_on(leg, from, s, what, out);
            }
            i = table.next_ray(i);
        }
        // A cornered piece with no move may jump out (vchess.club's bishops).
        if out.len() == before && t.jump_dirs[key] != 0 && t.corners.contains(from) {
            let mut jumps = Vec::new();
            super::pieces::corner_jumps(t, &pos.board, from, t.jump_dirs[key], &mut jumps);
            for (from, to) in jumps {
                self.push_move(PieceMove::new(piece.letter, from, to), key, out);
            }
        }
        if piece.jump {
            self.jumps(from, key, before, out);
        }
        if piece.tackle {
            self.tackles(from, key, out);
        }
    }

    /// Whether the piece of `key` on `from` may end a move on the empty square `to`: where it
    /// may stand, or, holding the ball, on a goal square where it scores (`goals = "holder"`).
    fn may_land(&self, key: usize, from: Square, to: Square) -> bool {
        let t = self.pos.rules.tables();
        t.stand[key].contains(to)
            || (t.score_on[key].contains(to) && self.pos.held && self.pos.ball == Some(from))
    }

    /// Where the piece on `from` may sprint or dribble (`sprint`, `dribble`): the squares of its
    /// sprints and dribbles that its moves do not reach.
    fn special_targets(&self, from: Square) -> SquareSet {
        let squares = self.special_squares(from);
        if squares.is_empty() { squares } else { squares & !self.move_squares(from) }
    }

    /// Where the piece on `from` moves (not in place), whatever is left of the turn.
    fn move_squares(&self, from: Square) -> SquareSet {
        let mut moves = Vec::new();
        self.piece_actions(from, &mut moves);
        moves
            .iter()
            .filter_map(|a| match a {
                Action::Move(m) if m.kind != MoveKind::InPlace => Some(m.to),
                _ => None,
            })
            .collect()
    }

    /// The squares of the sprints and dribbles of the piece on `from`, its moves' squares
    /// among them. A sprint rides to empty squares, and onto the free ball, which it takes; a
    /// dribble, holding the ball, jumps over an enemy next to it onto the empty square just
    /// beyond.
    fn special_squares(&self, from: Square) -> SquareSet {
        let pos = &self.pos;
        let rules = pos.rules;
        let t = rules.tables();
        let Some((side, kind)) = pos.piece_at(from) else { return SquareSet::EMPTY };
        let piece = rules.piece(kind);
        if piece.sprint.is_empty() && !piece.dribble {
            return SquareSet::EMPTY;
        }
        let key = t.piece_key(side, kind.index());
        let holding = pos.held && pos.ball == Some(from);
        let mut out = SquareSet::EMPTY;
        let board = rules.board();
        for leg in &piece.sprint {
            // A sprint only moves: a capture-only leg has none, an initial leg only from the
            // piece's start squares.
            if !leg.moves() || (leg.initial && !t.initial[key].contains(from)) {
                continue;
            }
            let dr = if side == Side::White { leg.step.1 } else { -leg.step.1 };
            let most = match leg.reach {
                crate::rules::Reach::Steps(n) => usize::from(n),
                crate::rules::Reach::Unlimited => usize::MAX,
            };
            for s in board.ray(from, (leg.step.0, dr), most.min(64)) {
                let what = pos.board[s.index()];
                let lands = (what == EMPTY && self.may_land(key, from, s))
                    || (what == BALL && !holding && t.capture_on[key].contains(s));
                if leg.lame && !path_clear(&pos.board, from, s) {
                    break;
                }
                if lands {
                    out.insert(s);
                }
                if what != EMPTY {
                    break;
                }
            }
        }
        if piece.dribble && holding {
            for (over, to) in self.two_steps(from) {
                let code = pos.board[over.index()];
                if code >= 2
                    && code_side(code) != side
                    && pos.board[to.index()] == EMPTY
                    && self.may_land(key, from, to)
                {
                    out.insert(to);
                }
            }
        }
        out
    }

    /// Whether the move `m` is a sprint or a dribble: its square is one of the piece's sprints
    /// or dribbles (looked at first, as most moves are not) and none of its moves.
    fn is_special(&self, m: PieceMove) -> bool {
        m.kind == MoveKind::Plain
            && self.pos.rules.tables().has_specials
            && self.special_squares(m.from).contains(m.to)
            && !self.move_squares(m.from).contains(m.to)
    }

    /// Whether a ride of `leg` goes on over the free ball, picking it up (`ball.sweep`): a leg
    /// that may take (capture), wherever the ball lies (a square the piece may not stop on, as
    /// outside its zone, is only passed over).
    fn sweeps_up(&self, leg: Leg) -> bool {
        let rules = self.pos.rules;
        rules.carried_ball() && rules.ball().carried.sweep && leg.captures()
    }

    /// Whether the move from `from` to `to` rides over the free ball (`ball.sweep`): the ball
    /// lies on one of the mover's rays from `from`, before `to`, and is picked up on the way.
    fn sweeps_over(&self, from: Square, to: Square) -> bool {
        let pos = &self.pos;
        let rules = pos.rules;
        let Some(ball) = pos.ball.filter(|&b| !pos.held && b != to) else { return false };
        if !rules.carried_ball() || !rules.ball().carried.sweep || pos.board[from.index()] < 2 {
            return false;
        }
        let t = rules.tables();
        let kind = code_kind(pos.board[from.index()]);
        let key = t.piece_key(pos.side, kind);
        let table = &t.legs;
        let (mut i, end) = table.span(key * SQUARES + from.index());
        while i < end {
            let next = table.next_ray(i);
            let leg = rules.pieces()[kind].moves[usize::from(table.tag(i))];
            if let Some(at) = (i..next).find(|&j| table.square(j) == ball)
                && self.sweeps_up(leg)
                && (at + 1..next).any(|j| table.square(j) == to)
            {
                return true;
            }
            i = next;
        }
        false
    }

    /// Whether the piece on `from` may not act on the piece on `target` this turn: it was
    /// tackled by it last turn (a game with tacklers keeps the last tackle where a carried ball
    /// keeps the last steal).
    fn answers_a_tackle(&self, from: Square, target: Square) -> bool {
        self.pos.rules.tables().has_tacklers && self.last_steal == Some((target, from))
    }

    /// A tackler's tackles (`tackle = true`): onto an enemy piece next to it, a king's step
    /// away, which is pushed one square on the same way onto an empty square where it may
    /// stand; not back onto the piece that tackled it last turn.
    fn tackles(&self, from: Square, key: usize, out: &mut Vec<Action>) {
        let pos = &self.pos;
        let rules = pos.rules;
        let t = rules.tables();
        let letter = rules.pieces()[code_kind(pos.board[from.index()])].letter;
        for to in t.neighbours[from.index()].iter() {
            let what = pos.board[to.index()];
            if what < 2 || code_side(what) == pos.side || t.target[usize::from(what)] {
                continue;
            }
            if t.stand[key].contains(to)
                && self.pushed_to(from, to).is_some()
                && !self.answers_a_tackle(from, to)
            {
                self.push_move(PieceMove::new(letter, from, to), key, out);
            }
        }
    }

    /// A jumper's jumps (`jump = true`): over a piece or the ball next to it, a king's step
    /// away, onto the empty square just beyond where it may stand; a square its moves already
    /// reach (listed from `before` on in `out`) is not listed twice.
    fn jumps(&self, from: Square, key: usize, before: usize, out: &mut Vec<Action>) {
        let pos = &self.pos;
        let letter = pos.rules.pieces()[code_kind(pos.board[from.index()])].letter;
        for (over, to) in self.two_steps(from) {
            let reached = |a: &Action| matches!(a, Action::Move(m) if m.from == from && m.to == to);
            if pos.board[over.index()] != EMPTY
                && pos.board[to.index()] == EMPTY
                && !self.answers_a_tackle(from, over)
                && pos.rules.tables().stand[key].contains(to)
                && !out[before..].iter().any(reached)
            {
                self.push_move(PieceMove::new(letter, from, to), key, out);
            }
        }
    }

    /// The pairs of squares one and two king's steps from `from` along each line: what a jump
    /// passes over and lands on.
    fn two_steps(&self, from: Square) -> impl Iterator<Item = (Square, Square)> + use<'r> {
        let board = self.pos.rules.board();
        let next = self.pos.rules.tables().neighbours[from.index()];
        next.iter().filter_map(move |s| Some((s, step_beyond(board, from, s)?)))
    }

    /// What a piece on `from` may do on the occupied square `s` reached by `leg`.
    fn landing_on(&self, leg: Leg, from: Square, s: Square, what: u8, out: &mut Vec<Action>) {
        let pos = &self.pos;
        let rules = pos.rules;
        let t = rules.tables();
        let code = pos.board[from.index()];
        let kind = code_kind(code);
        let piece = &rules.pieces()[kind];
        let key = t.piece_key(pos.side, kind);
        let carried = rules.carried_ball();
        if what == BALL {
            if carried && leg.captures() && t.capture_on[key].contains(s) {
                // Taking a free ball: the piece moves onto it.
                self.push_move(PieceMove::new(piece.letter, from, s), key, out);
            }
            return;
        }
        if !leg.captures() {
            return;
        }
        let friend = code_side(what) == pos.side;
        let held_there = carried && pos.held && pos.ball == Some(s);
        let holding = carried && pos.held && pos.ball == Some(from);
        let ball = rules.ball().carried;
        let in_place =
            PieceMove { kind: MoveKind::InPlace, ..PieceMove::new(piece.letter, from, s) };
        if friend {
            // A shooter passes by its kick pattern (`Mid::shots`).
            let pass = holding && ball.pass && !ball.shoot && !self.backpass_banned(s);
            if pass || (held_there && ball.take_from_friend) {
                out.push(Action::Move(in_place));
            }
            return;
        }
        if t.target[usize::from(what)] {
            // A goal piece is untouchable: never captured, tackled or robbed.
            return;
        }
        if held_there {
            if ball.steal == Steal::Tackle
                && t.stand[key].contains(s)
                && self.pushed_to(from, s).is_some()
            {
                self.push_move(PieceMove::new(piece.letter, from, s), key, out);
            }
            if matches!(ball.steal, Steal::Capture | Steal::Both)
                && rules.captures() != Captures::None
                && t.capture_on[key].contains(s)
            {
                self.push_move(PieceMove::new(piece.letter, from, s), key, out);
            }
            let banned = !ball.steal_back && self.last_steal == Some((s, from));
            if matches!(ball.steal, Steal::InPlace | Steal::Both) && !banned {
                out.push(Action::Move(in_place));
            }
            return;
        }
        let may_capture = rules.captures() == Captures::Replace
            && !piece.tackle
            && (!holding || ball.holder_captures)
            && t.capture_on[key].contains(s);
        if may_capture {
            self.push_move(PieceMove::new(piece.letter, from, s), key, out);
        }
    }

    /// An en-passant capture onto the skipped square `to`.
    fn en_passant_capture(&self, letter: char, from: Square, to: Square, out: &mut Vec<Action>) {
        let pos = &self.pos;
        let holding = pos.held && pos.ball == Some(from);
        let victim = self.en_passant_victim(to);
        let enemy = victim.is_some_and(|v| {
            let code = pos.board[v.index()];
            code >= 2
                && code_side(code) != pos.side
                && !pos.rules.tables().target[usize::from(code)]
        });
        if pos.rules.captures() == Captures::Replace && !holding && enemy {
            out.push(Action::Move(PieceMove {
                kind: MoveKind::EnPassant,
                ..PieceMove::new(letter, from, to)
            }));
        }
    }

    /// The square of the piece that skipped `skipped`: one step beyond it, the way the other
    /// side moves forward.
    fn en_passant_victim(&self, skipped: Square) -> Option<Square> {
        let forward = if self.pos.side == Side::White { -1 } else { 1 };
        self.pos.rules.board().offset(skipped, 0, forward)
    }

    /// Pushes a move, once per promotion choice where it ends on a promotion square.
    fn push_move(&self, m: PieceMove, key: usize, out: &mut Vec<Action>) {
        let rules = self.pos.rules;
        let t = rules.tables();
        if t.promote[key].contains(m.to) {
            let kind = code_kind(self.pos.board[m.from.index()]);
            if let Some(p) = &rules.pieces()[kind].promotion {
                for &to in &p.to {
                    let letter = rules.piece(to).letter;
                    out.push(Action::Move(PieceMove { promotion: Some(letter), ..m }));
                }
                return;
            }
        }
        out.push(Action::Move(m));
    }

    /// The kicks of the piece on `from` stepping onto the ball (kick mode `enter`): the ball
    /// flies from its square by the piece's kick pattern, the square the piece left empty.
    fn enter_kicks(&self, from: Square, out: &mut Vec<Action>) {
        if self.kicks_left == 0 {
            return;
        }
        let pos = &self.pos;
        let t = pos.rules.tables();
        let code = pos.board[from.index()];
        let key = t.piece_key(pos.side, code_kind(code));
        let Some(ball) = pos.ball else { return };
        if !t.stand[key].contains(ball) {
            return;
        }
        let mut board = pos.board;
        board[from.index()] = EMPTY;
        board[ball.index()] = code;
        let mut targets = take_scratch();
        let ctx = KickContext::new(pos).with_receivers(self.receivers(from));
        ctx.kicks_from_ball(&board, ball, key, &mut targets);
        if pos.rules.kick().enter == EnterBy::Push {
            // A push: the ball goes on the way the kicker stepped.
            targets.retain(|&to| pushed_along(from, ball, to));
        }
        self.push_kicks(from, &targets, out);
        give_scratch(targets);
    }

    /// The state after `action`, which must be one of [`Mid::actions`] (anything else gives a
    /// meaningless state but never panics).
    #[must_use]
    pub fn apply(&self, action: Action) -> Mid<'r> {
        let mut next = *self;
        next.actions = next.actions.saturating_add(1);
        match action {
            Action::Move(m) => next.apply_move(m),
            Action::Kick(k) => next.apply_kick(k),
        }
        if self.pos.rules.tables().has_keepers {
            // The piece that held the ball before the action gave it up by a kick or a pass in
            // place: a keeper that gives it up.
            let passed = matches!(action, Action::Kick(_)) || is_pass(action);
            let passer = self.pos.holder().map(|(_, code)| code);
            next.keep_backpass(passer.filter(|_| passed && next.pos.ball != self.pos.ball));
            next.keeper_penalty();
        }
        next
    }

    fn apply_move(&mut self, m: PieceMove) {
        let rules = self.pos.rules;
        let (from, to) = (m.from, m.to);
        let board = rules.board();
        if m.kind == MoveKind::Drop {
            self.apply_drop(m);
            return;
        }
        if !board.contains(from) || !board.contains(to) || self.pos.piece_at(from).is_none() {
            return;
        }
        // A sprint or a dribble is an action, not a move: the turn's moves stay as they were.
        let special = self.is_special(m);
        if !special {
            self.moves_left = self.moves_left.saturating_sub(1);
        }
        if !special && matches!(m.kind, MoveKind::Plain | MoveKind::EnPassant) {
            self.plain_moves = self.plain_moves.saturating_add(1);
        }
        let mover = self.pos.side;
        if self.pos.arranging.contains(from) {
            self.pos.change_state(|p| p.arranging.remove(from));
        }
        if m.kind == MoveKind::InPlace {
            self.apply_in_place(from, to);
            self.moved.insert(from);
            self.check_piece_goal(to);
            return;
        }
        let holding = self.pos.held && self.pos.ball == Some(from);
        let what = self.pos.board[to.index()];
        // A free ball picked up on the way: the piece arrives holding it.
        let swept = what != BALL && self.sweeps_over(from, to);
        // A holder robbed by a tackle, lifted off the board until the robber has moved (it
        // may be pushed onto the square the robber leaves).
        let mut robbed = None;
        if m.kind == MoveKind::EnPassant {
            if let Some(v) = self.en_passant_victim(to) {
                self.capture(v);
            }
        } else if what == BALL {
            // Taking a free ball.
            self.pos.place_ball(to, true);
        } else if what >= 2 && code_side(what) != mover && self.tackler(from) {
            self.tackle(from, to);
        } else if what >= 2
            && self.pos.held
            && self.pos.ball == Some(to)
            && rules.ball().carried.steal == Steal::Tackle
        {
            // A steal by tackle: the holder is pushed on, the ball stays for the robber.
            if let Some(beyond) = self.pushed_to(from, to) {
                robbed = self.pos.piece_at(to).map(|(side, kind)| (beyond, side, kind));
                self.pos.remove_piece(to);
            }
        } else if what >= 2 {
            // Capturing a holder steals the ball: it stays held on `to`.
            self.capture(to);
        }
        if swept {
            self.pos.place_ball(to, true);
        }
        let code = self.pos.board[from.index()];
        self.pos.move_piece(from, to);
        if let Some((beyond, side, kind)) = robbed {
            self.pos.put_piece(beyond, side, kind);
        }
        if holding {
            self.pos.change_state(|p| p.ball = Some(to));
        }
        if let Some(letter) = m.promotion
            && let Some(kind) = rules.kind_of(letter)
        {
            self.pos.set_kind(to, kind);
        }
        self.double_step(code, from, to, holding || swept, mover);
        self.follow(from, to, !special);
        self.check_piece_goal(to);
    }

    /// A piece of the mover's hand placed on `m.to`: the last copy of its kind in the hand
    /// leaves it (so that a hand has one value), and a side that has placed all it places
    /// holds nothing more.
    fn apply_drop(&mut self, m: PieceMove) {
        let rules = self.pos.rules;
        let side = self.pos.side;
        let (Some(stage), Some(kind)) = (rules.placement_stage(), rules.kind_of(m.letter)) else {
            return;
        };
        let Some(left) = stage.after_placing(self.pos.hand[side.index()], kind) else { return };
        if !rules.board().contains(m.to) || self.pos.board[m.to.index()] != EMPTY {
            return;
        }
        self.pos.put_piece(m.to, side, kind);
        self.moved.insert(m.to);
        self.pos.change_state(|p| p.hand[side.index()] = left);
    }

    /// Where a tackle from `from` pushes the piece on `to`: one square on, away from the
    /// tackler (one square along each way it came, so that a knight's tackle pushes
    /// diagonally), onto an empty square of the board where that piece may stand. A tackler's
    /// tackle (`tackle = true`, from next to it) and a steal by tackle (`ball.steal =
    /// "tackle"`) push alike, except that a holder robbed with `ball.tackle_push =
    /// "orthogonal"` goes to the first empty square beside it, tried right, left, up, then
    /// down as White sees the board (the tackler's square counting as empty).
    fn pushed_to(&self, from: Square, to: Square) -> Option<Square> {
        let pos = &self.pos;
        let code = pos.board[to.index()];
        if code < 2 {
            return None;
        }
        let rules = pos.rules;
        let victim = rules.tables().piece_key(code_side(code), code_kind(code));
        let lands = |s: Square| rules.tables().stand[victim].contains(s);
        // A holder robbed by a steal (not pushed with the ball by a tackler's tackle).
        let robbed = pos.held
            && pos.ball == Some(to)
            && code_side(code) != pos.side
            && rules.ball().carried.steal == Steal::Tackle
            && !self.tackler(from);
        if robbed && rules.ball().carried.tackle_push == TacklePush::Orthogonal {
            return [(1, 0), (-1, 0), (0, 1), (0, -1)].into_iter().find_map(|(df, dr)| {
                let s = rules.board().offset(to, df, dr)?;
                ((pos.board[s.index()] == EMPTY || s == from) && lands(s)).then_some(s)
            });
        }
        let (df, dr) = step(from, to);
        let beyond = rules.board().offset(to, df.signum(), dr.signum())?;
        (pos.board[beyond.index()] == EMPTY && lands(beyond)).then_some(beyond)
    }

    /// Whether the piece on `from` tackles (`tackle = true`).
    fn tackler(&self, from: Square) -> bool {
        let code = self.pos.board[from.index()];
        code >= 2 && self.pos.rules.pieces()[code_kind(code)].tackle
    }

    /// The piece on `to` is tackled by the piece on `from`: pushed one square on the same way
    /// (with the ball, if it holds it); the tackle is kept for the next turn, which may not
    /// answer it.
    fn tackle(&mut self, from: Square, to: Square) {
        let Some(beyond) = self.pushed_to(from, to) else { return };
        self.pos.move_piece(to, beyond);
        let held = self.pos.held && self.pos.ball == Some(to);
        self.pos.change_state(|p| {
            if held {
                p.ball = Some(beyond);
            }
            p.steal = Some((to, beyond));
        });
    }

    /// A carried ball changes hands between the pieces on `from` (the mover) and `to`.
    fn apply_in_place(&mut self, from: Square, to: Square) {
        let pos = &mut self.pos;
        if pos.held && pos.ball == Some(from) {
            pos.change_state(|p| p.ball = Some(to));
        } else if pos.held && pos.ball == Some(to) {
            let enemy = pos.piece_at(to).is_some_and(|(side, _)| side != pos.side);
            pos.change_state(|p| {
                p.ball = Some(from);
                if enemy {
                    p.steal = Some((from, to));
                }
            });
        }
    }

    /// Removes the piece on `at`; capturing a royal piece scores a point.
    fn capture(&mut self, at: Square) {
        let code = self.pos.board[at.index()];
        if code < 2 {
            return;
        }
        self.pos.remove_piece(at);
        if self.pos.rules.tables().royal[usize::from(code)] {
            self.scored = Some(self.pos.side);
        }
        self.moved.remove(at);
        self.set_moves(at, 0);
    }

    /// A piece with en-passant captures that steps two squares straight forward leaves the
    /// square it skipped to be captured en passant (not while it holds the ball).
    fn double_step(&mut self, code: u8, from: Square, to: Square, holding: bool, mover: Side) {
        let rules = self.pos.rules;
        let kind = code_kind(code);
        let forward: i32 = if mover == Side::White { 1 } else { -1 };
        let dr = i32::from(to.rank()) - i32::from(from.rank());
        if holding
            || to.file() != from.file()
            || dr != 2 * forward
            || !rules.pieces()[kind].moves.iter().any(|l| l.en_passant)
        {
            return;
        }
        if let Some(skipped) = rules.board().offset(from, 0, forward) {
            self.pos.change_state(|p| p.en_passant = Some(skipped));
        }
    }

    /// A carried ball scores when the mover holds it on one of its goal squares; without a
    /// ball, the piece that moved to `to` scores when `to` is one of its side's goal squares.
    fn check_piece_goal(&mut self, to: Square) {
        let pos = &self.pos;
        let rules = pos.rules;
        let side = pos.side;
        let scores = match pos.ball {
            None => rules.tables().goals_of[side.index()].contains(to),
            Some(ball) => {
                rules.carried_ball()
                    && pos.held
                    && pos.piece_at(ball).is_some_and(|(s, _)| s == side)
                    && rules.goals(side).contains(&ball)
            }
        };
        if scores {
            self.scored = Some(side);
            self.promote_scorer(pos.ball.unwrap_or(to));
        }
    }

    /// The piece on `at`, of the side to move, has just scored: it becomes its `goal_promotion`.
    fn promote_scorer(&mut self, at: Square) {
        let rules = self.pos.rules;
        if let Some((side, kind)) = self.pos.piece_at(at)
            && side == self.pos.side
            && let Some(to) = rules.piece(kind).goal_promotion
        {
            self.pos.set_kind(at, to);
        }
    }

    fn apply_kick(&mut self, k: Kick) {
        if self.pos.rules.carried_ball() {
            self.apply_shot(k);
            return;
        }
        let pos = &self.pos;
        let rules = pos.rules;
        let Some((_, kind)) = pos.piece_at(k.kicker) else { return };
        let Some(ball) = pos.ball else { return };
        // A teammate that received the ball kicks it on from its own square.
        let relaying = self.relaying();
        if relaying && k.kicker != ball {
            return;
        }
        let enter = !relaying && rules.piece(kind).kick_mode == KickMode::Enter;
        // An entering kicker leaves its square before the ball flies: it may land there.
        let free = pos.board[k.to.index()] == EMPTY || (enter && k.to == k.kicker);
        let receiver = !free
            && rules.kick().relay
            && k.to != k.kicker
            && pos.piece_at(k.to).is_some_and(|(side, _)| side == pos.side);
        if !rules.board().contains(k.to) || !(free || receiver) {
            return;
        }
        self.spend_kick();
        let kicker = if enter {
            // The kicker stands where the ball was: that was its move.
            if receiver {
                // Its teammate on `to` receives the ball.
                self.pos.place_ball(k.to, true);
                self.pos.move_piece(k.kicker, ball);
            } else {
                self.pos.enter_ball(k.kicker, k.to);
            }
            self.moves_left = self.moves_left.saturating_sub(1);
            self.follow(k.kicker, ball, true);
            ball
        } else if relaying || receiver {
            self.pos.place_ball(k.to, receiver);
            k.kicker
        } else {
            self.pos.move_ball(k.to);
            k.kicker
        };
        self.count_kick(kicker);
        if !receiver && let Some(scorer) = rules.scorer(k.to) {
            self.scored = Some(scorer);
            self.promote_scorer(kicker);
        }
    }

    /// A kick of the turn: the ball has been kicked, and the turn's kicks go down by one.
    fn spend_kick(&mut self) {
        self.kicked = true;
        if self.kicks_left != u8::MAX {
            self.kicks_left = self.kicks_left.saturating_sub(1);
        }
    }

    /// A holder's shot (`ball.shoot`): the ball lies free on an empty square (scoring on a
    /// goal), or a friend there holds it; with `ball.intercept`, an enemy there takes it and the
    /// turn is over (a point, if that enemy is a goal: `target`).
    fn apply_shot(&mut self, k: Kick) {
        let pos = &self.pos;
        let rules = pos.rules;
        let holds = pos.held && pos.ball == Some(k.kicker);
        let mine = pos.piece_at(k.kicker).is_some_and(|(side, _)| side == pos.side);
        let empty = pos.board[k.to.index()] == EMPTY;
        let friend = pos.piece_at(k.to).is_some_and(|(side, _)| side == pos.side);
        let enemy = rules.ball().carried.intercept
            && pos.piece_at(k.to).is_some_and(|(side, _)| side != pos.side);
        if !holds || !mine || !rules.board().contains(k.to) || !(empty || friend || enemy) {
            return;
        }
        let goal = enemy && rules.tables().target[usize::from(pos.board[k.to.index()])];
        self.spend_kick();
        self.pos.place_ball(k.to, friend || enemy);
        self.count_kick(k.kicker);
        if goal {
            self.scored = Some(self.pos.side);
            self.promote_scorer(k.kicker);
        } else if enemy {
            // Intercepted: nothing more this turn.
            (self.moves_left, self.kicks_left) = (0, 0);
        } else if !friend && let Some(scorer) = rules.scorer(k.to) {
            self.scored = Some(scorer);
            self.promote_scorer(k.kicker);
        }
    }

    /// The last action point of a turn whose keeper must give the ball up (`hold =
    /// "one-turn"`) is its release: a move that leaves only that point, the keeper still
    /// holding the ball, ends the turn, and the ball is released at its end.
    fn keeper_penalty(&mut self) {
        if self.pos.rules.turn().actions == 0 || self.actions_left() != 1 {
            return;
        }
        if self.bound_keeper().is_some() {
            (self.moves_left, self.kicks_left) = (0, 0);
        }
    }

    /// A key of the whole state: two states with the same key have the same actions and the
    /// same results (the board, what is left of the turn's budget, which pieces have moved or
    /// kicked).
    #[must_use]
    pub fn key(&self) -> u64 {
        let budget = u64::from(self.moves_left)
            | u64::from(self.kicks_left) << 8
            | u64::from(self.kicked) << 16
            | self.scored.map_or(0, |s| 1 + s.index() as u64) << 17
            | u64::from(self.actions_spent()) << 20
            | u64::from(self.moves_owed()) << 28;
        let mut h = self.pos.hash ^ budget.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        // Who has moved matters only while moves are left; who has kicked only where a piece's
        // own limit is tighter than the turn's.
        let rules = self.pos.rules;
        let turn_kicks = rules.turn().kicks;
        let per_piece_binds = turn_kicks == 0 || rules.kick().per_piece < turn_kicks;
        let moved = (self.moves_left > 0).then_some(self.moved);
        let counted = self.move_count.iter().copied().filter(|_| self.moves_left > 0);
        let kicked = self.kick_count.iter().copied().filter(|_| per_piece_binds);
        for (i, set) in moved.into_iter().chain(counted).chain(kicked).enumerate() {
            if !set.is_empty() {
                h ^= set.digest().rotate_left(7 * i as u32 + 3);
            }
        }
        h
    }

    /// The hash of [`Mid::finish`]'s position, found without building it when no point was
    /// scored.
    #[must_use]
    pub fn result_hash(&self) -> u64 {
        let passes_a_stage = self.actions == 0 && self.stage;
        let plain =
            !passes_a_stage && !self.pos.rules.tables().has_keepers && offside(&self.pos).is_none();
        match self.scored {
            None if plain => self.pos.hash_after_turn(),
            _ => self.finish().hash(),
        }
    }

    /// The position after the turn: the other side to move, the turn counted, and what a point
    /// brings (the score, and in a match the reset of the board or the ball).
    #[must_use]
    pub fn finish(&self) -> Position<'r> {
        let mut pos = self.pos;
        if self.actions == 0 && self.stage {
            // A side with no move of the stage before play passes, and has none later: its
            // pieces left to arrange stay where they are, those left to place out of the game.
            let side = pos.side;
            let own = pos.men[side.index()];
            pos.change_state(|p| {
                p.arranging = p.arranging & !own;
                p.hand[side.index()] = 0;
            });
        }
        if self.scored.is_none() {
            keeper_turn_end(&mut pos);
            if let Some(keeper) = offside(&pos) {
                pos.place_ball(keeper, true);
            }
            lift_backpass(&mut pos);
        }
        pos.end_turn();
        let Some(scorer) = self.scored else { return pos };
        let rules = pos.rules;
        let end = rules.end();
        if !end.keeps_score() {
            return pos;
        }
        pos.change_state(|p| p.score[scorer.index()] = p.score[scorer.index()].saturating_add(1));
        let start = rules.start();
        match end.after_goal {
            AfterGoal::End => {}
            AfterGoal::Reset => {
                let promoted = promoted_pieces(&pos);
                pos.reset_to(start);
                keep_promoted(&mut pos, &promoted);
            }
            AfterGoal::BallToSpot => match start.ball {
                Some(spot) if pos.board[spot.index()] == EMPTY && !pos.held => pos.move_ball(spot),
                Some(spot) if pos.board[spot.index()] == EMPTY => pos.place_ball(spot, false),
                _ => pos.reset_to(start),
            },
        }
        if end.next == NextAfterGoal::Conceding && pos.side != !scorer {
            pos.pass_move();
        }
        if end.after_goal == AfterGoal::Reset
            && let Some(kind) = end.serve.and_then(|letter| rules.kind_of(letter))
            && let Some(server) = pos.men[pos.side.index()]
                .iter()
                .find(|s| pos.piece_at(*s).is_some_and(|(_, k)| k == kind))
        {
            // The serve: that piece of the side to move holds the ball.
            pos.place_ball(server, true);
        }
        pos
    }
}

/// The pieces on the board that became what they are by scoring (`goal_promotion`), each as
/// its side, the kind it was and the kind it is.
fn promoted_pieces(pos: &Position<'_>) -> Vec<(Side, PieceKind, PieceKind)> {
    let rules = pos.rules;
    let mut out = Vec::new();
    if rules.pieces().iter().all(|p| p.goal_promotion.is_none()) {
        return out;
    }
    for side in Side::ALL {
        for at in pos.men[side.index()].iter() {
            let Some((_, kind)) = pos.piece_at(at) else { continue };
            if let Some(base) = rules.kinds().find(|&k| rules.piece(k).goal_promotion == Some(kind))
            {
                out.push((side, base, kind));
            }
        }
    }
    out
}

/// After a reset, the scorers keep their promotion (`goal_promotion`): each takes the start
/// square of the first piece of its former kind, from a1, not yet promoted.
fn keep_promoted(pos: &mut Position<'_>, promoted: &[(Side, PieceKind, PieceKind)]) {
    for &(side, base, kind) in promoted {
        let at = pos.men[side.index()].iter().find(|&s| pos.piece_at(s) == Some((side, base)));
        if let Some(at) = at {
            pos.set_kind(at, kind);
        }
    }
}

/// Whether `action` is a pass in place (a holder gives the ball to a friend; neither moves).
fn is_pass(action: Action) -> bool {
    matches!(action, Action::Move(m) if m.kind == MoveKind::InPlace)
}

/// The square of `side`'s keeper that must not keep the ball (`hold = "one-turn"`), if it holds
/// it.
fn held_by_keeper(pos: &Position<'_>, side: Side) -> Option<Square> {
    let (at, code) = pos.holder()?;
    (code_side(code) == side && pos.rules.tables().one_turn[usize::from(code)]).then_some(at)
}

/// The squares beside a keeper where the ball it must give up is released, tried in this
/// order as White sees the board: up, down, right, left, then up-right, down-left, down-right,
/// up-left.
const RELEASE_ORDER: [(i32, i32); 8] =
    [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)];

/// The end of a turn for the keepers of the side that has played (`hold = "one-turn"`): a
/// keeper that holds the ball at the end of two of its side's turns in a row releases it
/// beside it (see [`RELEASE_ORDER`]; if no square there is empty it keeps it, still bound to
/// give it up), which blocks backpasses to a keeper with `backpass = false`; holding it at
/// the end of one, it must give it up next turn.
fn keeper_turn_end(pos: &mut Position<'_>) {
    let t = pos.rules.tables();
    if !t.has_keepers {
        return;
    }
    let side = pos.side;
    let bit = MUST_RELEASE[side.index()];
    let Some(at) = held_by_keeper(pos, side) else {
        if pos.keepers & bit != 0 {
            pos.change_state(|p| p.keepers &= !bit);
        }
        return;
    };
    if pos.keepers & bit == 0 {
        pos.change_state(|p| p.keepers |= bit);
        return;
    }
    let board = pos.rules.board();
    let spot = RELEASE_ORDER
        .iter()
        .find_map(|&(df, dr)| board.offset(at, df, dr).filter(|&s| pos.board[s.index()] == EMPTY));
    if let Some(spot) = spot {
        let no_backpass = t.no_backpass[usize::from(pos.board[at.index()])];
        pos.place_ball(spot, false);
        pos.change_state(|p| {
            p.keepers &= !bit;
            if no_backpass {
                p.keepers |= NO_BACKPASS[side.index()];
            }
        });
    }
}

/// Lifts a side's backpass block once an enemy holds the ball.
fn lift_backpass(pos: &mut Position<'_>) {
    let Some((_, code)) = pos.holder() else { return };
    let blocked = NO_BACKPASS[(!code_side(code)).index()];
    if pos.keepers & blocked != 0 {
        pos.change_state(|p| p.keepers &= !blocked);
    }
}

/// Offside (`ball.offside`): where the side to move, its turn over, has a holder other than a
/// goal piece on one of its offside squares, the square of the enemy goal piece that then
/// takes the ball (the first, from a1, if there are several).
fn offside(pos: &Position<'_>) -> Option<Square> {
    let t = pos.rules.tables();
    let (at, code) = pos.holder()?;
    if !t.offside[pos.side.index()].contains(at)
        || code_side(code) != pos.side
        || t.target[usize::from(code)]
    {
        return None;
    }
    pos.men[(!pos.side).index()].iter().find(|s| t.target[usize::from(pos.board[s.index()])])
}

/// The step from `a` to `b`, in files and ranks.
fn step(a: Square, b: Square) -> (i32, i32) {
    (i32::from(b.file()) - i32::from(a.file()), i32::from(b.rank()) - i32::from(a.rank()))
}

/// The square one step beyond `to` on the line from `from` (a king's step from `to`) through
/// it, if it is on the board.
fn step_beyond(board: crate::rules::Board, from: Square, to: Square) -> Option<Square> {
    let (df, dr) = step(from, to);
    board.offset(to, df, dr)
}

/// Whether `to` lies beyond `ball` on the line from `from` (next to the ball) through it: where
/// a push from `from` may send the ball.
fn pushed_along(from: Square, ball: Square, to: Square) -> bool {
    let (df, dr) = step(from, ball);
    let (tf, tr) = step(ball, to);
    let n = tf.abs().max(tr.abs());
    n > 0 && tf == n * df && tr == n * dr
}

thread_local! {
    /// A buffer of kick destinations, kept between calls so that listing actions allocates
    /// nothing once warmed up.
    static SCRATCH: std::cell::Cell<Vec<Square>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The kept buffer of kick destinations, emptied.
fn take_scratch() -> Vec<Square> {
    let mut v = SCRATCH.take();
    v.clear();
    v
}

/// Gives the buffer back.
fn give_scratch(v: Vec<Square>) {
    SCRATCH.set(v);
}

/// Whether every square strictly between `a` and `b` (on one line) is empty.
fn path_clear(board: &[u8; SQUARES], a: Square, b: Square) -> bool {
    let df = i32::from(b.file()) - i32::from(a.file());
    let dr = i32::from(b.rank()) - i32::from(a.rank());
    let n = df.abs().max(dr.abs());
    if n <= 1 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return true;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    (1..n).all(|i| {
        let f = i32::from(a.file()) + sf * i;
        let r = i32::from(a.rank()) + sr * i;
        board[Square::at(f as u8, r as u8).index()] == EMPTY
    })
}

#[cfg(test)]
mod tests {
    use super::Mid;
    use crate::definition::load_shipped;
    use crate::position::Position;

    /// In the arrangement stage a piece moves by its own moves: a pawn's double step only from
    /// its start square, its single step from anywhere.
    #[test]
    fn arrangement_moves_follow_initial_only_legs() {
        let text = r#"
format = 1
[variant]
name = "Arranged pawns"
[board]
files = 5
ranks = 5
[goals]
white = "c5"
black = "c1"
[pieces.P]
name = "pawn"
moves = "fmWifmnD"
[setup]
fen = "5/4p/2a2/P4/5 w 0"
[arrangement]
squares = "a1:e4"
"#;
        let def = crate::definition::load_text("pawns.toml", text).unwrap();
        let targets = |fen: &str| {
            let pos = Position::from_fen(&def.rules, fen).unwrap();
            let mut actions = Vec::new();
            Mid::start(&pos).actions(&mut actions);
            actions.iter().map(|a| format!("{a:?}")).collect::<Vec<_>>().join(" ")
        };
        let start = targets("5/4p/2a2/P4/5 w 0");
        assert!(start.contains("a3") && start.contains("a4"), "{start}");
        // Off its start square (b2 is no pawn's start), one step only.
        let moved = targets("5/4p/2a2/1P3/5 w 0 b2e4");
        assert!(moved.contains("b3") && !moved.contains("b4"), "{moved}");
    }

    /// A turn built action by action counts its actions: none at the start, one per action.
    #[test]
    fn each_action_is_counted() {
        let def = load_shipped("boyer-1951").unwrap();
        let pos = Position::start(&def.rules);
        let mut mid = Mid::start(&pos);
        assert_eq!(mid.actions_made(), 0);
        for made in 1..=2 {
            let mut actions = Vec::new();
            mid.actions(&mut actions);
            let Some(&first) = actions.first() else { break };
            mid = mid.apply(first);
            assert_eq!(mid.actions_made(), made);
        }
        assert!(mid.actions_made() >= 1);
    }
}
