"""Labels stay small for any tensor, and a failing ``dot`` says what happened (issue 10).

An empty ``(100000, 0)`` tensor used to get a 400,000-character label, which
made ``dot`` crash, and the learner was then told to install Graphviz. Every
piece of text a view shows has a bound (``widgets.fmt``); these tests check
it with Hypothesis over shapes, dtypes and values, names included.
"""

from __future__ import annotations

import os
import stat

import numpy as np
import pytest
from conftest import require_program
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad
import widgets
from widgets import GraphView, draw
from widgets.dot import DotFailed, DotMissing, render_svg, to_digraph, to_text
from widgets.fmt import CAPTION_CHARS, NAME_CHARS, SHAPE_CHARS, VALUE_CHARS, shape_text, short

DOT_LINE = 1200  # one box or arrow of the DOT source, HTML markup included
TEXT_LINE = 2 * NAME_CHARS + SHAPE_CHARS + 2 * VALUE_CHARS + 40  # one line of the text drawing

SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e38, -1e-38, 3.5, 2.0**100]


@st.composite
def arrays(draw_):
    """Arrays of any dtype a tensor may have, empty ones with huge dimensions included."""
    kind = draw_(st.sampled_from(["float32", "float64", "int64", "int32", "bool"]))
    ndim = draw_(st.integers(0, 9) | st.sampled_from([32, 64]))
    if ndim > 9:
        shape = [1] * ndim
    else:
        shape = draw_(st.lists(st.integers(0, 6), min_size=ndim, max_size=ndim))
        if ndim and draw_(st.booleans()):  # an empty tensor with one huge dimension
            shape[draw_(st.integers(0, ndim - 1))] = 0
            shape[draw_(st.integers(0, ndim - 1))] = draw_(st.integers(0, 100_000))
    if int(np.prod(shape)) > 20_000:
        shape[0] = 0
    if kind == "bool":
        values = draw_(st.lists(st.booleans(), min_size=1, max_size=8))
    elif kind.startswith("int"):
        values = draw_(st.lists(st.integers(-(2**31), 2**31 - 1), min_size=1, max_size=8))
    else:
        numbers = st.floats(allow_nan=True, allow_infinity=True, width=32) | st.sampled_from(
            SPECIAL
        )
        values = draw_(st.lists(numbers, min_size=1, max_size=8))
    with np.errstate(over="ignore", invalid="ignore"):
        return np.resize(np.array(values, dtype=kind), shape)


_letters = st.characters(categories=("Lu", "Ll", "Lo")) | st.just("_")
# drawn as identifiers (a filter over any text threw most draws away: a failed health check)
names = st.builds(
    str.__add__, _letters, st.text(_letters | st.characters(categories=("Nd",)), max_size=999)
).filter(str.isidentifier)


@given(arrays())
@settings(max_examples=200, deadline=None)
def test_every_value_and_shape_text_has_a_bound(array):
    assert len(short(array)) <= VALUE_CHARS
    assert len(short(array, 16)) <= VALUE_CHARS * 16 // 6
    assert len(shape_text(array.shape)) <= SHAPE_CHARS
    assert "\n" not in short(array)


@given(arrays(), names)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_label_of_a_drawing_is_small(array, name):
    t = minigrad.tensor(array)
    trainable = array.dtype.kind == "f"
    if trainable:
        t.requires_grad_(True)
        out = (t * 2).sum()
    else:
        out = t
    picture = draw(out, names={name: t, "out": out}, show_saved=True)
    for line in picture.body:
        assert len(line) <= DOT_LINE, line[:200]
    for line in to_text(picture.graph_info).splitlines():
        assert len(line) <= TEXT_LINE, line[:200]
    if trainable:
        view = GraphView(out, names={name: t, "out": out})
        out.backward()
        steps = view.walk.steps
        assert steps and all(len(s["text"]) <= CAPTION_CHARS for s in steps)
        for line in to_digraph(view.graph, view.walk, animate=True).body:
            assert len(line) <= DOT_LINE, line[:200]
        view.close()


def test_an_empty_tensor_with_a_huge_dimension_draws_at_once():
    require_program("dot")
    x = minigrad.zeros(100000, 0, requires_grad=True)
    out = (x * 2).sum()
    picture = draw(out)
    assert max(len(line) for line in picture.body) <= DOT_LINE
    svg = render_svg(picture)
    assert "[100000, 0]" in svg and len(svg) < 20_000


def fake_dot(folder, script: str) -> None:
    path = folder / "dot"
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_when_dot_fails_the_message_says_how_not_to_install_it(monkeypatch, tmp_path):
    fake_dot(tmp_path, 'echo "Error: trouble in layout, giving up" >&2\nexit 3\n')
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ["PATH"])
    v = minigrad.tensor([1.0, 2.0], requires_grad=True)
    out = (v * v).sum()
    picture = draw(out)
    with pytest.raises(DotFailed) as failed:
        render_svg(picture)
    message = str(failed.value)
    assert "exit code 3" in message and "trouble in layout, giving up" in message
    assert "apt-get" not in message and "brew" not in message
    data = picture._repr_mimebundle_()
    assert "exit code 3" in data["text/plain"] and "apt-get" not in data["text/plain"]
    assert "MulBackward0" in data["text/plain"]  # the text drawing instead
    view = GraphView(out)
    view.flush()
    assert "exit code 3" in view.note and "trouble in layout" in view.note
    assert view.svg == "" and "MulBackward0" in view.text
    view.close()


def test_a_crashing_dot_and_a_flood_on_stderr_are_reported_briefly(monkeypatch, tmp_path):
    fake_dot(tmp_path, "yes 'Error: boom' | head -c 100000 >&2\nkill -SEGV $$\n")
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ["PATH"])
    v = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(DotFailed) as failed:
        render_svg(draw((v * v).sum()))
    message = str(failed.value)
    assert "stopped by signal 11" in message and "Error: boom" in message
    assert len(message) < 1000


def test_a_missing_dot_still_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    v = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(DotMissing) as missing:
        render_svg(draw((v * v).sum()))
    assert "apt-get install graphviz" in str(missing.value)


def test_the_text_drawing_bounds_a_long_name():
    v = minigrad.tensor([1.0, 2.0], requires_grad=True)
    out = (v * v).sum()
    text = widgets.draw(out, names={"v" * 5000: v}).text()
    assert max(len(line) for line in text.splitlines()) <= TEXT_LINE
