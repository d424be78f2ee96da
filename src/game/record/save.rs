//! Saving a record so that it is never lost or misplaced: only a regular file is ever replaced
//! (a symbolic link is followed to the regular file it names), the new text goes to a fresh
//! temporary file with an unpredictable name in the same folder, is flushed to disk and renamed
//! over the record. A crash leaves the old record whole; a temporary file left by a killed run
//! is removed by the next save into that folder.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::text::printable_path;
use crate::text_file::io_reason;

/// Why a record cannot be saved where it was asked to go.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The path names something that is not a regular file; replacing it would lose it.
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    /// The path is a symbolic link to something that is not a regular file.
    #[error("it is a symbolic link to {0}, not to a regular file")]
    LinkToNonRegular(&'static str),
    /// The path is a symbolic link to nothing.
    #[error("it is a symbolic link to a file that does not exist")]
    DanglingLink,
    /// The folder the file would go in does not exist.
    #[error("there is no folder {}", printable_path(.0))]
    NoFolder(PathBuf),
    /// The folder or the file system refused (no permission, no space, file too large ...).
    #[error("{}", io_reason(.0))]
    Io(#[from] std::io::Error),
}

/// Where a record will be written, found from the path asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The regular file to replace or create (a symbolic link resolved).
    pub path: PathBuf,
    /// Whether it exists already.
    pub exists: bool,
    /// Its permission bits, kept by the new file.
    mode: Option<u32>,
}

/// The file that saving to `path` would write: `path` itself when it is a regular file or does
/// not exist, the regular file it leads to when it is a symbolic link.
///
/// # Errors
/// A directory, a device, a pipe or a socket; a link to one of them or to nothing; a new file
/// in a folder that does not exist.
pub fn target(path: &Path) -> Result<Target, SaveError> {
    if path.as_os_str().is_empty() {
        return Err(SaveError::NotRegular("an empty path"));
    }
    let meta = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let folder = folder_of(path);
            if !folder.is_dir() {
                return Err(SaveError::NoFolder(folder.to_path_buf()));
            }
            return Ok(Target { path: path.to_path_buf(), exists: false, mode: None });
        }
        Err(e) => return Err(e.into()),
        Ok(meta) => meta,
    };
    if !meta.file_type().is_symlink() {
        let what = kind(&meta).map_err(SaveError::NotRegular)?;
        return Ok(Target { path: path.to_path_buf(), exists: true, mode: what });
    }
    let resolved = std::fs::canonicalize(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => SaveError::DanglingLink,
        _ => SaveError::Io(e),
    })?;
    let meta = std::fs::metadata(&resolved)?;
    let mode = kind(&meta).map_err(SaveError::LinkToNonRegular)?;
    Ok(Target { path: resolved, exists: true, mode })
}

/// The permission bits of a regular file, or what the thing is instead.
fn kind(meta: &std::fs::Metadata) -> Result<Option<u32>, &'static str> {
    if meta.is_dir() {
        return Err("a directory");
    }
    if !meta.is_file() {
        return Err(special_kind(meta.file_type()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Ok(Some(meta.permissions().mode() & 0o7777))
    }
    #[cfg(not(unix))]
    Ok(None)
}

/// What a file that is neither a regular file nor a directory is, in words.
fn special_kind(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_fifo() {
            return "a named pipe";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    let _ = file_type;
    "a special file"
}

/// Writes `text` to `path` so that the file holds either its old or its new contents, never a
/// mixture, and so that nothing but a regular file is replaced.
///
/// # Errors
/// A path that is not a regular file (see [`target`]), or any I/O error; the old file is then
/// untouched and no temporary file is left.
pub fn save_atomically(path: &Path, text: &str) -> Result<(), SaveError> {
    let target = target(path)?;
    let folder = folder_of(&target.path);
    remove_strays_once(folder);
    let mut temporary = temporary_file(&target, folder)?;
    without_size_signal(|| {
        temporary.write_all(text.as_bytes())?;
        temporary.as_file().sync_all()
    })?;
    temporary.persist(&target.path).map_err(|e| SaveError::Io(e.error))?;
    // The rename itself is made durable by syncing the folder (where the OS allows it).
    if let Ok(dir) = std::fs::File::open(folder) {
        dir.sync_all().ok();
    }
    Ok(())
}

/// Runs `write` with the file-size signal held back in this thread: past a file-size limit
/// (`ulimit -f`) the write then fails with "file too large", reported like a full disk, instead
/// of SIGXFSZ killing kickoff in the middle of a game. A signal raised meanwhile is taken and
/// dropped. Other threads, and writes elsewhere (the output), keep the usual behaviour.
fn without_size_signal<T>(write: impl FnOnce() -> T) -> T {
    #[cfg(unix)]
    // SAFETY: the signal sets are initialised by sigemptyset before use; pthread_sigmask,
    // sigpending and sigwait only read and write them and this thread's signal mask.
    unsafe {
        let mut held: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut held);
        libc::sigaddset(&mut held, libc::SIGXFSZ);
        let mut before: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &held, &mut before);
        let result = write();
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pending);
        let was_held = libc::sigismember(&before, libc::SIGXFSZ) == 1;
        if !was_held
            && libc::sigpending(&mut pending) == 0
            && libc::sigismember(&pending, libc::SIGXFSZ) == 1
        {
            let mut taken = 0;
            libc::sigwait(&held, &mut taken);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
        result
    }
    #[cfg(not(unix))]
    write()
}

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// The random part of a temporary file's name.
const RANDOM_LEN: usize = 8;

