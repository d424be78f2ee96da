//! Zobrist keys: fixed pseudo-random numbers, one per (square, contents), XORed into a hash.

use crate::square::SQUARES;

/// Contents codes go up to 2 + 2 * 25 piece types; 64 leaves room.
const CODES: usize = 64;

/// The next state and output of the SplitMix64 generator (fixed, so hashes are reproducible).
pub(crate) const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build() -> [[u64; CODES]; SQUARES] {
    let mut keys = [[0u64; CODES]; SQUARES];
    let mut state = 0x6B69_636B_6F66_6621; // "kickoff!"
    let mut s = 0;
    while s < SQUARES {
        let mut c = 0;
        while c < CODES {
            let (next, out) = splitmix(state);
            state = next;
            keys[s][c] = out;
            c += 1;
        }
        s += 1;
    }
    keys
}

/// The key of each (square index, contents code); code 0 (empty) is never used.
pub(crate) static SQUARE_KEYS: [[u64; CODES]; SQUARES] = build();

/// XORed in when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = splitmix(0x5349_4445).1;

/// XORed in while no goal may be scored yet (`turn.no_goal_before`).
pub(crate) const NO_GOAL_YET: u64 = splitmix(0x4E4F_474F_414C).1;

/// Keys of the goals scored: `SCORE_KEYS[side][goals % 64]`.
pub(crate) static SCORE_KEYS: [[u64; 64]; 2] = {
    let mut keys = [[0u64; 64]; 2];
    let mut state = 0x5343_4F52_4553_2121; // "SCORES!!"
    let mut i = 0;
    while i < 128 {
        let (next, out) = splitmix(state);
        state = next;
        keys[i / 64][i % 64] = out;
        i += 1;
    }
    keys
};

/// Keys of the per-square state: `[0]` the en-passant square, `[1]` and `[2]` the stealer's and
/// the robbed piece's squares of an in-place steal, `[3]` the square of a held ball.
pub(crate) static EXTRA_KEYS: [[u64; SQUARES]; 4] = {
    let mut keys = [[0u64; SQUARES]; 4];
    let mut state = 0x4558_5452_4121_2121; // "EXTRA!!!"
    let mut i = 0;
    while i < 4 * SQUARES {
        let (next, out) = splitmix(state);
        state = next;
        keys[i / SQUARES][i % SQUARES] = out;
        i += 1;
    }
    keys
};

/// A hasher for keys that are Zobrist hashes already: they are used as they are (with any small
/// numbers that follow them in a key spread over the bits).
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }

    // Small numbers that follow a hash in a key (a depth, a turn count) are spread first, and
    // the state is turned before each is added, so that where a number stands in the key
    // matters: (h, 2, 1) and (h, 1, 2) hash apart.
    fn write_u32(&mut self, n: u32) {
        self.0 =
            self.0.rotate_left(29).wrapping_add(u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
}

/// A map keyed by position hashes.
pub type HashKeyMap<V> =
    std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;

#[cfg(test)]
mod tests {
    use super::KeyHasher;
    use std::hash::{BuildHasher, BuildHasherDefault};

    #[test]
    fn numbers_after_a_hash_hash_by_place() {
        let hasher = BuildHasherDefault::<KeyHasher>::default();
        let h = 0x0123_4567_89ab_cdef_u64;
        assert_ne!(hasher.hash_one((h, 3u32, 5u32)), hasher.hash_one((h, 4u32, 4u32)));
        assert_ne!(hasher.hash_one((h, 3u32, 5u32)), hasher.hash_one((h, 5u32, 3u32)));
    }
}
