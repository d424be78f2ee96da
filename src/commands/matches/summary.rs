//! What a match's table says beyond the score: the first player's results with each colour,
//! and how each setup came out when both colours played it (a game where the side to move first
//! wins most setups is decided as much by the colours as by the players).

use super::{GameEnd, Score, seat_of};
use kickoff::side::Side;

/// Wins, draws and losses of the first player.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Results {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
}

impl Results {
    fn add(&mut self, score: Score) {
        match score {
            Score::Win => self.wins += 1,
            Score::Draw => self.draws += 1,
            Score::Loss => self.losses += 1,
        }
    }
}

/// The first player's results with White and with Black (in that order); game `i` is
/// `ends[i]`, a game not played is `None`.
pub(super) fn by_colour(ends: &[Option<GameEnd>]) -> [Results; 2] {
    let mut colours = [Results::default(); 2];
    for (i, end) in ends.iter().enumerate() {
        if let Some(end) = end {
            let white = seat_of(i, Side::White) == 0;
            colours[usize::from(!white)].add(end.score);
        }
    }
    colours
}

/// How the setups played with both colours came out.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pairs {
    /// White won both games.
    pub white_both: usize,
    /// Black won both games.
    pub black_both: usize,
    /// Of the others, the first player scored more than one point of the two.
    pub ahead: usize,
    /// Less than one point.
    pub behind: usize,
    /// Exactly one point (two draws).
    pub even: usize,
}

impl Pairs {
    /// The setups counted.
    pub fn total(&self) -> usize {
        self.white_both + self.black_both + self.ahead + self.behind + self.even
    }
}

/// The pairs of games `2k`, `2k + 1` (the same start, the colours swapped) that were both
/// played.
pub(super) fn pairs(ends: &[Option<GameEnd>]) -> Pairs {
    let mut pairs = Pairs::default();
    for pair in ends.chunks_exact(2) {
        let [Some(first), Some(second)] = pair else { continue };
        // In game 2k the first player has White, in game 2k + 1 Black.
        match (first.score, second.score) {
            (Score::Win, Score::Loss) => pairs.white_both += 1,
            (Score::Loss, Score::Win) => pairs.black_both += 1,
            (a, b) => match points(a) + points(b) {
                3.. => pairs.ahead += 1,
                2 => pairs.even += 1,
                _ => pairs.behind += 1,
            },
        }
    }
    pairs
}

/// Half points: a win 2, a draw 1, a loss 0.
fn points(score: Score) -> u32 {
    match score {
        Score::Win => 2,
        Score::Draw => 1,
        Score::Loss => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::{Pairs, Results, by_colour, pairs};
    use crate::commands::matches::{GameEnd, Score};

    /// The first player's games, as `W`, `D`, `L` or `-` (not played); spaces are ignored.
    fn ends(games: &str) -> Vec<Option<GameEnd>> {
        let end = |score| Some(GameEnd { score, reason: "goal".into(), turns: 1 });
        games
            .chars()
            .filter(|c| *c != ' ')
            .map(|c| match c {
                'W' => end(Score::Win),
                'D' => end(Score::Draw),
                'L' => end(Score::Loss),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn results_are_split_by_the_colour_the_first_player_had() {
        // Games 0, 2, 4 with White; 1, 3 with Black; game 5 not played.
        let [white, black] = by_colour(&ends("WL WD L-"));
        assert_eq!(white, Results { wins: 2, draws: 0, losses: 1 });
        assert_eq!(black, Results { wins: 0, draws: 1, losses: 1 });
    }

    #[test]
    fn a_setup_won_by_one_colour_twice_is_not_counted_for_either_player() {
        // White won both, Black won both, ahead twice, behind twice, even, ahead, one game of
        // a pair not played, and an odd game out.
        let p = pairs(&ends("WL LW WD DW DL LL DD WW W- W"));
        assert_eq!(p, Pairs { white_both: 1, black_both: 1, ahead: 3, behind: 2, even: 1 });
        assert_eq!(p.total(), 8);
    }
}
