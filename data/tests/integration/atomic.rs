//! The one atomic writer (`heterodox_data::atomic`), which checkpoints,
//! shards, run files, PGN and claim reports go through: a write that fails
//! midway leaves the old content and no partial file; a replaced directory
//! is whole; a directory that is not what the caller may replace is
//! refused, untouched; a line log reads back whole lines only. (A swap whose second rename fails is the module's
//! own unit test; the trainer's SIGKILL and full-disk tests are in
//! tests/integration/train_cli.rs.)

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use heterodox_data::atomic::{
    is_leftover, publish_dir, write_file, write_file_with, AtomicError, LineLog, Replace,
};

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("heterodox-atomic-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every name in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `parent/name`, made to hold one file, `file`, with `contents`: a
/// directory already there when a publish comes to replace it.
fn existing_dir(parent: &Path, name: &str, file: &str, contents: &str) -> PathBuf {
    let dir = parent.join(name);
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join(file), contents).unwrap();
    dir
}

#[test]
fn a_file_is_replaced_whole_and_leaves_nothing_beside_it() {
    let dir = scratch("file");
    let path = dir.join("games.pgn");
    write_file(&path, b"first").unwrap();
    write_file(&path, b"second, longer").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"second, longer");
    assert_eq!(names(&dir), ["games.pgn"]);
}

#[test]
fn a_write_that_fails_midway_keeps_the_old_file() {
    let dir = scratch("fail");
    let path = dir.join("state.json");
    write_file(&path, b"{\"step\": 1}").unwrap();
    let err = write_file_with(&path, |file| {
        file.write_all(b"{\"st")?;
        Err(io::Error::other("disk full"))
    })
    .unwrap_err();
    assert_eq!(err.to_string(), format!("{}: disk full", path.display()));
    assert_eq!(fs::read(&path).unwrap(), b"{\"step\": 1}");
    assert_eq!(names(&dir), ["state.json"], "the temporary file is gone");
}

const FILES: &[&str] = &["config.json", "model.safetensors"];

fn checkpoint() -> Replace<'static> {
    Replace::OnlyFiles {
        files: FILES,
        kind: "a checkpoint",
    }
}

#[test]
fn a_directory_is_published_whole_and_replaced_whole() {
    let dir = scratch("dir");
    let target = dir.join("ckpt-00001");
    let value = publish_dir(&target, checkpoint(), |staging| {
        fs::write(staging.join("config.json"), "old config").unwrap();
        fs::write(staging.join("model.safetensors"), "old weights").unwrap();
        Ok::<u32, AtomicError>(7)
    })
    .unwrap();
    assert_eq!(value, 7);
    publish_dir(&target, checkpoint(), |staging| {
        fs::write(staging.join("config.json"), "new config").unwrap();
        Ok::<(), AtomicError>(())
    })
    .unwrap();
    // The replacement is the new directory alone: the old weights went
    // with the old directory.
    assert_eq!(names(&target), ["config.json"]);
    assert_eq!(
        fs::read_to_string(target.join("config.json")).unwrap(),
        "new config"
    );
    assert_eq!(names(&dir), ["ckpt-00001"]);
}

#[test]
fn a_failed_publish_keeps_the_old_directory_and_removes_the_staging() {
    let dir = scratch("dir-fail");
    let target = existing_dir(&dir, "report", "claim.json", "old");
    let err = publish_dir(&target, Replace::Marked("claim.json"), |staging| {
        fs::write(staging.join("claim.json"), "half").unwrap();
        Err::<(), CallerError>(CallerError("the plots failed".to_owned()))
    })
    .unwrap_err();
    assert_eq!(err, CallerError("the plots failed".to_owned()));
    assert_eq!(
        fs::read_to_string(target.join("claim.json")).unwrap(),
        "old"
    );
    assert_eq!(names(&dir), ["report"]);
}

/// A caller's own error type, which the writer's errors turn into.
#[derive(Debug, PartialEq)]
struct CallerError(String);

impl From<AtomicError> for CallerError {
    fn from(e: AtomicError) -> CallerError {
        CallerError(e.to_string())
    }
}

#[test]
fn only_what_the_caller_may_replace_is_replaced() {
    let dir = scratch("refuse");
    let target = existing_dir(&dir, "notes", "todo.txt", "keep me");
    let err = publish_dir(&target, checkpoint(), |_| Ok::<(), AtomicError>(())).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "refusing to replace {}: it holds \"todo.txt\", which is not part of a checkpoint",
            target.display()
        )
    );
    let err = publish_dir(&target, Replace::Marked("claim.json"), |_| {
        Ok::<(), AtomicError>(())
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "refusing to replace {}: it holds no claim.json",
            target.display()
        )
    );
    let file = dir.join("plain");
    fs::write(&file, "x").unwrap();
    let err = publish_dir(&file, checkpoint(), |_| Ok::<(), AtomicError>(())).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "refusing to replace {}: it is not a directory",
            file.display()
        )
    );
    assert_eq!(
        fs::read_to_string(target.join("todo.txt")).unwrap(),
        "keep me"
    );
    assert_eq!(names(&dir), ["notes", "plain"], "no staging left behind");
}

#[test]
fn leftovers_are_the_hidden_tmp_and_old_names() {
    assert!(is_leftover(".games.hdxshard.tmp-4242-0"));
    assert!(is_leftover(".ckpt-00003.tmp-17-2"));
    assert!(is_leftover(".ckpt-00003.old-17-3"));
    assert!(!is_leftover("ckpt-00003"));
    assert!(!is_leftover("games.hdxshard"));
    assert!(!is_leftover(".hidden"));
}

#[test]
fn a_line_log_keeps_whole_lines_and_cuts_a_torn_one() {
    let dir = scratch("log");
    let path = dir.join("sub/games.jsonl");
    let (mut log, lines) = LineLog::open(&path).unwrap();
    assert!(lines.is_empty());
    log.append("{\"game\":1}").unwrap();
    log.append("{\"game\":2}").unwrap();
    let e = log.append("two\nlines").unwrap_err();
    assert!(e.to_string().contains("a record holds a newline"), "{e}");
    drop(log);
    // A writer killed mid-record leaves a line without its newline.
    fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(b"{\"game\":3, \"tor")
        .unwrap();
    let (mut log, lines) = LineLog::open(&path).unwrap();
    assert_eq!(lines, ["{\"game\":1}", "{\"game\":2}"]);
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "{\"game\":1}\n{\"game\":2}\n"
    );
    log.append("{\"game\":3}").unwrap();
    drop(log);
    let (_, lines) = LineLog::open(&path).unwrap();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2], "{\"game\":3}");
    // Bytes that are not text are refused, the file untouched.
    fs::write(&path, b"ok\n\xff\xfe\n").unwrap();
    let e = LineLog::open(&path).unwrap_err();
    assert!(e.to_string().contains("games.jsonl"), "{e}");
    assert_eq!(fs::read(&path).unwrap(), b"ok\n\xff\xfe\n");
    let _ = fs::remove_dir_all(dir);
}