/// A new file `.NAME.kickoff-PID-RANDOM.tmp` next to the target, created exclusively (a file
/// or a link planted under that name makes creation fail instead of being written through),
/// with the target's permissions (a new record gets the usual ones, umask applied).
fn temporary_file(target: &Target, folder: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let name = target.path.file_name().map_or_else(|| "record".into(), |n| n.to_string_lossy());
    // Room for the rest of the name within the usual 255-byte limit.
    let name: String = name
        .chars()
        .scan(0, |len, c| {
            *len += c.len_utf8();
            (*len <= 200).then_some(c)
        })
        .collect();
    let prefix = format!(".{name}.kickoff-{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp").rand_bytes(RANDOM_LEN);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let file = builder.tempfile_in(folder)?;
    #[cfg(unix)]
    if let Some(mode) = target.mode {
        use std::os::unix::fs::PermissionsExt;
        file.as_file().set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    Ok(file)
}

/// Removes, once per folder and process, the temporary files that killed runs left there.
fn remove_strays_once(folder: &Path) {
    // Listing a folder at every save would make a match of many games into one folder slow.
    static DONE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let Ok(mut done) = DONE.lock() else { return };
    if done.iter().any(|f| f == folder) {
        return;
    }
    done.push(folder.to_path_buf());
    drop(done);
    remove_strays(folder);
}

/// Removes the temporary files of kickoff runs that are no longer running from `folder`; returns
/// how many. Only regular files named as a save names them (`.NAME.kickoff-PID-RANDOM.tmp`),
/// owned by this user, of a process that has ended, are touched: a save in progress elsewhere
/// keeps its file.
pub fn remove_strays(folder: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(folder) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(stray_pid) else { continue };
        if running(pid) {
            continue;
        }
        let Ok(meta) = entry.path().symlink_metadata() else { continue };
        if meta.is_file() && owned(&meta) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The process id in a temporary file's name `.NAME.kickoff-PID-RANDOM.tmp`.
fn stray_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, tail) = rest.rsplit_once(".kickoff-")?;
    let (pid, random) = tail.split_once('-')?;
    let random_ok = random.len() == RANDOM_LEN && random.chars().all(|c| c.is_ascii_alphanumeric());
    random_ok.then(|| pid.parse().ok()).flatten()
}

/// Whether process `pid` exists (when it cannot be told, it is assumed to).
fn running(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else { return true };
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let found = unsafe { libc::kill(pid, 0) } == 0;
        found || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Whether the file belongs to the user running kickoff.
fn owned(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        meta.uid() == unsafe { libc::geteuid() }
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch folder, removed afterwards.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Self {
            let dir =
                std::env::temp_dir().join(format!("kickoff-save-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn names(&self) -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(&self.0)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            std::fs::remove_dir_all(&self.0).ok();
        }
    }

    #[test]
    fn saving_replaces_the_whole_file() {
        let dir = Scratch::new("replace");
        let path = dir.0.join("game.txt");
        save_atomically(&path, "first").unwrap();
        save_atomically(&path, "second").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(dir.names(), ["game.txt"], "no temporary file is left");
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_replaced() {
        let dir = Scratch::new("special");
        let fifo = dir.0.join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let e = save_atomically(&fifo, "x").unwrap_err();
        assert_eq!(e.to_string(), "it is a named pipe, not a regular file");
        assert_eq!(
            save_atomically(&dir.0, "x").unwrap_err().to_string(),
            "it is a directory, not a regular file"
        );
        let link = dir.0.join("to-dir");
        std::os::unix::fs::symlink(&dir.0, &link).unwrap();
        assert!(matches!(save_atomically(&link, "x"), Err(SaveError::LinkToNonRegular(_))));
        let dangling = dir.0.join("dangling");
        std::os::unix::fs::symlink(dir.0.join("nothing"), &dangling).unwrap();
        assert!(matches!(save_atomically(&dangling, "x"), Err(SaveError::DanglingLink)));
        let nowhere = dir.0.join("no-such-folder/game.txt");
        assert!(matches!(save_atomically(&nowhere, "x"), Err(SaveError::NoFolder(_))));
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(dir.names(), ["dangling", "fifo", "to-dir"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_written_through_and_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = Scratch::new("link");
        let notes = dir.0.join("notes.txt");
        std::fs::write(&notes, "notes").unwrap();
        std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.0.join("link.txt");
        std::os::unix::fs::symlink("notes.txt", &link).unwrap();
        save_atomically(&link, "record").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "record");
        let mode = std::fs::metadata(&notes).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "the record keeps its permissions");
    }

    #[test]
    fn temporary_names_carry_the_process() {
        assert_eq!(stray_pid(".game.txt.kickoff-123-AbCd1234.tmp"), Some(123));
        assert_eq!(stray_pid(".a.kickoff-b.kickoff-77-00000000.tmp"), Some(77));
        assert_eq!(stray_pid(".game.txt.123.tmp"), None);
        assert_eq!(stray_pid(".game.txt.kickoff-123-short.tmp"), None);
        assert_eq!(stray_pid("game.txt.kickoff-123-AbCd1234.tmp"), None);
    }

    #[cfg(unix)]
    #[test]
    fn strays_of_ended_runs_are_removed() {
        let dir = Scratch::new("strays");
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let ended = child.id();
        child.wait().unwrap();
        let mine = std::process::id();
        for name in [
            format!(".game.txt.kickoff-{ended}-AbCd1234.tmp"),
            format!(".game.txt.kickoff-{mine}-AbCd1234.tmp"),
            "notes.tmp".to_owned(),
        ] {
            std::fs::write(dir.0.join(name), "").unwrap();
        }
        assert_eq!(remove_strays(&dir.0), 1);
        assert_eq!(
            dir.names(),
            [format!(".game.txt.kickoff-{mine}-AbCd1234.tmp"), "notes.tmp".to_owned()]
        );
    }
}
