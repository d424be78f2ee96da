//! Reading a text file that may come from anywhere: a regular file only, never more than a
//! limit (a `/dev/zero` or a huge file cannot exhaust memory), UTF-8 checked.

use std::io::Read;
use std::path::Path;

/// The text of the file at `path`, at most `limit` bytes; `noun` names such files in messages
/// ("definitions", "records").
///
/// # Errors
/// Why it cannot be read, in lowercase words.
pub fn read_limited(path: &Path, limit: u64, noun: &str) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| io_reason(&e))?;
    if meta.is_dir() {
        return Err("it is a directory".to_owned());
    }
    if !meta.is_file() {
        return Err("it is not a regular file".to_owned());
    }
    let too_big = |size: u64| format!("the file is {size} bytes; {noun} are at most {limit} bytes");
    if meta.len() > limit {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path).map_err(|e| io_reason(&e))?;
    // The file may have grown since it was measured.
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| io_reason(&e))?;
    if bytes.len() as u64 > limit {
        return Err(too_big(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "the file is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// An I/O error in lowercase words, without the OS error code.
#[must_use]
pub fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text).to_owned();
    let mut chars = text.chars();
    chars.next().map(|c| c.to_lowercase().collect::<String>() + chars.as_str()).unwrap_or(text)
}
