"""``minigrad.save`` that a person can trust (issue 10).

Through symlinks, keeping permissions, naming the caller's path in errors, cleaning up after a
save that was killed, and taking numpy scalars as PyTorch does. The killed saves are real:
a child process blocks in the middle of writing (a hook it installs, so nothing depends on
timing) and is sent SIGKILL.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from collections import OrderedDict

import numpy as np
import pytest

import minigrad
from minigrad import _atomic_save

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX symlinks, modes and signals")


def _sd(value: float = 1.0) -> OrderedDict:
    return OrderedDict(w=minigrad.full((2, 3), value))


def _value(path) -> float:
    return minigrad.load(path)["w"][0, 0].item()


def _temporaries(folder) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(_atomic_save.TEMP_SUFFIX))


# -- symlinks and permissions ----------------------------------------------------------------


@posix_only
@pytest.mark.parametrize("relative", [False, True])
def test_a_symlink_stays_a_link_and_its_target_gets_the_content(tmp_path, relative):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "model.safetensors"
    minigrad.save(_sd(1.0), target)
    link = tmp_path / "model.safetensors"
    link.symlink_to(os.path.relpath(target, tmp_path) if relative else target)
    minigrad.save(_sd(2.0), link)
    assert link.is_symlink() and os.readlink(link) == str(
        os.path.relpath(target, tmp_path) if relative else target
    )
    assert _value(target) == 2.0
    assert sorted(os.listdir(tmp_path)) == ["model.safetensors", "real"]
    assert os.listdir(tmp_path / "real") == ["model.safetensors"]


@posix_only
def test_a_chain_of_symlinks_and_a_dangling_one(tmp_path):
    target = tmp_path / "target"
    (tmp_path / "b").symlink_to(target)
    (tmp_path / "a").symlink_to(tmp_path / "b")
    minigrad.save(_sd(3.0), tmp_path / "a")  # dangling: the file it names is created, as open does
    assert (tmp_path / "a").is_symlink() and (tmp_path / "b").is_symlink()
    assert _value(target) == 3.0


@posix_only
@pytest.mark.parametrize("mode", [0o600, 0o640, 0o644, 0o700, 0o755])
def test_an_existing_file_keeps_its_permissions(tmp_path, mode):
    path = tmp_path / "private.safetensors"
    minigrad.save(_sd(1.0), path)
    os.chmod(path, mode)
    minigrad.save(_sd(2.0), path)
    assert path.stat().st_mode & 0o7777 == mode
    assert _value(path) == 2.0


@posix_only
def test_a_file_the_user_may_not_write_is_refused_as_open_refuses_it(tmp_path, monkeypatch):
    """A rename could replace a read-only file; open(path, "wb") would not, and neither does save.

    Tests run as root in CI, where everything is writable, so the check itself is stubbed.
    """
    path = tmp_path / "frozen.safetensors"
    minigrad.save(_sd(1.0), path)
    before = path.read_bytes()
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode, **kw: False if str(p) == str(path) else real_access(p, mode)
    )
    with pytest.raises(PermissionError) as info:
        minigrad.save(_sd(2.0), path)
    assert str(info.value) == f"[Errno 13] Permission denied: {str(path)!r}"
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["frozen.safetensors"]


@posix_only
def test_a_new_file_gets_the_usual_mode(tmp_path):
    umask = os.umask(0o027)
    try:
        minigrad.save(_sd(), tmp_path / "m")
    finally:
        os.umask(umask)
    assert (tmp_path / "m").stat().st_mode & 0o777 == 0o640


@posix_only
def test_permissions_kept_through_a_symlink(tmp_path):
    target = tmp_path / "t"
    minigrad.save(_sd(), target)
    os.chmod(target, 0o600)
    (tmp_path / "link").symlink_to(target)
    minigrad.save(_sd(5.0), tmp_path / "link")
    assert target.stat().st_mode & 0o777 == 0o600 and _value(target) == 5.0


# -- errors name the caller's path --------------------------------------------------------------


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_errors_name_the_callers_path_not_the_temporary(tmp_path, monkeypatch, failing):
    path = tmp_path / "model.safetensors"
    real = getattr(os, failing)

    def broken(*args, **kwargs):
        if failing == "fsync" or str(args[0]).endswith(_atomic_save.TEMP_SUFFIX):
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(os, failing, broken)
    with pytest.raises(OSError) as info:
        minigrad.save(_sd(), path)
    assert info.value.errno == errno.EIO
    assert str(info.value) == f"[Errno {errno.EIO}] {os.strerror(errno.EIO)}: {str(path)!r}"
    monkeypatch.undo()
    assert os.listdir(tmp_path) == []


def test_a_folder_as_the_target(tmp_path):
    with pytest.raises(IsADirectoryError) as info:
        minigrad.save(_sd(), tmp_path)
    assert str(info.value) == f"[Errno 21] Is a directory: {str(tmp_path)!r}"
    assert os.listdir(tmp_path) == []


def test_the_longest_name_the_system_allows_can_be_saved(tmp_path):
    name = "m" * 240 + ".safetensors"
    minigrad.save(_sd(4.0), tmp_path / name)
    assert os.listdir(tmp_path) == [name] and _value(tmp_path / name) == 4.0


# -- temporaries of killed saves --------------------------------------------------------------

_BLOCKED_SAVE = """
import sys
import minigrad
from minigrad import _safetensors

def write_half_then_block(f, text, arrays):
    f.write(b"half of a file" * 4096)
    f.flush()
    print("writing", flush=True)
    sys.stdin.read()  # blocks until the parent kills this process

