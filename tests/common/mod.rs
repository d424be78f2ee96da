//! Helpers shared by the test binaries that drive `kickoff` through its standard input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `cmd` with `input` on its standard input.
pub fn run(cmd: &mut Command, input: &str) -> Output {
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let written = child.stdin.take().unwrap().write_all(input.as_bytes());
    // kickoff may stop before reading its input (a record file refused): the pipe is then broken.
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}
