//! Work split into shards (`--shard I/N --out FILE`) for `analyze` and `match`, and read back
//! by `kickoff merge`.
//!
//! A run's jobs (a start to solve, a game to play) are numbered in an order that depends on
//! its inputs alone; shard `I` of `N` takes the jobs whose number is `I - 1` modulo `N`. Its
//! file holds JSON lines: first a header (what makes the run what it is: the command, the
//! definition's hash, the options, the shard), then one line per finished job, keyed by the
//! job, written as the job ends. A run given a file that holds some of its jobs already (an
//! interrupted run) does only the others; a last line cut short by the interruption is
//! dropped.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use kickoff::text::printable_path;

/// What a shard file's first line says of itself.
const FORMAT: &str = "kickoff shard 1";

/// Shard `index + 1` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// From 0.
    pub index: usize,
    /// How many shards the work is split into.
    pub count: usize,
}

impl Shard {
    /// The whole work, in one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether job `job` is this shard's.
    #[must_use]
    pub fn takes(self, job: usize) -> bool {
        job % self.count == self.index
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard: I/N, with 1 <= I <= N <= 100000 (e.g. 3/8)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if i == 0 || i > n || n > 100_000 {
            return Err(bad());
        }
        Ok(Shard { index: i - 1, count: n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// What makes a run what it is: its shards' files agree on everything here but the shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// [`FORMAT`].
    pub format: String,
    /// The kickoff that ran it (another version may play other games).
    pub kickoff: String,
    /// `analyze` or `match`.
    pub command: String,
    /// The variant as it was named (a shipped name or a path).
    pub variant: String,
    /// The hash of the definition's text.
    pub hash: String,
    /// The command's options that change its results.
    pub options: Value,
    /// Which part of the work the file holds.
    pub shard: Shard,
}

impl Header {
    /// The header of a run of `command` on `variant` (whose definition hashes to `hash`).
    pub fn new(command: &str, variant: &str, hash: String, options: Value, shard: Shard) -> Header {
        Header {
            format: FORMAT.to_owned(),
            kickoff: env!("CARGO_PKG_VERSION").to_owned(),
            command: command.to_owned(),
            variant: variant.to_owned(),
            hash,
            options,
            shard,
        }
    }

    /// What two shards of one run must agree on: everything but the shard's index.
    fn run(&self) -> Header {
        Header { shard: Shard { index: 0, ..self.shard }, ..self.clone() }
    }
}

/// A finished job's line.
#[derive(Serialize, Deserialize)]
struct Line {
    job: String,
    result: Value,
}

/// The file a shard writes its jobs to, as they end.
pub struct JobFile {
    path: PathBuf,
    file: Mutex<File>,
}

impl JobFile {
    /// Opens `path` for the run `header`: a new (or empty) file gets the header; a file that
    /// has one must be of the same run and shard, and the jobs it holds are returned (a last
    /// line cut short by an interruption is dropped from the file).
    ///
    /// # Errors
    /// The file cannot be read or written, it is not a shard file, or it is another run's.
    pub fn open(
        path: &Path,
        header: &Header,
    ) -> Result<(JobFile, BTreeMap<String, Value>), String> {
        let shown = printable_path(path);
        let fail = |e: std::io::Error| format!("cannot write {shown}: {e}");
        let mut file =
            OpenOptions::new().read(true).append(true).create(true).open(path).map_err(fail)?;
        let (found, jobs, whole) = read(&mut BufReader::new(&file), &shown)?;
        // Whatever followed the last complete line was cut short: it is dropped.
        file.set_len(whole).map_err(fail)?;
        file.seek(std::io::SeekFrom::End(0)).map_err(fail)?;
        match found {
            Some(found) if &found != header => {
                return Err(format!(
                    "{shown} holds another run ({}, shard {} of {}): give another file, or \
                     delete it to start afresh",
                    describe(&found),
                    found.shard,
                    describe(header)
                ));
            }
            Some(_) => {}
            None => {
                let mut line = serde_json::to_string(header).map_err(|e| e.to_string())?;
                line.push('\n');
                file.write_all(line.as_bytes()).map_err(fail)?;
            }
        }
        Ok((JobFile { path: path.to_owned(), file: Mutex::new(file) }, jobs))
    }

    /// Writes job `job`'s result as one line, at once.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn write(&self, job: &str, result: &impl Serialize) -> Result<(), String> {
        let line = Line {
            job: job.to_owned(),
            result: serde_json::to_value(result).map_err(|e| e.to_string())?,
        };
        let mut text = serde_json::to_string(&line).map_err(|e| e.to_string())?;
        text.push('\n');
        let mut file = self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", printable_path(&self.path)))
    }
}

/// How a header names its run in a message.
fn describe(header: &Header) -> String {
    format!(
        "{} of {} with {} (kickoff {})",
        header.command, header.variant, header.options, header.kickoff
    )
}

/// Finished jobs by key.
pub type Jobs = BTreeMap<String, Value>;

/// The header (none in an empty file), the jobs, and the length of the file's complete lines.
fn read(reader: &mut impl BufRead, shown: &str) -> Result<(Option<Header>, Jobs, u64), String> {
    let mut header = None;
    let mut jobs = BTreeMap::new();
    let mut whole = 0;
    let mut buffer = Vec::new();
    for number in 1.. {
        buffer.clear();
        let n = reader
            .read_until(b'\n', &mut buffer)
            .map_err(|e| format!("cannot read {shown}: {e}"))?;
        if n == 0 || buffer.last() != Some(&b'\n') {
            break;
        }
        let bad = |why: String| format!("{shown}:{number}: {why}");
        let text = std::str::from_utf8(&buffer).map_err(|e| bad(e.to_string()))?;
        if header.is_none() {
            let found: Header = serde_json::from_str(text)
                .ok()
                .filter(|h: &Header| h.format == FORMAT)
                .ok_or_else(|| {
                    bad("not a shard file of `kickoff analyze` or `match` (no header)".into())
                })?;
            header = Some(found);
        } else {
            let line: Line = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
            jobs.insert(line.job, line.result);
        }
        whole += n as u64;
    }
    Ok((header, jobs, whole))
}

/// The run that shard files `paths` hold together, and all their jobs.
///
/// # Errors
/// A file unreadable or not a shard file, files of different runs, or one job with two
/// different results.
pub fn read_all(paths: &[PathBuf]) -> Result<(Header, Jobs), String> {
    let mut run: Option<(Header, String)> = None;
    let mut jobs: BTreeMap<String, (Value, String)> = BTreeMap::new();
    for path in paths {
        let shown = printable_path(path);
        let file = File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
        let (header, found, _) = read(&mut BufReader::new(file), &shown)?;
        let header = header.ok_or_else(|| format!("{shown} is empty"))?;
        match &run {
            None => run = Some((header.run(), shown.clone())),
            Some((first, at)) if *first != header.run() => {
                return Err(format!(
                    "{shown} is not of the same run as {at}: {} there, {} here",
                    describe(first),
                    describe(&header)
                ));
            }
            Some(_) => {}
        }
        for (job, result) in found {
            match jobs.get(&job) {
                Some((other, at)) if *other != result => {
                    return Err(format!("job {job} has one result in {at} and another in {shown}"));
                }
                Some(_) => {}
                None => {
                    jobs.insert(job, (result, shown.clone()));
                }
            }
        }
    }
    let (header, _) = run.ok_or("no shard files given")?;
    Ok((header, jobs.into_iter().map(|(job, (result, _))| (job, result)).collect()))
}

/// Job `key`'s result among `found`, read as a `T`.
///
/// # Errors
/// The job is not there, or its result is not a `T` (with serde's why).
pub fn result<T: serde::de::DeserializeOwned>(found: &Jobs, key: &str) -> Result<T, String> {
    let value = found.get(key).ok_or_else(|| format!("no job {key}"))?;
    T::deserialize(value).map_err(|e| format!("job {key}: {e}"))
}

/// The jobs of `all` (in job order, by their keys; `noun` names them) that are not `done`
/// (asked by index), as an error that names them and their shards; none when every job is done.
pub fn missing(
    all: &[String],
    done: impl Fn(usize) -> bool,
    count: usize,
    noun: &str,
) -> Option<String> {
    let lacking: Vec<usize> = (0..all.len()).filter(|&i| !done(i)).collect();
    let first = *lacking.first()?;
    let mut shards: Vec<usize> = lacking.iter().map(|i| i % count + 1).collect();
    shards.sort_unstable();
    shards.dedup();
    let shown: Vec<String> = shards.iter().take(20).map(|s| format!("{s}/{count}")).collect();
    Some(format!(
        "{} of the run's {} {noun} are missing (the first: {}), from shard{} {}{}: run {} again \
         with the same --out file, then merge",
        lacking.len(),
        all.len(),
        all[first],
        if shards.len() == 1 { "" } else { "s" },
        shown.join(", "),
        if shards.len() > 20 { ", ..." } else { "" },
        if shards.len() == 1 { "it" } else { "them" },
    ))
}

#[cfg(test)]
mod tests {
    use super::{Header, JobFile, Shard, missing, read_all};
    use std::collections::BTreeMap;

    #[test]
    fn shards_are_read_and_take_their_jobs() {
        let s: Shard = "3/8".parse().unwrap();
        assert_eq!(s, Shard { index: 2, count: 8 });
        assert_eq!(s.to_string(), "3/8");
        assert!(s.takes(2) && s.takes(10) && !s.takes(3));
        for bad in ["0/8", "9/8", "3", "a/b", "1/0", "1/100001"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_file_is_resumed_its_cut_line_dropped_and_another_run_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("jobs.jsonl");
        let header =
            |seed: u64, shard| Header::new("analyze", "mini", "h".into(), seed.into(), shard);
        let one = header(1, Shard::WHOLE);
        let (file, jobs) = JobFile::open(&path, &one).unwrap();
        assert!(jobs.is_empty());
        file.write("game/0", &5).unwrap();
        drop(file);
        // An interruption in the middle of a line.
        std::fs::write(&path, std::fs::read_to_string(&path).unwrap() + "{\"job\":\"game/1\",")
            .unwrap();
        let (file, jobs) = JobFile::open(&path, &one).unwrap();
        assert_eq!(jobs, BTreeMap::from([("game/0".to_owned(), 5.into())]));
        file.write("game/1", &6).unwrap();
        drop(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(text.ends_with("{\"job\":\"game/1\",\"result\":6}\n"), "{text}");
        let other = JobFile::open(&path, &header(2, Shard::WHOLE)).err().unwrap();
        assert!(other.contains("holds another run"), "{other}");
        let shard = JobFile::open(&path, &header(1, Shard { index: 0, count: 2 })).err().unwrap();
        assert!(shard.contains("shard 1/1"), "{shard}");
        std::fs::write(dir.path().join("not.jsonl"), "{}\n").unwrap();
        let not = JobFile::open(&dir.path().join("not.jsonl"), &one).err().unwrap();
        assert!(not.contains("not.jsonl:1: not a shard file"), "{not}");
    }

    #[test]
    fn merged_files_must_be_one_run_and_agree() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, seed: u64, index, jobs: &[(&str, i32)]| {
            let path = dir.path().join(name);
            let header =
                Header::new("match", "mini", "h".into(), seed.into(), Shard { index, count: 2 });
            let (file, _) = JobFile::open(&path, &header).unwrap();
            for (job, v) in jobs {
                file.write(job, v).unwrap();
            }
            path
        };
        let a = write("a", 1, 0, &[("game/0", 1), ("game/1", 2)]);
        let b = write("b", 1, 1, &[("game/2", 3), ("game/1", 2)]);
        let (header, jobs) = read_all(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(header.command, "match");
        assert_eq!(jobs.len(), 3);
        let all: Vec<String> = (0..5).map(|i| format!("game/{i}")).collect();
        let lacking = missing(&all, |i| jobs.contains_key(&all[i]), 2, "jobs").unwrap();
        assert!(
            lacking.starts_with(
                "2 of the run's 5 jobs are missing (the first: game/3), from shards 1/2, 2/2"
            ),
            "{lacking}"
        );
        assert_eq!(missing(&all[..3], |i| jobs.contains_key(&all[i]), 2, "jobs"), None);
        let c = write("c", 2, 1, &[]);
        assert!(read_all(&[a.clone(), c]).err().unwrap().contains("not of the same run"));
        let d = write("d", 1, 1, &[("game/1", 7)]);
        assert!(read_all(&[a, d]).err().unwrap().contains("job game/1 has one result"));
    }
}
