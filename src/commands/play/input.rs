//! `play`'s input, read line by line with a bound: `< /dev/zero` or a line of 300 MB must not
//! fill memory, and bytes that are not UTF-8 must not end the game as if the input had ended.

use std::io::BufRead;

/// The longest line read; a turn is at most 500 bytes, a command (`save FILE`) a little more.
pub const MAX_LINE: usize = 4096;

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Why a line of input cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A line longer than [`MAX_LINE`]: its rest is not read.
    #[error(
        "input line {line} is longer than {MAX_LINE} bytes (a turn is at most 500); the input is not read further"
    )]
    TooLong {
        /// The line's number, from 1.
        line: usize,
    },
    /// A line that is not UTF-8 text (it was read whole and is skipped).
    #[error("input line {line} is not UTF-8 text (invalid byte at offset {offset})")]
    NotUtf8 {
        /// The line's number, from 1.
        line: usize,
        /// The first invalid byte, from the start of the line.
        offset: usize,
    },
    /// Reading failed.
    #[error("cannot read the input: {}", kickoff::text_file::io_reason(.0))]
    Io(#[from] std::io::Error),
}

/// Lines of text read from `reader`, each at most [`MAX_LINE`] bytes.
pub struct Input<R> {
    reader: R,
    /// Lines read so far.
    line: usize,
}

impl<R: BufRead> Input<R> {
    /// Reads lines from `reader`.
    pub fn new(reader: R) -> Self {
        Input { reader, line: 0 }
    }

    /// The next line without its line break, or `None` at the end of the input.
    ///
    /// # Errors
    /// A line too long (the input should not be read further) or not UTF-8 (the next line
    /// can be read), or an I/O error.
    pub fn next_line(&mut self) -> Result<Option<String>, InputError> {
        let mut bytes = Vec::new();
        loop {
            let buffer = match self.reader.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            if buffer.is_empty() {
                if bytes.is_empty() {
                    return Ok(None);
                }
                break;
            }
            let (taken, done) = match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => (at, true),
                None => (buffer.len(), false),
            };
            if bytes.len() + taken > MAX_LINE {
                return Err(InputError::TooLong { line: self.line + 1 });
            }
            bytes.extend_from_slice(&buffer[..taken]);
            self.reader.consume(taken + usize::from(done));
            if done {
                break;
            }
        }
        self.line += 1;
        // A script saved by an editor that marks UTF-8 with a byte-order mark reads as without.
        if self.line == 1 && bytes.starts_with(BOM) {
            bytes.drain(..BOM.len());
        }
        String::from_utf8(bytes).map(Some).map_err(|e| InputError::NotUtf8 {
            line: self.line,
            offset: e.utf8_error().valid_up_to(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Result<Option<String>, String>> {
        let mut input = Input::new(std::io::BufReader::with_capacity(16, bytes));
        let mut out = Vec::new();
        loop {
            let next = input.next_line().map_err(|e| e.to_string());
            let stop = matches!(next, Ok(None) | Err(_))
                && !matches!(&next, Err(e) if e.contains("UTF-8"));
            out.push(next);
            if stop {
                return out;
            }
        }
    }

    #[test]
    fn lines_with_and_without_a_last_break() {
        assert_eq!(
            lines(b"Nc3\r\n\nNc7"),
            [Ok(Some("Nc3\r".into())), Ok(Some(String::new())), Ok(Some("Nc7".into())), Ok(None)]
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(lines(b"\xEF\xBB\xBFNc3\n")[0], Ok(Some("Nc3".into())));
    }

    #[test]
    fn a_line_that_never_ends_is_refused_early() {
        let zeros = vec![0u8; 1 << 20];
        let got = lines(&zeros);
        assert_eq!(got.len(), 1);
        assert!(
            got[0].as_ref().unwrap_err().contains("input line 1 is longer than 4096"),
            "{got:?}"
        );
        let mut exactly = vec![b'N'; MAX_LINE];
        exactly.push(b'\n');
        assert_eq!(lines(&exactly)[0].as_ref().unwrap().as_ref().map(String::len), Some(MAX_LINE));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_skipped_with_an_error() {
        let got = lines(b"Bb2\nNd2 \xe9\nBd8\n");
        assert_eq!(got[0], Ok(Some("Bb2".into())));
        assert_eq!(got[1], Err("input line 2 is not UTF-8 text (invalid byte at offset 4)".into()));
        assert_eq!(got[2], Ok(Some("Bd8".into())));
        assert_eq!(got[3], Ok(None));
    }
}