_safetensors._write = write_half_then_block
minigrad.save({"w": minigrad.ones(1000)}, sys.argv[1])
"""


def _blocked_save(path) -> subprocess.Popen:
    """A child process stopped in the middle of writing ``path``: it said so on stdout."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen(
        [sys.executable, "-c", _BLOCKED_SAVE, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    assert child.stdout.readline() == b"writing\n"
    return child


def _kill(child: subprocess.Popen) -> None:
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdin.close()
    child.stdout.close()


@posix_only
def test_a_save_killed_mid_write_leaves_the_old_file_and_the_next_save_cleans_up(tmp_path):
    path = tmp_path / "model.safetensors"
    minigrad.save(_sd(1.0), path)
    before = path.read_bytes()
    _kill(_blocked_save(path))
    (first,) = _temporaries(tmp_path)
    assert first.startswith(".model.safetensors.")
    assert path.read_bytes() == before  # the killed save never touched the file
    for _ in range(2):  # each save cleans up before it starts: one leftover at most
        _kill(_blocked_save(path))
    (last,) = _temporaries(tmp_path)
    assert last != first and path.read_bytes() == before

    minigrad.save(_sd(2.0), tmp_path / "other.safetensors")  # any save into the folder
    assert _temporaries(tmp_path) == []
    assert sorted(os.listdir(tmp_path)) == ["model.safetensors", "other.safetensors"]
    assert _value(path) == 1.0 and _value(tmp_path / "other.safetensors") == 2.0


@posix_only
def test_a_save_in_progress_keeps_its_temporary(tmp_path):
    child = _blocked_save(tmp_path / "slow.safetensors")
    try:
        (live,) = _temporaries(tmp_path)
        minigrad.save(_sd(), tmp_path / "quick.safetensors")
        assert _temporaries(tmp_path) == [live]  # it is locked by a living save
    finally:
        _kill(child)
    minigrad.save(_sd(), tmp_path / "quick.safetensors")
    assert _temporaries(tmp_path) == []


@posix_only
def test_only_our_abandoned_files_are_removed(tmp_path):
    keep = [
        ".notes.tmp",
        "model.safetensors.minigrad-tmp",
        ".m.0123abcd.tmp",
        ".m.not-hex!.minigrad-tmp",
    ]
    for name in keep:
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / ".d.0123abcd.minigrad-tmp").mkdir()  # a folder with our name
    (tmp_path / ".l.0123abcd.minigrad-tmp").symlink_to(tmp_path / ".notes.tmp")
    fresh = tmp_path / ".f.0123abcd.minigrad-tmp"  # empty and new: maybe a save starting
    fresh.write_bytes(b"")
    old_empty = tmp_path / ".e.0123abcd.minigrad-tmp"
    old_empty.write_bytes(b"")
    hour_ago = time.time() - 3600
    os.utime(old_empty, (hour_ago, hour_ago))
    abandoned = tmp_path / ".a.0123abcd.minigrad-tmp"
    abandoned.write_bytes(b"half")

    minigrad.save(_sd(), tmp_path / "m")
    left = set(os.listdir(tmp_path))
    assert left == {*keep, ".d.0123abcd.minigrad-tmp", ".l.0123abcd.minigrad-tmp", fresh.name, "m"}


# -- numpy scalars, as PyTorch takes them --------------------------------------------------------

NUMPY_SCALARS = [
    np.float64(0.1),
    np.float32(1.5),
    np.float16(-2.25),
    np.float32("nan"),
    np.float64("-inf"),
    np.int64(-(2**62)),
    np.int32(7),
    np.int16(-3),
    np.int8(-128),
    np.uint8(255),
    np.uint16(65535),
    np.uint32(2**32 - 1),
    np.uint64(2**64 - 1),
    np.bool_(True),
]


def test_numpy_scalars_round_trip_with_their_types(tmp_path):
    checkpoint = {"epoch": np.int64(3), "scalars": NUMPY_SCALARS, "lr": np.float32(0.1)}
    minigrad.save(checkpoint, tmp_path / "ck")
    out = minigrad.load(tmp_path / "ck")
    assert type(out["epoch"]) is np.int64 and out["epoch"] == 3
    assert type(out["lr"]) is np.float32 and out["lr"] == np.float32(0.1)
    for got, want in zip(out["scalars"], NUMPY_SCALARS, strict=True):
        assert type(got) is type(want)
        assert got.tobytes() == want.tobytes()


@pytest.mark.parity
def test_pytorch_saves_numpy_scalars_and_gives_them_back_so_do_we(tmp_path, torch):
    checkpoint = {"loss": np.float32(0.25), "step": np.int64(10), "flag": np.bool_(False)}
    torch.save(checkpoint, tmp_path / "t.pt")
    theirs = torch.load(tmp_path / "t.pt", weights_only=False)
    minigrad.save(checkpoint, tmp_path / "m")
    ours = minigrad.load(tmp_path / "m")
    assert {k: (type(v), v) for k, v in ours.items()} == {
        k: (type(v), v) for k, v in theirs.items()
    }


@pytest.mark.parametrize("value", [np.complex64(1j), np.datetime64("2024-01-01"), np.ones(2)])
def test_other_numpy_values_are_refused_by_name(value):
    with pytest.raises(TypeError, match=r"cannot save obj\['x'\]: numpy"):
        minigrad.save({"x": value}, _Sink())


class _Sink:
    def write(self, data: bytes) -> int:
        raise AssertionError("nothing may be written")
