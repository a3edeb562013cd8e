//! Files that must survive a crash, written so that they appear whole or
//! not at all: the one writer behind checkpoints, shards, run files, PGN
//! and claim reports.
//!
//! * [`write_file`]: the bytes go to a hidden sibling
//!   `.<name>.tmp-<pid>-<n>`, are flushed to disk (`fsync`), and the file is
//!   renamed over `<name>`; the directory is then flushed so that the
//!   rename itself survives a power cut. A rename is atomic, so `<name>` is
//!   at every moment the old complete file or the new one, never a part.
//! * [`publish_dir`]: a directory of files that are only meaningful
//!   together (a checkpoint's config, weights and spec; a report's summary,
//!   data and plots) is written into a hidden staging sibling, every file in
//!   it flushed, then renamed to `<name>`. Replacing an existing `<name>`
//!   takes two renames (POSIX cannot rename a directory over a non-empty
//!   one): `<name>` -> `.<name>.old-<pid>-<n>`, staging -> `<name>`, then
//!   the old one is deleted. If the second rename fails the old directory
//!   is put back; a crash between the two leaves both complete directories
//!   beside an absent `<name>`, never a mixed one.
//!
//! * [`LineLog`]: records too many to rewrite at each one (a claim's
//!   games as they finish) are appended as lines, each flushed to disk
//!   before `append` returns; a kill can only tear the last line, which
//!   [`LineLog::open`] cuts off, so every record read back is whole.
//!
//! Leftovers of a killed writer are always hidden names holding `.tmp-` or
//! `.old-` ([`is_leftover`]): readers that list a directory skip them, and
//! a resumed run deletes them. Only a directory that [`Replace`] allows is
//! ever replaced, so a mistyped path cannot delete unrelated files.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Why an atomic write failed. The target is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum AtomicError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("refusing to replace {}: {reason}", path.display())]
    Refused { path: PathBuf, reason: String },
}

impl AtomicError {
    /// The path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            AtomicError::Io { path, .. } | AtomicError::Refused { path, .. } => path,
        }
    }

    fn io(path: &Path) -> impl FnOnce(io::Error) -> AtomicError + '_ {
        move |source| AtomicError::Io {
            path: path.to_owned(),
            source,
        }
    }
}

/// For writers whose errors carry the path already (shards): the I/O error
/// itself, or the refusal as one.
impl From<AtomicError> for io::Error {
    fn from(error: AtomicError) -> io::Error {
        match error {
            AtomicError::Io { source, .. } => source,
            refused @ AtomicError::Refused { .. } => io::Error::other(refused.to_string()),
        }
    }
}

/// Distinguishes the temporary names of concurrent writes in one process.
static WRITES: AtomicU64 = AtomicU64::new(0);

/// Whether a directory entry is a writer's temporary file or directory, or
/// a replaced directory awaiting deletion: what a killed writer leaves.
pub fn is_leftover(name: &str) -> bool {
    name.starts_with('.') && (name.contains(".tmp-") || name.contains(".old-"))
}

/// `.<name><tag>-<pid>-<n>` beside `path`, so renames stay on one file
/// system.
fn sibling(path: &Path, tag: &str) -> Result<PathBuf, AtomicError> {
    let name = path
        .file_name()
        .ok_or_else(|| AtomicError::Refused {
            path: path.to_owned(),
            reason: "the path has no final name".to_owned(),
        })?
        .to_string_lossy();
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    Ok(path.with_file_name(format!(".{name}{tag}-{}-{n}", std::process::id())))
}

/// The directory a path's entry lives in (`.` for a bare name).
fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    }
}

/// Flushes a directory's entries (the names of renamed or created files).
/// Only Unix can open a directory as a file; elsewhere this does nothing.
fn sync_dir(path: &Path) -> Result<(), AtomicError> {
    if cfg!(unix) {
        File::open(path)
            .and_then(|d| d.sync_all())
            .map_err(AtomicError::io(path))?;
    }
    Ok(())
}

/// Writes `bytes` to `path` atomically (see the module docs). On error the
/// temporary file is removed and `path` is as it was.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), AtomicError> {
    write_file_with(path, |file| file.write_all(bytes))
}

