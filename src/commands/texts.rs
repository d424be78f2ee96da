//! Many short strings in one buffer, for the names of a position's turns (`turns`, `perft
//! --divide`): two million names as separate strings cost a heap block and 24 bytes each on top
//! of their text.

/// Strings held end to end in one buffer, each found by its number.
#[derive(Debug, Default)]
pub struct Texts {
    text: String,
    /// Where each string ends in `text`.
    ends: Vec<usize>,
}

impl Texts {
    /// Adds `s` after the others.
    pub fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.ends.push(self.text.len());
    }

    /// The number of strings.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// String `i` (in the order they were added).
    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    /// The strings' numbers in the bytewise order of the strings (equal strings in the order
    /// they were added).
    pub fn sorted(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by(|&a, &b| self.get(a).cmp(self.get(b)));
        order
    }
}

#[cfg(test)]
mod tests {
    use super::Texts;

    #[test]
    fn strings_come_back_whole_and_sort_bytewise() {
        let mut texts = Texts::default();
        for s in ["Nc3", "", "N>e4", "Nc3", "--", "é"] {
            texts.push(s);
        }
        assert_eq!(texts.len(), 6);
        let back: Vec<&str> = (0..texts.len()).map(|i| texts.get(i)).collect();
        assert_eq!(back, ["Nc3", "", "N>e4", "Nc3", "--", "é"]);
        assert_eq!(texts.sorted(), [1, 4, 2, 0, 3, 5]);
    }
}
