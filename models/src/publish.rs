//! Writing a directory of files so that it appears whole or not at all.
//!
//! A checkpoint is several files (config, weights, encoding spec) that are
//! only meaningful together. Writing them in place, a process killed
//! between two files leaves new weights beside an old config, which loads
//! into a network that silently differs from both. So the files are written
//! into a fresh sibling directory `<name>.tmp-<pid>-<n>`, each flushed to
//! disk (`fsync`), and that directory is then renamed to `<name>`: a rename
//! is atomic, so `<name>` is at any moment either absent, the old complete
//! checkpoint or the new complete one.
//!
//! Replacing an existing `<name>` takes two renames (POSIX cannot rename a
//! directory over a non-empty one): `<name>` -> `<name>.old-<pid>-<n>`,
//! then the new one -> `<name>`, then the old one is deleted. A crash
//! between the two renames leaves `<name>` absent and both complete
//! checkpoints beside it, never a mixed one. Leftover `.tmp-`/`.old-`
//! directories are never read by a load, which names `<name>` exactly.
//!
//! Only a directory that holds nothing but checkpoint files (or an empty
//! one) is replaced: anything else is [`ModelError::ReplaceRefused`], so a
//! mistyped path can never delete unrelated files.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{ModelError, Result};

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ModelError + '_ {
    move |source| ModelError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Distinguishes the staging directories of concurrent saves in one process.
static SAVES: AtomicU64 = AtomicU64::new(0);

/// `dir/../<name><tag>-<pid>-<n>`, next to `dir` so that renames stay on one
/// file system.
fn sibling(dir: &Path, tag: &str, n: u64) -> Result<PathBuf> {
    let name = dir.file_name().ok_or_else(|| ModelError::ReplaceRefused {
        path: dir.to_owned(),
        reason: "the path has no final directory name".to_owned(),
    })?;
    let mut sibling = name.to_owned();
    sibling.push(format!("{tag}-{}-{n}", std::process::id()));
    Ok(dir.with_file_name(sibling))
}

/// Writes `bytes` to `path` and flushes them to disk before returning.
pub(crate) fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut file = File::create(path).map_err(io(path))?;
    file.write_all(bytes).map_err(io(path))?;
    file.sync_all().map_err(io(path))
}

/// Flushes a file written by someone else (libtorch's safetensors writer).
pub(crate) fn sync_file(path: &Path) -> Result<()> {
    File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(io(path))
}

/// Flushes a directory's entries (the names of renamed or created files).
/// Only Unix can open a directory as a file; elsewhere this does nothing.
fn sync_dir(path: &Path) -> Result<()> {
    if cfg!(unix) {
        File::open(path)
            .and_then(|d| d.sync_all())
            .map_err(io(path))?;
    }
    Ok(())
}

/// Refuses to replace `dir` unless it is a directory holding only files
/// named in `allowed`. `Ok(true)` when it exists, `Ok(false)` when absent.
fn check_replaceable(dir: &Path, allowed: &[&str]) -> Result<bool> {
    let meta = match fs::symlink_metadata(dir) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(source) => return Err(io(dir)(source)),
    };
    let refuse = |reason: String| {
        Err(ModelError::ReplaceRefused {
            path: dir.to_owned(),
            reason,
        })
    };
    if !meta.is_dir() {
        return refuse("it is not a directory".to_owned());
    }
    for entry in fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        let name = entry.file_name();
        let is_file = entry.file_type().map_err(io(dir))?.is_file();
        if !is_file || !allowed.iter().any(|a| name == *a) {
            return refuse(format!(
                "it holds {:?}, which is not part of a checkpoint",
                name.to_string_lossy()
            ));
        }
    }
    Ok(true)
}

/// Deletes a replaced checkpoint: only the files it may hold, then the
/// (then empty) directory, so nothing else can go with it.
fn remove_checkpoint_dir(dir: &Path, allowed: &[&str]) -> Result<()> {
    for name in allowed {
        let file = dir.join(name);
        match fs::remove_file(&file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&file)(e)),
            _ => {}
        }
    }
    fs::remove_dir(dir).map_err(io(dir))
}

/// Makes `dir` a directory whose content is what `write` puts into the
/// staging directory it is given, atomically (see the module docs).
/// `write` must create only files named in `allowed`; each is flushed to
/// disk before the rename. On error `dir` is unchanged and the staging
/// directory is removed.
pub(crate) fn publish_dir(
    dir: &Path,
    allowed: &[&str],
    write: impl FnOnce(&Path) -> Result<()>,
) -> Result<()> {
    let exists = check_replaceable(dir, allowed)?;
    let n = SAVES.fetch_add(1, Ordering::Relaxed);
    let staging = sibling(dir, ".tmp", n)?;
    let parent = staging
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_owned();
    fs::create_dir_all(&parent).map_err(io(&parent))?;
    fs::create_dir(&staging).map_err(io(&staging))?;

    let staged = write(&staging).and_then(|()| {
        for name in allowed {
            let file = staging.join(name);
            if file.exists() {
                sync_file(&file)?;
            }
        }
        sync_dir(&staging)
    });
    if let Err(e) = staged {
        let _ = fs::remove_dir_all(&staging);
        return Err(e);
    }

    if exists {
        let old = sibling(dir, ".old", n)?;
        if let Err(e) = fs::rename(dir, &old) {
            let _ = fs::remove_dir_all(&staging);
            return Err(io(dir)(e));
        }
        if let Err(e) = fs::rename(&staging, dir) {
            // Put the old checkpoint back; the new one is lost.
            let _ = fs::rename(&old, dir);
            let _ = fs::remove_dir_all(&staging);
            return Err(io(dir)(e));
        }
        sync_dir(&parent)?;
        remove_checkpoint_dir(&old, allowed)?;
    } else {
        fs::rename(&staging, dir).map_err(io(dir))?;
    }
    sync_dir(&parent)
}
