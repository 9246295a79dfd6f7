"""A look at JSON's brackets before ``json.loads`` builds anything: numpy, in chunks, no objects.

``json.loads`` builds every value a text describes before anyone can check it: three bytes
``{},`` become a 64-byte dict, so 95 MB of them need gigabytes. This scan finds, for every
byte, whether it is inside a string (quotes, and backslash escapes before quotes, handled as
JSON does) and the nesting depth after it, a megabyte at a time with numpy, so that the caller
can refuse a text by its shape first. Memory stays a few arrays the size of a chunk.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

__all__ = ["Chunk", "chunks"]

_CHUNK = 1 << 18
_QUOTE, _BACKSLASH = ord('"'), ord("\\")
_STRUCTURAL = np.zeros(256, bool)
_STRUCTURAL[list(b"{}[],:")] = True
_STEP = np.zeros(256, np.int32)
_STEP[list(b"{[")] = 1
_STEP[list(b"}]")] = -1


class Chunk:
    """The structural bytes (``{}[],:`` outside strings) of one chunk, in order.

    ``char`` holds them, ``depth`` the nesting depth after each (1 inside the outer value).
    """

    __slots__ = ("char", "depth", "opens")

    def __init__(self, char: np.ndarray, depth: np.ndarray) -> None:
        self.char = char
        self.depth = depth
        self.opens = (char == ord("{")) | (char == ord("["))


def chunks(text: bytes) -> Iterator[Chunk]:
    """The text's chunks in order; a negative depth means a closing bracket had no opener."""
    data = np.frombuffer(text, np.uint8)
    in_string = 0  # 1 when the previous chunk ended inside a string
    backslashes = 0  # the run of backslashes that ended the previous chunk
    depth = 0
    for start in range(0, len(data), _CHUNK):
        byte = data[start : start + _CHUNK]
        quotes = np.flatnonzero(byte == _QUOTE)
        quotes, backslashes = _unescaped(byte, quotes, backslashes)
        candidates = np.flatnonzero(_STRUCTURAL[byte])
        inside = (np.searchsorted(quotes, candidates) + in_string) % 2 == 1
        char = byte[candidates[~inside]]
        level = np.cumsum(_STEP[char], dtype=np.int64) + depth
        yield Chunk(char, level)
        in_string = (in_string + len(quotes)) % 2
        if len(level):
            depth = int(level[-1])


def _unescaped(byte: np.ndarray, quotes: np.ndarray, carried: int) -> tuple[np.ndarray, int]:
    """The quotes not escaped by an odd run of backslashes, and the run that ends the chunk."""
    slashes = np.flatnonzero(byte == _BACKSLASH)
    if len(slashes) == 0:
        if len(quotes) and quotes[0] == 0 and carried % 2:
            quotes = quotes[1:]
        return quotes, 0
    starts = np.ones(len(slashes), bool)
    starts[1:] = np.diff(slashes) != 1
    run_start = slashes[starts][np.cumsum(starts) - 1]  # where each backslash's run began
    run_length = slashes - run_start + 1 + np.where(run_start == 0, carried, 0)
    before = np.searchsorted(slashes, quotes) - 1  # the last backslash before each quote
    adjacent = (before >= 0) & (slashes[before.clip(0)] == quotes - 1)
    run = np.where(adjacent, run_length[before.clip(0)], np.where(quotes == 0, carried, 0))
    ending = int(run_length[-1]) if slashes[-1] == len(byte) - 1 else 0
    return quotes[run % 2 == 0], ending
