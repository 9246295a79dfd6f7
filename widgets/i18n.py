"""The widgets' own words, in the language a lesson asks for.

A lesson in Simplified Chinese calls ``widgets.set_language("zh-CN")`` once (or
passes ``lang="zh-CN"`` to one view); English is the default. Only the widgets'
own text is translated: buttons, step captions, notes, the no-``dot`` help.
What comes from the engine or the learner stays as it is: PyTorch's node
names (``MulBackward0``), ``grad``, ``backward()``, variable names, values.

One table per language, the same keys in each (a test checks it); a view
picks its language when it is made and formats its text when it draws.
"""

from __future__ import annotations

__all__ = ["LANGUAGES", "set_language", "get_language", "resolve", "text", "browser_labels"]

LANGUAGES = ("en", "zh-CN")
_ALIASES = {
    "en": "en",
    "en-us": "en",
    "en-gb": "en",
    "english": "en",
    "zh": "zh-CN",
    "zh-cn": "zh-CN",
    "zh-hans": "zh-CN",
    "zh-hans-cn": "zh-CN",
    "zh_cn": "zh-CN",
}
_current = "en"

_EN = {
    # buttons and the browser's own captions (static/graph_view.js)
    "step": "Step",
    "play": "Play",
    "pause": "Pause",
    "reset": "Reset",
    "step_title": "Run the next node of the backward pass",
    "play_title": "Run the backward pass node by node",
    "reset_title": "Go back to before the backward pass",
    "counter": "step {k} / {n}",
    "no_steps": "no steps",
    "no_graph": "Nothing to step through: this tensor has no graph.",
    "before": "Before backward().",
    "before_recorded": "Before backward(): no gradient has moved yet.",
    # what the view says before any step is taken (graph_view.py)
    "fresh_predicted": (
        "backward() will run {n} steps. Step shows the order it will take; "
        "call backward() to see the gradients."
    ),
    "fresh_freed": (
        "backward() already ran through this graph before this view was made: the grads shown "
        "are its result. Step shows the order it took ({n} steps), without values. (A second "
        "backward() here would fail: the first one freed the saved values.)"
    ),
    "fresh_had_grads": (
        "The grads shown come from backward() calls made before this view. Step shows the order "
        "backward() takes ({n} steps); call backward() to watch a pass (gradients add up)."
    ),
    "fresh_recorded": "backward() ran {n} steps. Press Step or Play to replay it.",
    "outside": ("The last backward pass started outside this graph: only its part here is shown."),
    "view_error": "The graph view could not follow this backward pass: {error}",
    "hidden": "This view was closed or replaced.",
    # step captions (walk.py)
    "will_add": "{node} will add the gradient that arrives into {leaf}.grad",
    "will_send": "{node} will send a gradient to {targets}",
    "and": " and ",
    "nothing": "nothing",
    "acc_was_none": "{node}: {leaf}.grad was None, is now {after}",
    "acc_adds": "{node}: {leaf}.grad was {before}, adds {grad}, is now {after}",
    "acc_captured": (
        "{node}: {grad} reached {leaf} and autograd.grad() returns it; {leaf}.grad stays {before}"
    ),
    "sent": "{node} received {grad} and sent {parts}",
    "sent_part": "{value} to {dst}",
    "twice": " (twice)",
    "times": " ({n} times)",
    "received_none": "{node} received no gradient",
    "folded_one": "1 node runs inside the folded part",
    "folded_many": "{n} nodes run inside the folded part",
    # boxes and notes (graph.py, dot.py)
    "output": "output",
    "a_tensor": "a tensor",
    "scalar": "scalar",
    "no_grad": "no grad",
    "saved": "saved",
    "version": "version {v}",
    "modified": ", now {now}: modified in place!",
    "freed": "(saved values freed)",
    "more_nodes": "… {n} more nodes",
    "folded_note": (
        "This graph has {total} backward nodes; the {shown} nearest the output are drawn and "
        "the rest are folded into one box. Pass max_nodes= to draw more."
    ),
    "no_graph_note": (
        "This tensor does not require grad, so autograd recorded no graph behind it."
    ),
    "see_above": " (see above)",
    "dot_missing": (
        "Graphviz's 'dot' program was not found, so the graph is shown as text. "
        "The Python package 'graphviz' only writes the graph; drawing it needs the program. "
        "Install it, then restart the kernel:\n"
        "  Debian/Ubuntu:  sudo apt-get install graphviz\n"
        "  macOS:          brew install graphviz\n"
        "  conda:          conda install -c conda-forge graphviz\n"
        "  Windows:        winget install graphviz   (or: choco install graphviz), "
        "and add its bin folder to PATH"
    ),
    "dot_failed": (
        "Graphviz's 'dot' program is installed but could not draw this graph "
        "({how}), so the graph is shown as text. dot said: {said}"
    ),
    "exit_code": "exit code {code}",
    "killed": "stopped by signal {signal}",
    "said_nothing": "(nothing)",
}

