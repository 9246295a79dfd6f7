"""Writing a file so that a person can trust it, whatever happens during the write.

``minigrad.save(obj, path)`` writes a temporary file beside the target, flushes and fsyncs it,
then renames it over the target (``os.replace``), so a reader sees the old file or the new one,
never half of one. Around that core:

* a symlink stays a symlink: the file it points to gets the new content;
* an existing file keeps its permissions (a private 0600 file stays private) and, where the
  system allows it, its owner; a new file gets the usual 0666 under the umask; a file the
  caller may not write is refused as ``open(path, "wb")`` refuses it, although a rename could
  replace it;
* errors name the path the caller gave, never the temporary file;
* a save killed mid-write (``kill -9``, a restarted kernel) leaves its temporary file behind:
  ``.<name>.<8 hex digits>.minigrad-tmp``. The next save into the same folder removes such files
  when they are clearly abandoned: on POSIX, a live save holds an exclusive ``flock`` on its
  temporary file until the rename, so a file nobody holds is a dead save's. Where ``flock``
  does not exist (Windows), only files untouched for a day are removed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import time
from collections.abc import Callable
from typing import BinaryIO

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

__all__ = ["write_atomically", "TEMP_SUFFIX"]

TEMP_SUFFIX = ".minigrad-tmp"
_TEMPORARY = re.compile(r"\..+\.[0-9a-f]{8}" + re.escape(TEMP_SUFFIX))
_FRESH_SECONDS = 60  # an empty, unlocked file younger than this may be a save just starting
_UNLOCKABLE_STALE_SECONDS = 24 * 3600
_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows only
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def write_atomically(path: str, write: Callable[[BinaryIO], None]) -> None:
    """Call ``write(file)`` on a temporary file, then put it in place of ``path``."""
    target = os.path.realpath(path)  # through symlinks, to the file they name
    folder, base = os.path.split(target)
    if not os.path.isdir(folder):  # PyTorch's words, naming the folder as the caller wrote it
        shown = folder if os.path.islink(path) else os.path.dirname(path)
        raise RuntimeError(f"Parent directory {shown} does not exist.")
    if os.path.isdir(target):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    try:
        existing = os.stat(target)
    except OSError:
        existing = None
    if existing is not None and not os.access(target, os.W_OK):  # as open(path, "wb") refuses
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
    remove_abandoned_temporaries(folder)
    fd, tmp = _create_temporary(folder, base, path)
    try:
        _copy_ownership(fd, existing)
        with open(fd, "wb", closefd=False) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        if fcntl is None:  # Windows cannot rename an open file
            os.close(fd)
            fd = -1
        os.replace(tmp, target)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError) and e.errno is not None:
            raise _naming(e, path) from None
        raise
    finally:
        if fd >= 0:
            os.close(fd)  # only now: the lock held until after the rename
    with contextlib.suppress(OSError, AttributeError):  # make the rename itself durable
        dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _create_temporary(folder: str, base: str, path: str) -> tuple[int, str]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_BINARY | _O_CLOEXEC
    while len(os.fsencode(base)) > 200:  # a name the system allows must stay allowed
        base = base[:-1]
    while True:
        tmp = os.path.join(folder, f".{base}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
        try:  # mode 0o666 under the umask, as a plain open() would give
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
        except OSError as e:
            raise _naming(e, path) from None
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)  # ours alone: nobody else has opened it yet
    return fd, tmp


def _copy_ownership(fd: int, existing: os.stat_result | None) -> None:
    """Give the new file the old one's permission bits (and owner, if allowed)."""
    if existing is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        if (existing.st_uid, existing.st_gid) != os.fstat(fd)[4:6]:
            os.fchown(fd, existing.st_uid, existing.st_gid)
    if hasattr(os, "fchmod"):  # POSIX
        os.fchmod(fd, stat.S_IMODE(existing.st_mode))


def remove_abandoned_temporaries(folder: str) -> list[str]:
    """Remove temporary files of killed saves in ``folder``; return their names. Never raises."""
    removed = []
    with contextlib.suppress(OSError):
        with os.scandir(folder) as entries:
            candidates = [
                e.path
                for e in entries
                if _TEMPORARY.fullmatch(e.name) and e.is_file(follow_symlinks=False)
            ]
        for candidate in candidates:
            with contextlib.suppress(OSError):
                if _remove_if_abandoned(candidate):
                    removed.append(os.path.basename(candidate))
    return removed


def _remove_if_abandoned(path: str) -> bool:
    if fcntl is None:
        if time.time() - os.lstat(path).st_mtime < _UNLOCKABLE_STALE_SECONDS:
            return False
        os.unlink(path)  # fails while a live save still has it open
        return True
    fd = os.open(path, os.O_RDONLY | _O_NOFOLLOW | _O_CLOEXEC | getattr(os, "O_NONBLOCK", 0))
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # a save in progress holds it
        info = os.fstat(fd)
        if info.st_size == 0 and time.time() - info.st_mtime < _FRESH_SECONDS:
            return False  # maybe a save between creating its file and locking it
        if os.lstat(path).st_ino != info.st_ino:
            return False
        os.unlink(path)
        return True
    finally:
        os.close(fd)


def _naming(error: OSError, path: str) -> OSError:
    """The same error, naming the caller's path instead of the temporary file."""
    if error.errno is None:
        return error
    return type(error)(error.errno, error.strerror, path)
