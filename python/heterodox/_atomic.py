"""Files that must survive a crash, on the Python side: the counterpart of
the Rust writer ``heterodox_data::atomic`` (data/src/atomic.rs),
with the same names for what a killed writer leaves (hidden siblings
``.<name>.tmp-<pid>-<n>`` and ``.<name>.old-<pid>-<n>``), so that both
sides skip and clean the same leftovers.

* :func:`write_file`: a temporary sibling, fsync, rename over the target,
  fsync of the directory.
* :func:`publish_dir`: a directory of files that belong together (a
  checkpoint) written into a staging sibling, every file synced, renamed
  into place; an existing directory is replaced only when it holds nothing
  but the allowed files, and is put back if the second rename fails.

(python/heterodox/plot.py keeps its own three-line rename: the binary runs
it as a script without this package.)
"""

from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path
from typing import Callable, Iterable

_COUNTER = itertools.count()


def _sibling(path: Path, tag: str) -> Path:
    return path.with_name(f".{path.name}{tag}-{os.getpid()}-{next(_COUNTER)}")


def _sync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_file(path: Path) -> None:
    with open(path, "rb") as file:
        os.fsync(file.fileno())


def write_file(path: str | os.PathLike, data: bytes | str | Callable[[Path], None]) -> None:
    """Writes ``path`` atomically: ``data`` as bytes or UTF-8 text, or a
    callable that writes the temporary path it is given (``torch.save``)."""
    path = Path(path)
    temp = _sibling(path, ".tmp")
    try:
        if callable(data):
            data(temp)
        else:
            temp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        _sync_file(temp)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _sync_dir(path.parent)


def publish_dir(
    directory: str | os.PathLike, allowed: Iterable[str], write: Callable[[Path], None]
) -> None:
    """Makes ``directory`` what ``write`` puts into the staging directory it
    is given (only files named in ``allowed``), atomically. An existing
    directory holding anything else is refused with ``ValueError``."""
    directory = Path(directory)
    allowed = set(allowed)
    if directory.exists():
        if not directory.is_dir():
            raise ValueError(f"refusing to replace {directory}: it is not a directory")
        stray = sorted(p.name for p in directory.iterdir() if p.name not in allowed)
        if stray:
            raise ValueError(f"refusing to replace {directory}: it holds {stray[0]}, "
                             "which is not part of a checkpoint")
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = _sibling(directory, ".tmp")
    staging.mkdir()
    try:
        write(staging)
        for name in os.listdir(staging):
            _sync_file(staging / name)
        _sync_dir(staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if not directory.exists():
        staging.rename(directory)
        _sync_dir(directory.parent)
        return
    aside = _sibling(directory, ".old")
    directory.rename(aside)
    try:
        staging.rename(directory)
    except BaseException:
        aside.rename(directory)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _sync_dir(directory.parent)
    shutil.rmtree(aside)
