"""Turn a tensor's numpy array into exactly the text PyTorch 2.x prints.

The rules below were worked out from what PyTorch prints (``repr(torch.tensor(...))``), so that a
learner who moves on to PyTorch sees the same text.  In short:

* **One style for the whole tensor.**  Every element is printed the same way and right-aligned to
  one width, so columns line up.  The style is chosen from the elements that are *shown* (after
  summarising) and, for floats, only from the nonzero finite ones:

  - integers and bools print as Python does (``3``, ``True``);
  - floats that are all whole numbers print as ``1.`` (the dot says "this is a float");
  - otherwise floats print with ``precision`` (4) decimals: ``0.5000``;
  - scientific notation (``1.0000e+10``) is used when the largest magnitude is more than 1000 times
    the smallest, or above 1e8, or the smallest is below 1e-4 (unless ``sci_mode`` forces it).

* **Nesting.**  Each dimension adds a bracket; rows of a matrix start on a new line indented under
  the first bracket, and each extra dimension adds a blank line between slices.

* **Long rows wrap** so that a line holds as many elements as fit in ``linewidth`` (80).

* **Summaries.**  Tensors with more than ``threshold`` (1000) elements show only the first and last
  ``edgeitems`` (3) entries of every long dimension, with ``...`` in between.

* **Suffixes** (``dtype=minigrad.float64``, ``requires_grad=True``, ...) follow the values and move
  to a new line when they would overflow ``linewidth``.

This module depends on numpy only, so any part of minigrad can import it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["format_tensor", "get_printoptions", "set_printoptions"]

# --------------------------------------------------------------------------------------------------
# Options: module-level state, like ``torch._tensor_str.PRINT_OPTS``.
# --------------------------------------------------------------------------------------------------

_PROFILES = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}

_OPTIONS: dict = {**_PROFILES["default"], "sci_mode": None}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Change how tensors print, with the same arguments as ``torch.set_printoptions``.

    ``profile`` ("default", "short" or "full") first resets the four numeric options; any option
    given explicitly then overrides it.  As in PyTorch, ``sci_mode`` is *always* assigned, so a
    call that leaves it out switches scientific notation back to automatic (None).
    """
    if profile is not None:
        _OPTIONS.update(_PROFILES.get(profile, {}))
    given = {
        "precision": precision,
        "threshold": threshold,
        "edgeitems": edgeitems,
        "linewidth": linewidth,
    }
    _OPTIONS.update({name: value for name, value in given.items() if value is not None})
    _OPTIONS["sci_mode"] = sci_mode


def get_printoptions() -> dict:
    """Return the current options as a dict that can be passed back to ``set_printoptions``."""
    return dict(_OPTIONS)


# --------------------------------------------------------------------------------------------------
# Choosing one style (how each element looks, and how wide) for the whole tensor.
# --------------------------------------------------------------------------------------------------

# numpy dtype names equal PyTorch's for every dtype minigrad supports.
_IMPLICIT_DTYPES = {"float32", "int64", "bool"}  # never shown for non-empty tensors


class _Style:
    """How every element of one tensor is printed: a ``kind`` and a common ``width``.

    kind is "plain" (ints and bools, printed as Python prints them), "whole" (floats that are all
    whole numbers: ``2.``), "fixed" (``2.5000``) or "sci" (``2.5000e+00``).
    """

    def __init__(self, kind: str, width: int = 1) -> None:
        self.kind = kind
        self.width = width

    def text(self, value: float | int | bool) -> str:
        """The element without padding.  inf and nan never get the dot of the "whole" style."""
        precision = _OPTIONS["precision"]
        if self.kind == "plain":
            return str(value)
        if self.kind == "sci":
            return f"{value:.{precision}e}"
        if self.kind == "whole":
            return f"{value:.0f}" + ("." if math.isfinite(value) else "")
        return f"{value:.{precision}f}"

    def format(self, value: float | int | bool) -> str:
        """The element right-aligned to the common width (longer ones, e.g. ``-inf``, overflow)."""
        return self.text(value).rjust(self.width)


def _choose_style(shown: np.ndarray) -> _Style:
    """Pick the style from the elements that will be shown.

    For floats, zeros, infs and nans take no part in the choice (nor in the width), so a tensor of
    only such values prints in the "whole" style with width 1: ``tensor([0., inf, nan])``.
    """
    values = shown.ravel()
    if values.dtype.kind != "f":
        return _Style("plain", max((len(str(v)) for v in values.tolist()), default=1))
    nonzero_finite = values[np.isfinite(values) & (values != 0)]
    if nonzero_finite.size == 0:
        return _Style("whole")
    magnitudes = np.abs(nonzero_finite).astype(np.float64)
    largest, smallest = float(magnitudes.max()), float(magnitudes.min())
    sci = _OPTIONS["sci_mode"]
    if sci is None:
        sci = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
    if sci:
        style = _Style("sci")
    elif np.all(nonzero_finite == np.ceil(nonzero_finite)):
        style = _Style("whole")
    else:
        style = _Style("fixed")
    style.width = max(1, max(len(style.text(v)) for v in nonzero_finite.tolist()))
    return style


