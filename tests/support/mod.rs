//! What the root package's tests share: running the `heterodox` binary as
//! a user does, reading its output, and fresh scratch directories.
//! (`mod support;` in integration/main.rs; not every module uses every helper.)
#![allow(dead_code)]

pub mod server;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// `heterodox ARGS`, run to its end.
pub fn heterodox(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heterodox"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The fixture catalogue of shipped agents (tests/fixtures/zoo/: small
/// engine nets of seeded random weights), which tests that need a net play
/// through `$HETERODOX_ZOO`, so their exact results do not move when
/// agents/ ships another net.
pub fn fixture_zoo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/zoo")
}

/// `heterodox ARGS` with `$HETERODOX_ZOO` at the fixture catalogue, run to
/// its end.
pub fn heterodox_with_fixture_nets(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heterodox"))
        .args(args)
        .env("HETERODOX_ZOO", fixture_zoo())
        .output()
        .expect("the binary runs")
}

/// The words of an engine's info line but nps and time, which vary run to
/// run.
pub fn without_timing(line: &str) -> String {
    let mut words = line.split(' ');
    let mut kept = Vec::new();
    while let Some(word) = words.next() {
        if word == "nps" || word == "time" {
            words.next();
        } else {
            kept.push(word);
        }
    }
    kept.join(" ")
}

/// `heterodox ARGS` with `input` typed at its prompts.
pub fn heterodox_with_input(args: &[&str], input: &str) -> Output {
    heterodox_fed(args, input.as_bytes(), None)
}

/// `heterodox ARGS` fed `input` as bytes (which need not be UTF-8), run
/// in `dir` when given. The input is written from its own thread, so that
/// neither side waits on a full pipe whatever the amount of output.
pub fn heterodox_fed(args: &[&str], input: &[u8], dir: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_heterodox"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command.spawn().expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("the binary ends");
    // A binary that quits before reading all its input closes the pipe.
    let _ = writer.join().expect("the writer thread ends");
    output
}

/// `heterodox ARGS`, run to its end, which must be a success (its stderr
/// in the failure message).
pub fn heterodox_ok(args: &[&str]) -> Output {
    let output = heterodox(args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    output
}

/// `heterodox ARGS --quiet --out OUT`, the way the commands that write a
/// report directory (arena, claim) are run here: it must succeed; its
/// stdout.
pub fn heterodox_quiet_into(out: &Path, args: &[&str]) -> String {
    let out = out.to_str().expect("a UTF-8 path");
    let mut all = args.to_vec();
    all.extend_from_slice(&["--quiet", "--out", out]);
    text(&heterodox_ok(&all).stdout)
}

/// Asserts that `haystack` holds `needle`; the message shows all of
/// `haystack`, which is what one needs to see when it does not.
#[track_caller]
pub fn assert_contains(haystack: &str, needle: &str) {
    assert!(haystack.contains(needle), "{needle:?} not in:\n{haystack}");
}

/// Asserts that `haystack` begins with `prefix`, showing all of it if not.
#[track_caller]
pub fn assert_starts_with(haystack: &str, prefix: &str) {
    assert!(
        haystack.starts_with(prefix),
        "{prefix:?} does not begin:\n{haystack}"
    );
}

/// The JSON document in the file at `path` (a report's claim.json,
/// results.json, trainer.json).
pub fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The string field `key` of each object in the JSON array `array`, in
/// order (the names of a report's variants, kinds, agents).
pub fn string_fields<'a>(array: &'a serde_json::Value, key: &str) -> Vec<&'a str> {
    array
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {array}"))
        .iter()
        .map(|item| {
            item[key]
                .as_str()
                .unwrap_or_else(|| panic!("no string {key:?} in {item}"))
        })
        .collect()
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A run's stdout, which must be UTF-8.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8")
}

/// A run's stderr, which must be UTF-8.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("utf-8")
}

/// Runs `heterodox ARGS` for each `(ARGS, message)` case: each must fail
/// with exactly `message` and a newline on stderr, and nothing on stdout.
pub fn assert_refused_with_message(cases: &[(&[&str], &str)]) {
    for (args, message) in cases {
        let out = heterodox(args);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(stderr(&out), format!("{message}\n"), "{args:?}");
        assert_eq!(stdout(&out), "", "{args:?}");
    }
}

/// Runs `heterodox ARGS` for each `(ARGS, expected)` case: each must fail
/// with `expected` on stderr (trailing white space aside).
pub fn assert_refused_with(cases: &[(&[&str], &str)]) {
    for (args, expected) in cases {
        let out = heterodox(args);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(text(&out.stderr).trim_end(), *expected, "{args:?}");
    }
}

/// The stderr of a run that must fail with an error of one line; `case`
/// names the run in the assertion messages.
pub fn one_line_error(output: &Output, case: &str) -> String {
    assert!(!output.status.success(), "{case}");
    let stderr = text(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{case}: {stderr}");
    stderr
}

/// A path under cargo's directory for integration tests' files
/// (target/tmp: what a test leaves there goes with `cargo clean`, not into
/// the system's /tmp), unique to this test process, with nothing at it.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("heterodox-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// [`scratch`], created empty.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(&dir).expect("a temporary directory can be made");
    dir
}
