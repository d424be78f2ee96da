//! Text helpers every layer uses: text that came from a file or from the input made safe to
//! print, and lists in words.
//!
//! Definitions and records travel between strangers, and a name holding `ESC [ 2 J` or an OSC
//! sequence would otherwise act on the reader's terminal. Every printer of such text passes it
//! through [`printable`] (or [`excerpt`] for something typed, which may be long).

use std::borrow::Cow;

/// The most characters of a typed token echoed back in a message.
pub const MAX_SHOWN: usize = 60;

/// `text` with every character that could drive a terminal replaced by a visible stand-in:
/// C0 controls as their Unicode control pictures (ESC as `␛`, the same signs diagnostics use),
/// DEL as `␡`, C1 controls and the bidirectional overrides as `�`. Newlines and tabs are kept.
#[must_use]
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| if is_unsafe(c) { stand_in(c) } else { c }).collect())
}

/// The most characters of a position text (a FEN) from a file echoed back in a message: the
/// longest a position may be.
pub const MAX_FEN_SHOWN: usize = 1000;

/// `text` as [`printable`], on one line (newlines and tabs replaced too) and cut to
/// [`MAX_SHOWN`] characters with `…`: how a typed turn or a record's token is echoed.
#[must_use]
pub fn excerpt(text: &str) -> Cow<'_, str> {
    excerpt_within(text, MAX_SHOWN)
}

/// [`excerpt`] cut to `max` characters (at least 1) rather than [`MAX_SHOWN`]: for a message or
/// a position from a file, longer than a token but no less hostile.
#[must_use]
pub fn excerpt_within(text: &str, max: usize) -> Cow<'_, str> {
    let max = max.max(1);
    let long = text.chars().nth(max).is_some();
    if !long && !text.chars().any(|c| c.is_control() || is_unsafe(c)) {
        return Cow::Borrowed(text);
    }
    let kept = if long { max - 1 } else { max };
    let mut out: String =
        text.chars().take(kept).map(|c| if c.is_control() { stand_in(c) } else { c }).collect();
    out = printable(&out).into_owned();
    if long {
        out.push('…');
    }
    Cow::Owned(out)
}

/// A path as messages show it: [`printable`], since a file's name is text like any other
/// (a folder of records may hold a name made to drive the terminal).
#[must_use]
pub fn printable_path(path: impl AsRef<std::path::Path>) -> String {
    printable(&path.as_ref().display().to_string()).into_owned()
}

/// A rendered diagnostic with the C1 control characters (`U+009B` acts as ESC `[` on some
/// terminals) replaced by `�`: the renderer already shows the source's other control characters
/// as visible signs, and the escape sequences it adds itself for colour must stay.
#[must_use]
pub fn without_c1(text: String) -> String {
    let is_c1 = |c: char| ('\u{80}'..='\u{9F}').contains(&c);
    if !text.chars().any(is_c1) {
        return text;
    }
    text.chars().map(|c| if is_c1(c) { '\u{FFFD}' } else { c }).collect()
}

/// "a", "a and b", "a, b and c" (or with `or`).
#[must_use]
pub fn join(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., tail] => format!("{} {last} {tail}", init.join(", ")),
    }
}

/// "a", "a or b", "a, b or c".
pub(crate) fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `bytes` in lowercase hexadecimal, two digits a byte.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(2 * bytes.len()), |mut out, byte| {
        let _ = write!(out, "{byte:02x}");
        out
    })
}

/// Text made safe inside an attribute or element of SVG or HTML.
pub(crate) fn escape_markup(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Whether `c` can change what a terminal does or shows elsewhere than where it stands.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The visible sign printed instead of `c`.
fn stand_in(c: char) -> char {
    match c {
        '\0'..='\u{1F}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{FFFD}'),
        '\u{7F}' => '\u{2421}',
        _ => '\u{FFFD}',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_become_visible() {
        assert_eq!(printable("\u{1b}[31mred\u{1b}[0m \u{7}"), "␛[31mred␛[0m ␇");
        assert_eq!(printable("\u{1b}]52;c;aGk=\u{7}"), "␛]52;c;aGk=␇");
        assert_eq!(printable("a\u{9b}2J\u{7f}"), "a\u{FFFD}2J␡");
        assert_eq!(printable("abc\u{202E}def"), "abc\u{FFFD}def");
        assert_eq!(printable("two\nlines\tand é"), "two\nlines\tand é");
        assert!(matches!(printable("Football Chess"), Cow::Borrowed(_)));
        assert_eq!(
            without_c1("\u{1b}[1merror\u{1b}[0m \u{9b}2J".to_owned()),
            "\u{1b}[1merror\u{1b}[0m \u{FFFD}2J"
        );
    }

    #[test]
    fn excerpts_are_short_and_on_one_line() {
        assert_eq!(excerpt("Nc3"), "Nc3");
        let long = "N".repeat(10_000);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), MAX_SHOWN);
        assert!(cut.ends_with("N…"), "{cut}");
        assert_eq!(excerpt("a\nb\r"), "a␊b␍");
        assert_eq!(excerpt(&"é".repeat(100)).chars().count(), MAX_SHOWN);
    }
}