/// [`write_file`] for content that is streamed: `write` fills the
/// temporary file, which is then flushed and renamed over `path`.
pub fn write_file_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), AtomicError> {
    let temp = sibling(path, ".tmp")?;
    let result = (|| {
        let mut file = File::create_new(&temp).map_err(AtomicError::io(&temp))?;
        write(&mut file).map_err(AtomicError::io(path))?;
        file.sync_all().map_err(AtomicError::io(path))?;
        drop(file);
        fs::rename(&temp, path).map_err(AtomicError::io(path))?;
        sync_dir(&parent_of(path))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Which existing directories [`publish_dir`] may replace.
#[derive(Clone, Copy, Debug)]
pub enum Replace<'a> {
    /// A directory holding only files with these names (`kind`, e.g. "a
    /// checkpoint", names it in a refusal): the old one is deleted file by
    /// file, so nothing else can go with it.
    OnlyFiles { files: &'a [&'a str], kind: &'a str },
    /// A directory holding this marker file (a report's `claim.json`), or
    /// an empty one; the old one is deleted whole.
    Marked(&'a str),
}

impl Replace<'_> {
    /// `Ok(true)` when `dir` exists and may be replaced, `Ok(false)` when
    /// it is absent, an error naming what it holds otherwise. Public so
    /// that a long job can refuse its target before the work, not after.
    pub fn check(&self, dir: &Path) -> Result<bool, AtomicError> {
        let meta = match fs::symlink_metadata(dir) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(source) => return Err(AtomicError::io(dir)(source)),
        };
        let refuse = |reason: String| {
            Err(AtomicError::Refused {
                path: dir.to_owned(),
                reason,
            })
        };
        if !meta.is_dir() {
            return refuse("it is not a directory".to_owned());
        }
        let mut entries = Vec::new();
        for entry in fs::read_dir(dir).map_err(AtomicError::io(dir))? {
            let entry = entry.map_err(AtomicError::io(dir))?;
            let is_file = entry.file_type().map_err(AtomicError::io(dir))?.is_file();
            entries.push((entry.file_name().to_string_lossy().into_owned(), is_file));
        }
        match *self {
            Replace::OnlyFiles { files, kind } => {
                if let Some((name, _)) = entries
                    .iter()
                    .find(|(name, is_file)| !is_file || !files.contains(&name.as_str()))
                {
                    return refuse(format!("it holds {name:?}, which is not part of {kind}"));
                }
            }
            Replace::Marked(marker) => {
                if !entries.is_empty() && !entries.iter().any(|(name, _)| name == marker) {
                    return refuse(format!("it holds no {marker}"));
                }
            }
        }
        Ok(true)
    }

    /// Deletes a replaced directory (renamed aside).
    fn remove(&self, old: &Path) -> Result<(), AtomicError> {
        match *self {
            Replace::OnlyFiles { files, .. } => {
                for name in files {
                    let file = old.join(name);
                    match fs::remove_file(&file) {
                        Err(e) if e.kind() != io::ErrorKind::NotFound => {
                            return Err(AtomicError::io(&file)(e))
                        }
                        _ => {}
                    }
                }
                fs::remove_dir(old).map_err(AtomicError::io(old))
            }
            Replace::Marked(_) => fs::remove_dir_all(old).map_err(AtomicError::io(old)),
        }
    }
}

/// Flushes every regular file below `dir`, then `dir`'s own entries: files
/// written by other libraries (libtorch's safetensors writer, matplotlib)
/// are made durable too.
fn sync_tree(dir: &Path) -> Result<(), AtomicError> {
    for entry in fs::read_dir(dir).map_err(AtomicError::io(dir))? {
        let entry = entry.map_err(AtomicError::io(dir))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(AtomicError::io(&path))?;
        if kind.is_dir() {
            sync_tree(&path)?;
        } else if kind.is_file() {
            File::open(&path)
                .and_then(|f| f.sync_all())
                .map_err(AtomicError::io(&path))?;
        }
    }
    sync_dir(dir)
}

/// Makes `dir` a directory whose content is what `write` puts into the
/// staging directory it is given, atomically (see the module docs); an
/// existing `dir` is replaced only as `replace` allows. `write`'s own
/// error type `E` comes back unchanged; the writer's are turned into it by
/// `From`. On any error `dir` is as it was and the staging directory is
/// removed. Returns what `write` returned.
pub fn publish_dir<T, E: From<AtomicError>>(
    dir: &Path,
    replace: Replace<'_>,
    write: impl FnOnce(&Path) -> Result<T, E>,
) -> Result<T, E> {
    let exists = replace.check(dir)?;
    let staging = sibling(dir, ".tmp")?;
    let parent = parent_of(dir);
    fs::create_dir_all(&parent).map_err(AtomicError::io(&parent))?;
    fs::create_dir(&staging).map_err(AtomicError::io(&staging))?;
    let staged = write(&staging).and_then(|value| {
        sync_tree(&staging)?;
        Ok(value)
    });
    let value = match staged {
        Ok(value) => value,
        Err(e) => {
            let _ = fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    let swapped = swap_in(&staging, dir, exists.then_some(replace));
    if swapped.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    swapped?;
    Ok(value)
}

/// Renames `staging` to `dir`, an existing `dir` first renamed aside and
/// put back if the second rename fails.
fn swap_in(staging: &Path, dir: &Path, existing: Option<Replace<'_>>) -> Result<(), AtomicError> {
    swap_in_with(staging, dir, existing, |from, to| fs::rename(from, to))
}

/// [`swap_in`] with the second rename (staging -> `dir`) given, so that a
/// test can make it fail and see the old directory come back.
fn swap_in_with(
    staging: &Path,
    dir: &Path,
    existing: Option<Replace<'_>>,
    rename_into_place: impl FnOnce(&Path, &Path) -> io::Result<()>,
) -> Result<(), AtomicError> {
    let parent = parent_of(dir);
    let Some(replace) = existing else {
        fs::rename(staging, dir).map_err(AtomicError::io(dir))?;
        return sync_dir(&parent);
    };
    let old = sibling(dir, ".old")?;
    fs::rename(dir, &old).map_err(AtomicError::io(dir))?;
    if let Err(e) = rename_into_place(staging, dir) {
        // Put the old directory back; the new one is lost.
        let _ = fs::rename(&old, dir);
        return Err(AtomicError::io(dir)(e));
    }
    sync_dir(&parent)?;
    replace.remove(&old)?;
    sync_dir(&parent)
}

/// An append-only file of one-line records (see the module docs).
#[derive(Debug)]
pub struct LineLog {
    path: PathBuf,
    file: File,
}

impl LineLog {
    /// Opens `path`, creating it (and its parent) if absent; returns the
    /// log, positioned after its last whole line, and those lines. A torn
    /// last line (no newline: a writer killed mid-record) is cut off the
    /// file. A line that is not UTF-8 is an error.
    pub fn open(path: &Path) -> Result<(LineLog, Vec<String>), AtomicError> {
        let parent = parent_of(path);
        fs::create_dir_all(&parent).map_err(AtomicError::io(&parent))?;
        let mut file = fs::OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(AtomicError::io(path))?;
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut file, &mut bytes).map_err(AtomicError::io(path))?;
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
        // Checked before the file is touched: a log that is refused stays
        // as it was.
        let text = std::str::from_utf8(&bytes[..whole])
            .map_err(|e| AtomicError::io(path)(io::Error::new(io::ErrorKind::InvalidData, e)))?;
        let lines = text.lines().map(str::to_owned).collect();
        if whole < bytes.len() {
            file.set_len(whole as u64).map_err(AtomicError::io(path))?;
            file.sync_all().map_err(AtomicError::io(path))?;
        }
        Ok((
            LineLog {
                path: path.to_owned(),
                file,
            },
            lines,
        ))
    }

    /// Appends `record` as one line and flushes it to disk. A record
    /// holding a newline would read back as two: it is refused.
    pub fn append(&mut self, record: &str) -> Result<(), AtomicError> {
        if record.contains('\n') {
            return Err(AtomicError::Refused {
                path: self.path.clone(),
                reason: "a record holds a newline".to_owned(),
            });
        }
        let mut line = Vec::with_capacity(record.len() + 1);
        line.extend_from_slice(record.as_bytes());
        line.push(b'\n');
        self.file
            .write_all(&line)
            .and_then(|()| self.file.sync_data())
            .map_err(AtomicError::io(&self.path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("heterodox-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_failed_swap_puts_the_old_directory_back() {
        let root = scratch("swap");
        let dir = root.join("report");
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join("claim.json"), "old").unwrap();
        let staging = root.join(".report.tmp-1-1");
        fs::create_dir(&staging).unwrap();
        fs::write(staging.join("claim.json"), "new").unwrap();
        let err = swap_in_with(
            &staging,
            &dir,
            Some(Replace::Marked("claim.json")),
            |_, _| Err(io::Error::other("disk gone")),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), format!("{}: disk gone", dir.display()));
        assert_eq!(fs::read_to_string(dir.join("claim.json")).unwrap(), "old");
        let names: Vec<String> = fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".old-"))
            .collect();
        assert!(
            names.is_empty(),
            "the old directory is back in place: {names:?}"
        );
        fs::remove_dir_all(&root).unwrap();
    }
}