_ZH = {
    "step": "单步",
    "play": "播放",
    "pause": "暂停",
    "reset": "重置",
    "step_title": "执行反向传播的下一个节点",
    "play_title": "一个节点一个节点地播放反向传播",
    "reset_title": "回到反向传播开始之前",
    "counter": "第 {k} 步，共 {n} 步",
    "no_steps": "没有步骤",
    "no_graph": "没有可以单步查看的内容：这个张量背后没有计算图。",
    "before": "backward() 之前。",
    "before_recorded": "backward() 之前：梯度还没有开始流动。",
    "fresh_predicted": (
        "backward() 将运行 {n} 步。按「单步」可以看到它将按什么顺序经过各个节点；"
        "调用 backward() 就能看到梯度。"
    ),
    "fresh_freed": (
        "这个视图创建之前，backward() 已经在这个计算图上运行过：图中显示的 grad 就是它的结果。"
        "「单步」按它走过的顺序显示这 {n} 步，但不显示当时传递的值。"
        "（在这里再调用一次 backward() 会出错：第一次已经释放了保存的值。）"
    ),
    "fresh_had_grads": (
        "图中显示的 grad 来自这个视图创建之前调用的 backward()。「单步」显示 backward() "
        "经过各节点的顺序（{n} 步）；调用 backward() 就能看到一次反向传播（梯度会累加）。"
    ),
    "fresh_recorded": "backward() 运行了 {n} 步。按「单步」或「播放」重放。",
    "outside": "上一次反向传播是从这个计算图之外开始的：这里只显示它经过本图的部分。",
    "view_error": "计算图视图没能跟上这次反向传播：{error}",
    "hidden": "这个视图已关闭或已被替换。",
    "will_add": "{node} 将把传到它的梯度加到 {leaf}.grad 上",
    "will_send": "{node} 将把梯度传给 {targets}",
    "and": "和",
    "nothing": "（无）",
    "acc_was_none": "{node}：{leaf}.grad 原来是 None，现在是 {after}",
    "acc_adds": "{node}：{leaf}.grad 原来是 {before}，加上 {grad}，现在是 {after}",
    "acc_captured": (
        "{node}：{grad} 到达 {leaf}，由 autograd.grad() 返回；{leaf}.grad 仍是 {before}"
    ),
    "sent": "{node} 收到 {grad}，传出 {parts}",
    "sent_part": "{value} 给 {dst}",
    "twice": "（两次）",
    "times": "（{n} 次）",
    "received_none": "{node} 没有收到梯度",
    "folded_one": "折叠部分里运行了 1 个节点",
    "folded_many": "折叠部分里运行了 {n} 个节点",
    "output": "输出",
    "a_tensor": "一个张量",
    "scalar": "标量",
    "no_grad": "不需要梯度",
    "saved": "保存的值",
    "version": "版本 {v}",
    "modified": "，现在是 {now}：被原地修改了！",
    "freed": "（保存的值已释放）",
    "more_nodes": "… 另外 {n} 个节点",
    "folded_note": (
        "这个计算图有 {total} 个反向节点；画出了离输出最近的 {shown} 个，其余折叠成一个框。"
        "传入 max_nodes= 可以画出更多。"
    ),
    "no_graph_note": "这个张量不需要梯度，所以 autograd 没有在它背后记录计算图。",
    "see_above": "（见上）",
    "dot_missing": (
        "没有找到 Graphviz 的 dot 程序，所以计算图以文本显示。"
        "Python 包 graphviz 只负责写出计算图，画图需要 dot 程序。安装后重启内核：\n"
        "  Debian/Ubuntu:  sudo apt-get install graphviz\n"
        "  macOS:          brew install graphviz\n"
        "  conda:          conda install -c conda-forge graphviz\n"
        "  Windows:        winget install graphviz   （或 choco install graphviz），"
        "并把它的 bin 文件夹加入 PATH"
    ),
    "dot_failed": (
        "Graphviz 的 dot 程序已经安装，但没能画出这个计算图（{how}），所以以文本显示。"
        "dot 的输出：{said}"
    ),
    "exit_code": "退出码 {code}",
    "killed": "被信号 {signal} 终止",
    "said_nothing": "（无输出）",
}

_TABLES = {"en": _EN, "zh-CN": _ZH}

# What the browser side needs (static/graph_view.js fills in {k} and {n} itself).
_BROWSER_KEYS = (
    "step", "play", "pause", "reset", "step_title", "play_title", "reset_title",
    "counter", "no_steps", "no_graph", "before", "before_recorded",
)  # fmt: skip


def resolve(lang: str | None = None) -> str:
    """The language code for ``lang`` (None: the current one); ValueError if unknown."""
    if lang is None:
        return _current
    code = _ALIASES.get(str(lang).strip().lower().replace("_", "-"))
    if code is None:
        raise ValueError(
            f"widgets speak {' and '.join(LANGUAGES)}; got language {lang!r} "
            "(for Simplified Chinese use 'zh-CN')"
        )
    return code


def set_language(lang: str) -> str:
    """Make ``lang`` (``"en"`` or ``"zh-CN"``) the language of views made from now on.

    Returns the previous language, so a caller can put it back.
    """
    global _current
    previous, _current = _current, resolve(lang)
    return previous


def get_language() -> str:
    """The language new views use: ``"en"`` unless ``set_language`` changed it."""
    return _current


def text(key: str, lang: str | None = None, **values: object) -> str:
    """The widgets' sentence ``key`` in ``lang``, with ``values`` filled in."""
    template = _TABLES[resolve(lang)][key]
    return template.format(**values) if values else template


def browser_labels(lang: str | None = None) -> dict[str, str]:
    """The words the browser side shows, for the view's ``labels`` trait."""
    table = _TABLES[resolve(lang)]
    return {key: table[key] for key in _BROWSER_KEYS}
