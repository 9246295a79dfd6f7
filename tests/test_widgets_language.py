"""The widgets' own words follow the lesson's language; captions are true (issue 11).

English by default, Simplified Chinese when a lesson asks for it
(``widgets.set_language("zh-CN")`` or ``lang=``). Node names, ``grad``,
``backward()`` and values stay as they are in both.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import require_program

import minigrad
import widgets
from widgets import GraphView, SliderView, draw, i18n
from widgets.dot import DotMissing
from widgets.sliders import entry_name

CJK = re.compile(r"[\u4e00-\u9fff]")


def seed():
    v = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    return v, minigrad.mean(v * v)


@pytest.fixture
def chinese():
    previous = widgets.set_language("zh-CN")
    yield
    widgets.set_language(previous)


def test_both_tables_have_the_same_sentences_with_the_same_blanks():
    en, zh = i18n._TABLES["en"], i18n._TABLES["zh-CN"]
    assert en.keys() == zh.keys()
    blanks = re.compile(r"\{(\w+)\}")
    for key in en:
        assert sorted(blanks.findall(en[key])) == sorted(blanks.findall(zh[key])), key


def test_english_is_the_default_and_languages_have_aliases():
    assert widgets.get_language() == "en"
    assert i18n.resolve("zh") == i18n.resolve("zh_CN") == i18n.resolve("zh-Hans") == "zh-CN"
    with pytest.raises(ValueError, match="zh-CN"):
        widgets.set_language("fr")
    assert widgets.get_language() == "en"


def test_the_view_speaks_chinese_when_the_lesson_asks(chinese):
    v, out = seed()
    view = GraphView(out)
    assert view.lang == "zh-CN"
    assert view.labels["step"] == "单步" and view.labels["play"] == "播放"
    assert view.labels["reset"] == "重置" and view.labels["pause"] == "暂停"
    predicted = view.walk
    assert predicted.steps[0]["text"] == "MeanBackward0 将把梯度传给 MulBackward0"
    view._draw()  # what a display does
    assert "调用 backward()" in view.caption and "梯度" in view.caption
    out.backward()
    view.flush()
    mean, mul, acc = view.steps
    assert mul["text"] == (
        "MulBackward0 收到 [[0.25, 0.25], [0.25, 0.25]]，传出 [[0.25, 0.5], [0.75, 1]] 给 v（两次）"
    )
    assert acc["text"] == "AccumulateGrad：v.grad 原来是 None，现在是 [[0.5, 1], [1.5, 2]]"
    assert view.caption == "backward() 运行了 3 步。按「单步」或「播放」重放。"
    view.close()


def test_lang_argument_wins_over_the_global_language(chinese):
    v, out = seed()
    view = GraphView(out, lang="en")
    assert view.labels["step"] == "Step"
    view.close()
    english = GraphView(out)
    assert english.labels["step"] == "单步"
    english.close()


def test_no_dot_message_and_text_drawing_in_chinese(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    v, out = seed()
    picture = draw(out, lang="zh-CN")
    data = picture._repr_mimebundle_()
    assert "没有找到 Graphviz 的 dot 程序" in data["text/plain"]
    assert "sudo apt-get install graphviz" in data["text/plain"]  # commands stay commands
    assert str(DotMissing(lang="en")).startswith("Graphviz's 'dot' program was not found")
    view = GraphView(out, lang="zh-CN")
    view.flush()
    assert "重启内核" in view.note and "MulBackward0" in view.text
    view.close()


def test_folded_graph_note_and_boxes_in_chinese():
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(200):
        y = y * 1.001
    picture = draw(y, lang="zh-CN")
    assert "个反向节点" in picture.graph_info.note and "max_nodes=" in picture.graph_info.note
    assert "另外 51 个节点" in picture.source
    assert "标量" in picture.source  # x is 0-d


def test_english_captions_unchanged():
    v, out = seed()
    view = GraphView(out)
    view.flush()
    assert view.labels["step"] == "Step"
    assert view.caption == (
        "backward() will run 3 steps. Step shows the order it will take; "
        "call backward() to see the gradients."
    )
    view.close()


# -- lesson 0's trip: a view drawn after backward() says what it shows ---------------------


def test_a_view_made_after_backward_does_not_ask_for_backward():
    v, out = seed()
    out.backward()
    view = GraphView(out)
    view.flush()
    assert view.predicted  # nothing recorded: the pass ran before the view existed
    assert "call backward() to see" not in view.caption
    assert view.caption.startswith("backward() already ran through this graph")
    assert "grad [[0.5, 1], [1.5, 2]]" in view.dot_source  # what it says it shows
    with pytest.raises(RuntimeError, match="second time"):
        out.backward()  # why it does not ask for another one
    view.close()


def test_a_view_made_after_a_retained_backward_says_gradients_add_up():
    v, out = seed()
    out.backward(retain_graph=True)
    view = GraphView(out)
    view.flush()
    assert "add up" in view.caption and "call backward() to see" not in view.caption
    out.backward()  # allowed: the view records it
    view.flush()
    assert view.caption.startswith("backward() ran 3 steps")
    assert view.steps[-1]["cells"][0][1:] == ["grad [[0.5, 1], [1.5, 2]]", "grad [[1, 2], [3, 4]]"]
    view.close()


def test_a_view_made_after_backward_in_chinese(chinese):
    v, out = seed()
    out.backward()
    view = GraphView(out)
    view.flush()
    assert (
        "已经在这个计算图上运行过" in view.caption
        and "调用 backward() 就能看到梯度" not in view.caption
    )
    view.close()


# -- slider labels ---------------------------------------------------------------------------


def test_slider_labels_read_like_indexing():
    assert entry_name("x", np.unravel_index(3, (2, 2))) == "x[1, 1]"
    assert entry_name("x", np.unravel_index(2, (3,))) == "x[2]"
    assert entry_name("x", ()) == "x"
    sv = SliderView()
    assert [s.description for s in sv.sliders] == ["x[0, 0]", "x[0, 1]", "x[1, 0]", "x[1, 1]"]
    width = int(sv.sliders[0].style.description_width.rstrip("px"))
    assert width >= 8 * len("x[0, 0]")  # the whole label shows, never "x[np.i…"
    sv.close()
    deep = SliderView(np.ones((2, 2, 2)))
    assert deep.sliders[-1].description == "x[1, 1, 1]"
    deep.close()
    scalar = SliderView(2.0)
    assert [s.description for s in scalar.sliders] == ["x"]
    scalar.close()


def test_slider_view_in_chinese():
    sv = SliderView(lang="zh-CN")
    assert sv.view.labels["step"] == "单步"
    sv.view.flush()
    assert CJK.search(sv.view.caption)
    sv.close()


def test_every_browser_word_is_sent():
    v, out = seed()
    view = GraphView(out)
    js = (widgets.graph_view._STATIC / "graph_view.js").read_text()
    used = set(re.findall(r'say\("(\w+)"', js))
    assert used <= set(view.labels), used - set(view.labels)
    assert not re.search(r'"(Step|Play|Pause|Reset)"', js)  # no English left in the browser
    view.close()


def test_require_dot_for_svg_language_in_boxes():
    require_program("dot")
    v, out = seed()
    view = GraphView(out, lang="zh-CN", show_saved=True)
    view.flush()
    assert "保存的值" in view.svg and "版本 0" in view.svg
    view.close()
