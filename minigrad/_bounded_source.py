"""Reading a file that may be hostile: bounded reads from a path or a file object.

``_safetensors.read`` reads only as many bytes as the header declares, through
``BoundedSource``: a FIFO with no writer cannot block ``open``, an endless stream such as
``/dev/zero`` cannot keep it reading, and a file's size is known when it can be.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from typing import BinaryIO

import numpy as np


def name_of(path_or_file: str | os.PathLike | BinaryIO) -> str:
    """How error messages name a file: its path, else the file object's name or repr."""
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        return os.fsdecode(path_or_file)
    name = getattr(path_or_file, "name", None)
    return name if isinstance(name, str) else repr(path_or_file)


class BoundedSource:
    """Bounded reads from a path or a binary file object, and its size when it is knowable.

    A path is opened without blocking (a FIFO with no writer would block ``open`` forever),
    then switched back to blocking reads. ``size`` is the number of bytes from the start, for
    regular files and seekable file objects; None for pipes and devices.
    """

    def __init__(self, path_or_file: str | os.PathLike | BinaryIO, name: str) -> None:
        self.close_after = isinstance(path_or_file, (str, bytes, os.PathLike))
        self.size: int | None = None
        if self.close_after:
            self.file = _open_for_reading(path_or_file, name)
            info = os.fstat(self.file.fileno())
            if stat.S_ISREG(info.st_mode):
                self.size = info.st_size
        else:
            self.file = path_or_file
            with contextlib.suppress(OSError, ValueError, AttributeError):
                if path_or_file.seekable():
                    here = path_or_file.tell()
                    self.size = path_or_file.seek(0, os.SEEK_END) - here
                    path_or_file.seek(here)
        self.start = self.file.tell() if self.size is not None else 0

    def __enter__(self) -> BoundedSource:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.close_after:
            self.file.close()

    def read(self, n: int) -> bytes | memoryview:
        """Up to ``n`` bytes (a memoryview when large); fewer only at the end of the file."""
        if n > _CHUNK:  # filled in place: no second copy of a large header
            buffer = np.empty(n, np.uint8)
            return memoryview(buffer)[: self.readinto(buffer)]
        chunk = self.file.read(n)
        if not isinstance(chunk, bytes):
            raise TypeError(f"{name_of(self.file)}: file must be opened in binary mode ('rb')")
        while 0 < len(chunk) < n:  # pipes and sockets may return less than asked
            more = self.file.read(n - len(chunk))
            if not more:
                break
            chunk += more
        return chunk

    def readinto(self, buffer: np.ndarray) -> int:
        """Fill ``buffer`` (uint8); the count read, smaller only at the end of the file."""
        view, done = memoryview(buffer), 0
        readinto = getattr(self.file, "readinto", None)
        while done < len(view):
            if readinto is not None:
                got = readinto(view[done : done + _CHUNK])
            else:  # a file object with read() only
                data = self.read(min(len(view) - done, _CHUNK))
                got = len(data)
                view[done : done + got] = data
            if not got:
                break
            done += got
        return done

    def tail(self) -> bytes:
        """The file's last few bytes, when they can be read without reading it all."""
        if self.size is None:
            return b""
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.file.seek(self.start + max(self.size - 16, 0))
            return self.file.read(16) or b""
        return b""


_CHUNK = 1 << 24  # 16 MiB per read call


def _open_for_reading(path: str | bytes | os.PathLike, name: str) -> BinaryIO:
    flags = os.O_RDONLY | _O_BINARY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name)
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)
        return open(fd, "rb", buffering=0)  # noqa: SIM115 - closed by BoundedSource
    except BaseException:
        os.close(fd)
        raise


_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows only