def _shown_part(array: np.ndarray, edgeitems: int) -> np.ndarray:
    """The elements a summary shows: the first and last ``edgeitems`` of every long dimension."""
    for axis, size in enumerate(array.shape):
        if size > 2 * edgeitems:
            keep = list(range(edgeitems)) + list(range(size - edgeitems, size))
            array = np.take(array, keep, axis=axis)
    return array


# --------------------------------------------------------------------------------------------------
# Laying out the values: scalars, wrapped rows, nested brackets.
# --------------------------------------------------------------------------------------------------


def _format_row(row: np.ndarray, style: _Style, indent: int, summarize: bool) -> str:
    """A 1-d tensor: ``[a, b, c]``, wrapped so each line holds as many elements as fit.

    Every element counts as ``width + 2`` characters (the ", " after it) and the line starts at
    ``indent``; a summary puts `` ...`` in the middle, counted as one element.
    """
    edge = _OPTIONS["edgeitems"]
    if summarize and not edge:
        items = ["..."]
    elif summarize and len(row) > 2 * edge:
        head, tail = row[:edge].tolist(), row[len(row) - edge :].tolist()
        items = [style.format(v) for v in head] + [" ..."] + [style.format(v) for v in tail]
    else:
        items = [style.format(v) for v in row.tolist()]
    per_line = max(1, math.floor((_OPTIONS["linewidth"] - indent) / (style.width + 2)))
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _format_values(array: np.ndarray, style: _Style, indent: int, summarize: bool) -> str:
    """Any tensor: brackets within brackets, each level indented one more column.

    Slices of a d-dimensional tensor are separated by a comma and d-1 newlines (so 3-d slices have
    a blank line between them); a summary replaces the middle slices by ``...``.
    """
    if array.ndim == 0:
        return style.format(array.item())
    if array.ndim == 1:
        return _format_row(array, style, indent, summarize)
    edge, size = _OPTIONS["edgeitems"], array.shape[0]
    if summarize and size > 2 * edge:
        head = [_format_values(array[i], style, indent + 1, summarize) for i in range(edge)]
        tail = [
            _format_values(array[i], style, indent + 1, summarize) for i in range(size - edge, size)
        ]
        slices = head + ["..."] + tail
    else:
        slices = [_format_values(sub, style, indent + 1, summarize) for sub in array]
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(slices) + "]"


# --------------------------------------------------------------------------------------------------
# The full repr.
# --------------------------------------------------------------------------------------------------


def _add_suffixes(text: str, suffixes: Sequence[str], indent: int) -> str:
    """Append ``, suffix`` items and the closing parenthesis.

    A suffix moves to a new line (indented under the prefix) when the current last line, counted
    as its length + 2, plus the suffix and its ", " would exceed ``linewidth``.  The bookkeeping
    deliberately mirrors PyTorch's, off-by-ones included, so wrapping happens at the same place.

    For the same reason a suffix is measured as PyTorch would write it: ``dtype=minigrad.int8``
    counts as ``dtype=torch.int8``, three characters shorter.  Otherwise a line that just fits in
    PyTorch would wrap in minigrad, and the two outputs would differ by more than the name.
    """
    parts = [text]
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        length = len(suffix.replace("minigrad.", "torch."))
        if line_length + length + 2 > _OPTIONS["linewidth"]:
            parts.append(",\n" + " " * indent + suffix)
            line_length = indent + length
        else:
            parts.append(", " + suffix)
            line_length += length + 2
    return "".join(parts) + ")"


def format_tensor(array: np.ndarray, suffixes: Sequence[str] = (), prefix: str = "tensor(") -> str:
    """The full repr: prefix + formatted values + ', '-joined suffixes + ')'.

    ``suffixes`` are the caller's items (``requires_grad=True``, ``grad_fn=<MulBackward0>``); the
    ones that depend on the data come first, in PyTorch's order:

    * ``size=(...)`` for an empty tensor that is not 1-d (an empty 1-d tensor is just ``[]``), and
      for every tensor when ``edgeitems`` is 0 (its values are then all hidden behind ``...``);
    * ``dtype=minigrad.X`` unless the dtype is implied by the values: float32 (the default), int64
      and bool are implied, but an empty tensor has no values to imply anything, so it shows every
      dtype except float32.
    """
    array = np.asarray(array)
    dtype_suffix = f"dtype=minigrad.{array.dtype.name}"
    indent = len(prefix)
    data_suffixes = []
    if array.size == 0:
        if array.ndim != 1:
            data_suffixes.append(f"size={tuple(array.shape)}")
        if array.dtype.name != "float32":
            data_suffixes.append(dtype_suffix)
        body = "[]"
    else:
        if not _OPTIONS["edgeitems"]:
            data_suffixes.append(f"size={tuple(array.shape)}")
        if array.dtype.name not in _IMPLICIT_DTYPES:
            data_suffixes.append(dtype_suffix)
        summarize = array.size > _OPTIONS["threshold"]
        shown = _shown_part(array, _OPTIONS["edgeitems"]) if summarize else array
        body = _format_values(array, _choose_style(shown), indent, summarize)
    return _add_suffixes(prefix + body, [*data_suffixes, *suffixes], indent)
