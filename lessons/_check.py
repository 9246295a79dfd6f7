"""Answer checks for the lessons' "Your turn" exercises, in English and in Chinese.

In a lesson you write ``check("basket", answer)``: the function registered
below under that name looks at your answer and prints "Correct!" or a hint.
Peeking here is allowed, but try first: the hints are written for you.

One set of rules, two sets of words: each checker returns ``(True, remark)``
or ``(False, hint)``, where the remark or hint is a ``say(en=..., zh=...)``
holding both wordings side by side. ``check`` prints the one of its
``language`` ("en" here; ``zh-CN/_check.py``, which the Chinese lessons
import, is this same file with ``language="zh-CN"``). A checker never raises
at you, and an answer left as ``...`` (or a cell whose own line is still
``...``) only gets a reminder to fill it in, never the answer.
"""

from __future__ import annotations

import inspect
import linecache
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import minigrad

LANGUAGES = ("en", "zh-CN")


@dataclass(frozen=True)
class Words:
    """The same remark in each language of the lessons."""

    en: str
    zh: str

    def in_(self, language: str) -> str:
        return self.zh if language == "zh-CN" else self.en


def say(en: str, zh: str) -> Words:
    return Words(en, zh)


NOT_ATTEMPTED = say(
    "Replace the ... with your answer, then run this cell again.",
    "把 ... 换成你的答案，再运行一次这个单元格。",
)
CORRECT = say("Correct!", "答对了！")
NOT_YET = say("Not yet.", "还不对。")

_CHECKERS: dict[str, Callable] = {}
_WANTS_SOURCE: set[str] = set()


def exercise(name: str, source: bool = False):
    """Register a checker under ``name``; ``source=True`` also hands it the cell's code."""

    def register(fn: Callable) -> Callable:
        _CHECKERS[name] = fn
        if source:
            _WANTS_SOURCE.add(name)
        return fn

    return register


class _NotAttempted(Exception):
    """A checker found a ... inside the answer (e.g. a backward returning ...)."""


_BARE_ELLIPSIS = re.compile(r"^\s*\.\.\.\s*(#.*)?$", re.M)


def verdict(
    name: str, answer, *given, language: str = "en", source: str | None = None
) -> tuple[bool | None, str]:
    """(True, remark), (False, hint), or (None, reminder) when not attempted yet.

    ``given`` are objects from the exercise the checker needs to see (e.g. the
    tensor your answer should share memory with); ``source`` is the code of the
    cell that asks, when known (a line that is still ``...`` means "not yet").
    """
    if answer is ... or (source is not None and _BARE_ELLIPSIS.search(source)):
        return None, NOT_ATTEMPTED.in_(language)
    if name not in _CHECKERS:
        return False, say(
            f"There is no exercise called {name!r}. Did you change the check(...) line?",
            f"没有叫 {name!r} 的练习。你是不是改动了 check(...) 这一行？",
        ).in_(language)
    kwargs = {"source": _code_only(source)} if name in _WANTS_SOURCE else {}
    try:
        ok, message = _CHECKERS[name](answer, *given, **kwargs)
    except _NotAttempted:
        return None, NOT_ATTEMPTED.in_(language)
    except Exception as err:  # a wrong answer must never crash the lesson
        return False, say(
            f"Checking your answer raised {type(err).__name__}: {err}",
            f"检查你的答案时出现了 {type(err).__name__}: {err}",
        ).in_(language)
    return bool(ok), message.in_(language)


def check(name: str, answer, *given, language: str = "en") -> None:
    """Print "Correct!" or a hint for exercise ``name``, in ``language``."""
    ok, message = verdict(name, answer, *given, language=language, source=_asking_cell())
    gap = "" if language == "zh-CN" else " "  # Chinese puts no space after 。or !
    if ok:
        print(f"{CORRECT.in_(language)}{gap}{message}".rstrip())
    elif ok is None:
        print(message)
    else:
        print(f"{NOT_YET.in_(language)}{gap}{message}")


def _asking_cell() -> str | None:
    """The code of the notebook cell that called check, if Python kept it.

    A cell runs as module-level code ("<module>"); a call from inside a function
    (a test, a script's helper) has no cell, and the answer alone decides.
    """
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.endswith("_check.py"):
        frame = frame.f_back
    if frame is None or frame.f_code.co_name != "<module>":
        return None
    lines = linecache.getlines(frame.f_code.co_filename, frame.f_globals)
    return "".join(lines) or None


def _code_only(source: str | None) -> str:
    """The cell's code without comments, so that a comment never counts as an answer."""
    if not source:
        return ""
    return "\n".join(line.split("#", 1)[0] for line in source.splitlines())


# -- small helpers --------------------------------------------------------------------------


def _is_tensor(x) -> bool:
    return isinstance(x, minigrad.Tensor)


def _type(x) -> str:
    return type(x).__name__


def _values(x) -> list | float:
    """A tensor, array, list or number as plain Python values."""
    if _is_tensor(x):
        return x.detach().tolist()
    return np.asarray(x, dtype=float).tolist()


def _close(a, b, tol: float = 1e-4) -> bool:
    try:
        a, b = np.asarray(_values(a), dtype=float), np.asarray(_values(b), dtype=float)
    except (TypeError, ValueError):
        return False
    return a.shape == b.shape and bool(np.allclose(a, b, atol=tol, rtol=tol))


def _close_scalar(answer, expected: float, tol: float = 1e-4) -> bool:
    if isinstance(answer, str):
        return False  # "42" is text, not the number 42
    try:
        values = np.asarray(_values(answer), dtype=float).ravel()
    except (TypeError, ValueError):
        return False  # not a number: the checker's hint says what to write
    return values.size == 1 and abs(values[0] - expected) <= tol


def _shares_memory_with(answer, *tensors) -> bool:
    return any(np.shares_memory(np.asarray(answer), t.detach().numpy()) for t in tensors)


def _through_data(source: str) -> bool:
    return re.search(r"\.data\b", source) is not None


# -- lesson 0: start here -------------------------------------------------------------------------


@exercise("warm-up")
def _warm_up(answer):
    if _close_scalar(answer, 42, tol=0):
        return True, say("That is how every exercise works.", "每个练习都是这样做的。")
    return False, say(
        "6 * 7 is Python for 6 × 7: put it after answer =.",
        "6 * 7 就是 Python 写的 6 × 7：把它写在 answer = 后面。",
    )


@exercise("first-tensor")
def _first_tensor(answer):
    if not _is_tensor(answer):
        return False, say(
            f"That is a {_type(answer)}, not a tensor. Wrap the list in minigrad.tensor(...).",
            f"这是一个 {_type(answer)}，不是张量。用 minigrad.tensor(...) 把列表包起来。",
        )
    if answer.tolist() != [1, 2, 3]:
        return False, say(
            f"It holds {answer.tolist()}; it should hold 1, 2 and 3.",
            f"它装的是 {answer.tolist()}；应该是 1、2、3。",
        )
    return True, say(f"It prints as {answer!r}.", f"它打印出来是 {answer!r}。")


# -- lesson 1: eggs and baskets ------------------------------------------------------------------


@exercise("basket")
def _basket(answer):
    if not _is_tensor(answer):
        return False, say(
            f"Your answer is a {_type(answer)}, not a tensor. Start from minigrad.tensor(...).",
            f"你的答案是 {_type(answer)}，不是张量。从 minigrad.tensor(...) 开始。",
        )
    if answer.tolist() != [5.0, 6.0, 7.0]:
        return False, say(
            f"The basket should hold the eggs [5., 6., 7.]; yours holds {answer.tolist()}.",
            f"篮子里应该是鸡蛋 [5., 6., 7.]；你的是 {answer.tolist()}。",
        )
    if answer.dtype != minigrad.float32:
        return False, say(
            "Write the eggs as floats (5.0 or 5.), so the tensor is float32.",
            "把鸡蛋写成浮点数（5.0 或 5.），这样张量是 float32。",
        )
    if not answer.requires_grad:
        return False, say(
            "The eggs are there, but the basket does not take part in backpropagation.",
            "鸡蛋在，可是这个篮子不参与反向传播。",
        )
    return True, say(
        "Your basket prints with requires_grad=True.",
        "你的篮子打印出来带着 requires_grad=True。",
    )


_REFUSED = {(int, 1), (int, 0), (float, 1.0), (str, "yes")}
_ACCEPTED = {(bool, True), (bool, False)}


@exercise("refused-flags")
def _refused_flags(answer):
    if isinstance(answer, str | bytes) or not hasattr(answer, "__iter__"):
        return False, say(
            "Answer with a list of flags, like [True, 0].",
            "用一个列表回答，比如 [True, 0]。",
        )
    given = list(answer)
    for flag in given:
        if isinstance(flag, str) and flag != "yes":
            return False, say(
                f"{flag!r} is a string. Write the flags as they are in the list: 1.0 or 1, "
                'not "1.0" or "1"; only "yes" is a string there.',
                f'{flag!r} 是字符串。按列表里原样写这些值：写 1.0 或 1，不要写 "1.0" 或 "1"；'
                '列表里只有 "yes" 是字符串。',
            )
    kinds = {(type(flag), flag) for flag in given}
    accepted = kinds & _ACCEPTED
    if accepted:
        return False, say(
            "True and False are exactly what requires_grad wants: they are accepted.",
            "True 和 False 正是 requires_grad 要的值：它们会被接受。",
        )
    strangers = kinds - _REFUSED
    if strangers:
        return False, say(
            f"{', '.join(repr(v) for _, v in strangers)} is not one of the flags asked about.",
            f"{', '.join(repr(v) for _, v in strangers)} 不在题目给出的值里。",
        )
    missing = _REFUSED - kinds
    if missing:
        return False, say(
            "Some refused flags are missing. Only a real bool passes: "
            "an int, a float or a string does not, whatever its value.",
            "还漏了几个会被拒绝的值。只有真正的 bool 才能通过："
            "整数、浮点数、字符串都不行，不管它的值是多少。",
        )
    return True, say(
        "Only True and False pass; 1 and 0 look like yes and no, but they are ints.",
        "只有 True 和 False 能通过；1 和 0 看起来像“是”和“否”，但它们是整数。",
    )


@exercise("eggs-out")
def _eggs_out(answer, basket=None):
    if not _is_tensor(answer):
        if isinstance(answer, np.ndarray):
            return False, say(
                "That is a numpy array. Take the eggs out as a tensor.",
                "这是一个 numpy 数组。要拿出来的是张量形式的鸡蛋。",
            )
        return False, say(
            f"Your answer is a {_type(answer)}, not a tensor.",
            f"你的答案是 {_type(answer)}，不是张量。",
        )
    if answer.requires_grad:
        return False, say(
            "It still requires grad: the eggs are still in the basket.",
            "它仍然 requires grad：鸡蛋还在篮子里。",
        )
    if answer.tolist() != [1.0, 2.0, 3.0]:
        return False, say(
            "Those are not the eggs [1., 2., 3.] from the basket.",
            "这不是篮子里的鸡蛋 [1., 2., 3.]。",
        )
    if basket is None:
        return False, say(
            "check needs the basket too: check('eggs-out', answer, basket).",
            "check 还需要篮子本身：check('eggs-out', answer, basket)。",
        )
    if not _shares_memory_with(answer.detach().numpy(), basket):
        return False, say(
            "Those are copies of the eggs (clone() copies): take out the basket's own eggs.",
            "这是鸡蛋的复制品（clone() 会复制）：要拿出的是篮子里原来的那些鸡蛋。",
        )
    return True, say(
        "Both .detach() and .data work here; lesson 3 shows why .detach() is safer.",
        ".detach() 和 .data 在这里都可以；第 3 课会讲为什么 .detach() 更安全。",
    )


# -- lesson 2: the graph behind the curtain ----------------------------------------------------


@exercise("grad-by-hand")
def _grad_by_hand(answer):
    if _is_tensor(answer):
        return False, say(
            "Work it out by hand and type the numbers as a list, e.g. [0.5, 1.0, 1.5].",
            "请手算，然后把数字写成列表，比如 [0.5, 1.0, 1.5]。",
        )
    if _close(answer, [1.0, 4.0, 9.0]):
        return True, say(
            "The 3 from 3x² and the 1/3 from the mean cancel: the gradient is x².",
            "3x² 里的 3 和平均值的 1/3 抵消了：梯度就是 x²。",
        )
    if _close(answer, [3.0, 12.0, 27.0]):
        return False, say(
            "That is the derivative of sum(x³). The mean also divides by 3 elements.",
            "这是 sum(x³) 的导数。mean 还要除以元素个数 3。",
        )
    if _close(answer, [1.0, 2.0, 3.0]) or _close(answer, [0.5, 1.0, 1.5]):
        return False, say(
            "That looks like the gradient of a square. Here each x is cubed: d/dx x³ = 3x².",
            "这像是平方的梯度。这里每个 x 是三次方：d/dx x³ = 3x²。",
        )
    return False, say(
        "out = (x₁³ + x₂³ + x₃³) / 3. Differentiate with respect to each xᵢ.",
        "out = (x₁³ + x₂³ + x₃³) / 3。对每个 xᵢ 求导。",
    )


@exercise("vjp")
def _vjp(answer):
    if _is_tensor(answer) and answer.requires_grad:
        return False, say(
            "Answer with the numbers of x.grad, not with a tensor that requires grad.",
            "请回答 x.grad 里的数字，而不是一个 requires grad 的张量。",
        )
    if _close(answer, [2.0, 0.0, -6.0]):
        return True, say(
            "Each egg's local derivative 2x, weighted by v: x.grad = v * 2x, the product vᵀJ.",
            "每个鸡蛋的局部导数 2x，再乘上权重 v：x.grad = v * 2x，也就是 vᵀJ。",
        )
    if _close(answer, [2.0, 4.0, 6.0]):
        return False, say(
            "That is the gradient with v = [1, 1, 1]. Here v weights each output differently.",
            "这是 v = [1, 1, 1] 时的梯度。这里 v 给每个输出的权重不一样。",
        )
    if _close(answer, [1.0, 0.0, -1.0]):
        return False, say(
            "That is v itself. Each weight still multiplies the derivative of y = x * x.",
            "这就是 v 本身。每个权重还要乘上 y = x * x 的导数。",
        )
    return False, say(
        "yᵢ = xᵢ², so dyᵢ/dxᵢ = 2xᵢ, and backward(gradient=v) gives vᵢ · 2xᵢ for each egg.",
        "yᵢ = xᵢ²，所以 dyᵢ/dxᵢ = 2xᵢ；backward(gradient=v) 给每个鸡蛋的是 vᵢ · 2xᵢ。",
    )


@exercise("zero-grad")
def _zero_grad(answer):
    if not _is_tensor(answer):
        return False, say("Pass w itself to check(...).", "把 w 本身传给 check(...)。")
    if answer.grad is None:
        return False, say(
            "w.grad is None: did the loop run backward()?",
            "w.grad 是 None：循环里运行 backward() 了吗？",
        )
    if _close(answer.grad, [4.0]):
        return True, say(
            "w.grad holds the gradient of the last pass only: 2w = 4.",
            "w.grad 里只有最后一次的梯度：2w = 4。",
        )
    if _close(answer.grad, [12.0]):
        return False, say(
            "w.grad is 12: three passes of 4 added up. Your line must empty the gradient "
            "before each backward(); mind the first pass, when w.grad is still None.",
            "w.grad 是 12：三次的 4 加在了一起。你的那一行要在每次 backward() 之前清空梯度；"
            "注意第一次循环时 w.grad 还是 None。",
        )
    return False, say(
        f"w.grad is {answer.grad.tolist()}; after the loop it should be the gradient of one "
        "pass, 2w.",
        f"w.grad 是 {answer.grad.tolist()}；循环结束后它应该只是一次的梯度，2w。",
    )


# -- lesson 3: getting the eggs out ------------------------------------------------------------


def _numpy_the_recommended_way(answer, tensor, source: str, hint_tensor: str) -> tuple:
    if _is_tensor(answer):
        return False, say(
            "That is still a tensor. matplotlib and numpy want a numpy array.",
            "这还是张量。matplotlib 和 numpy 要的是 numpy 数组。",
        )
    if not isinstance(answer, np.ndarray):
        return False, say(
            f"Your answer is a {_type(answer)}, not a numpy array.",
            f"你的答案是 {_type(answer)}，不是 numpy 数组。",
        )
    if tensor is not None:
        if answer.shape != tuple(tensor.shape) or not _close(answer, tensor):
            return False, say(
                f"Those are not the values of {hint_tensor}.",
                f"这些不是 {hint_tensor} 里的值。",
            )
        if not _shares_memory_with(answer, tensor):
            return False, say(
                "That is a copy. Take out the same eggs, without copying.",
                "这是复制品。要拿出的是同一批鸡蛋，不复制。",
            )
    if _through_data(source):
        return False, say(
            "That works, through .data: the door autograd cannot watch. "
            "The recommended door is the other one.",
            "这样能用，但走的是 .data：自动求导看不见的那扇门。推荐的是另一扇门。",
        )
    return True, say(
        f"{hint_tensor}.detach().numpy() shares memory with {hint_tensor}.",
        f"{hint_tensor}.detach().numpy() 和 {hint_tensor} 共用内存。",
    )


@exercise("to-numpy", source=True)
def _to_numpy(answer, weights=None, source=""):
    return _numpy_the_recommended_way(answer, weights, source, "weights")


@exercise("shared-eggs")
def _shared_eggs(answer):
    if _close_scalar(answer, 7.0):
        return True, say(
            "arr and weights are the same eggs: changing one changes the other.",
            "arr 和 weights 是同一批鸡蛋：改了一个，另一个也跟着变。",
        )
    if _close_scalar(answer, -1.5):
        return False, say(
            ".numpy() does not copy. arr and weights share their memory.",
            ".numpy() 不复制。arr 和 weights 共用同一块内存。",
        )
    return False, say(
        "arr[1] = 7.0 wrote into the memory that weights uses too.",
        "arr[1] = 7.0 写进的那块内存，weights 也在用。",
    )


@exercise("safe-way")
def _safe_way(answer):
    text = str(answer).strip().strip(".()").lower()
    if text == "detach":
        return True, say(
            ".detach() shares the version counter, so autograd notices in-place changes.",
            ".detach() 共用版本计数器，所以自动求导能发现原地修改。",
        )
    if text == "data":
        return False, say(
            ".data hides in-place changes from autograd: the gradient can be silently wrong.",
            ".data 让自动求导看不到原地修改：梯度可能悄悄地算错。",
        )
    return False, say('Answer with "data" or "detach".', '回答 "data" 或 "detach"。')


# -- lesson 4: from tensors to plots -----------------------------------------------------------


@exercise("slope")
def _slope(answer):
    if _close_scalar(answer, 4.75):
        return True, say(
            "3 · 1.5² - 2 = 4.75, and autograd agrees.",
            "3 · 1.5² - 2 = 4.75，自动求导的结果也一样。",
        )
    if _close_scalar(answer, 0.375):
        return False, say(
            "That is f(1.5), the value. The slope is the gradient: call backward().",
            "这是函数值 f(1.5)。斜率是梯度：调用 backward()。",
        )
    return False, say(
        "Put x = 1.5 in a basket, compute f from it, call backward() and read x.grad.",
        "把 x = 1.5 放进篮子，用它算出 f，调用 backward()，再读 x.grad。",
    )


@exercise("plot-ready", source=True)
def _plot_ready(answer, pred=None, source=""):
    return _numpy_the_recommended_way(answer, pred, source, "pred")


@exercise("learning-rate")
def _learning_rate(answer):
    text = str(answer).strip().strip('"').lower()
    if text in ("up", "grows", "increases", "explodes", "diverges"):
        return True, say(
            "Each step overshoots the minimum by more than it started: the loss explodes.",
            "每一步都冲过了最低点，而且越冲越远：损失爆炸了。",
        )
    if text in ("down", "shrinks", "decreases"):
        return False, say(
            "Run it: w, b, losses = fit(lr=1.5, steps=20), then print(losses[-3:]).",
            "运行一下：w, b, losses = fit(lr=1.5, steps=20)，再 print(losses[-3:])。",
        )
    return False, say('Answer with "down" or "up".', '回答 "down" 或 "up"。')


# -- lesson 5: train, save, load -----------------------------------------------------------------


@exercise("freeze")
def _freeze(answer):
    if not isinstance(answer, minigrad.nn.Module):
        return False, say("Pass the model, tuned, to check(...).", "把模型 tuned 传给 check(...)。")
    flags = {name: p.requires_grad for name, p in answer.named_parameters()}
    if sorted(flags) != ["hidden.bias", "hidden.weight", "out.bias", "out.weight"]:
        return False, say("tuned should be a SineNet.", "tuned 应该是一个 SineNet。")
    hidden = [flags["hidden.weight"], flags["hidden.bias"]]
    out = [flags["out.weight"], flags["out.bias"]]
    if not any(out):
        return False, say(
            "Nothing can learn now: the last layer, out, must keep requires_grad=True.",
            "现在什么都学不了了：最后一层 out 必须保留 requires_grad=True。",
        )
    if not all(out):
        return False, say(
            "Only part of out still learns: keep both its weight and its bias.",
            "out 只剩一部分在学：它的 weight 和 bias 都要保留。",
        )
    if any(hidden):
        still = [n for n in ("hidden.weight", "hidden.bias") if flags[n]]
        return False, say(
            f"{' and '.join(still)} still requires grad: every parameter of tuned.hidden "
            "must be frozen.",
            f"{' 和 '.join(still)} 仍然 requires grad:tuned.hidden 的每个参数都要冻结。",
        )
    return True, say(
        "Only out.weight and out.bias will get gradients; the hidden layer stays as trained.",
        "只有 out.weight 和 out.bias 会得到梯度；隐藏层保持训练好的样子。",
    )


@exercise("restore")
def _restore(answer, trained=None):
    if not isinstance(answer, minigrad.nn.Module):
        return False, say(
            "Pass the model, another, to check(...).", "把模型 another 传给 check(...)。"
        )
    if trained is None:
        return False, say(
            "check needs the trained model too: check('restore', another, model).",
            "check 还需要训练好的模型：check('restore', another, model)。",
        )
    mine, theirs = answer.state_dict(), trained.state_dict()
    if list(mine) != list(theirs):
        return False, say(
            "another should be a SineNet, like the trained model.",
            "another 应该和训练好的模型一样，是一个 SineNet。",
        )
    if all(minigrad.equal(mine[k], theirs[k]) for k in mine):
        return True, say(
            "another now predicts exactly what the trained model predicts.",
            "现在 another 的预测和训练好的模型一模一样。",
        )
    return False, say(
        "another still has its random weights. Load the file PATH into it, as the lesson "
        "did for fresh.",
        "another 还是随机的权重。像课上对 fresh 做的那样，把文件 PATH 加载进去。",
    )


@exercise("step-order")
def _step_order(answer):
    text = "".join(ch for ch in str(answer).upper() if ch.isalpha())
    if sorted(text) != list("ABCD"):
        return False, say(
            'Use each of the four letters once, e.g. "ABCD".',
            '四个字母各用一次，比如 "ABCD"。',
        )
    if text in ("CDBA", "DCBA"):
        return True, say(
            "Forget old gradients before backward, compute the loss, backward, then step.",
            "先在 backward 之前忘掉旧梯度，算损失，backward，最后 step。",
        )
    if text == "DBAC":
        return True, say(
            "Zeroing after each step works too: every backward() starts from empty gradients.",
            "每次 step 之后再清零也可以：每次 backward() 都从空的梯度开始。",
        )
    if text.index("A") < text.index("B"):
        return False, say(
            "step() uses the gradients, so backward() must come before it.",
            "step() 要用到梯度，所以 backward() 必须在它前面。",
        )
    if text.index("B") < text.index("D"):
        return False, say(
            "backward() needs a loss to start from: compute it first.",
            "backward() 要从损失出发：先把损失算出来。",
        )
    return False, say(
        "zero_grad() must come before backward(), or old gradients pile up (lesson 2).",
        "zero_grad() 必须在 backward() 之前，否则旧梯度会累加起来（第 2 课）。",
    )


# -- lesson 6: inside minigrad -----------------------------------------------------------------


@exercise("order")
def _order(answer):
    try:
        # name() says "minigrad::autograd::AccumulateGrad"; the short name counts too
        names = [str(n).rsplit("::", 1)[-1] for n in answer]
    except TypeError:
        return False, say(
            "Answer with a list of node names, e.g. ['MulBackward0', 'AccumulateGrad'].",
            "用节点名字的列表回答，比如 ['MulBackward0', 'AccumulateGrad']。",
        )
    expected = ["AddBackward0", "MulBackward0", "AccumulateGrad"]
    if names == expected:
        return True, say(
            "AccumulateGrad waits until both of its gradients have arrived.",
            "AccumulateGrad 会等到它的两份梯度都到了才运行。",
        )
    if sorted(names) != sorted(expected):
        return False, say(
            "The graph has three nodes: AddBackward0 (q), MulBackward0 (p) and the "
            "AccumulateGrad of a. Put each once, in the order backward runs them.",
            "这个图有三个节点：AddBackward0(q)、MulBackward0(p)和 a 的 AccumulateGrad。"
            "每个写一次，按 backward 运行它们的顺序排好。",
        )
    if names.index("AccumulateGrad") < names.index("MulBackward0"):
        return False, say(
            "AccumulateGrad gets gradient from two nodes. It must wait until MulBackward0 has "
            "sent its part.",
            "AccumulateGrad 从两个节点收到梯度。它必须等 MulBackward0 把它那份送到。",
        )
    return False, say(
        "backward starts from the node that made q.",
        "backward 从产生 q 的那个节点开始。",
    )


@exercise("cube")
def _cube(answer):
    Function = minigrad.autograd.Function
    if not (inspect.isclass(answer) and issubclass(answer, Function)):
        return False, say(
            "Pass your class, MyCube, to check(...).", "把你的类 MyCube 传给 check(...)。"
        )
    x = minigrad.tensor([1.0, -2.0, 0.5], dtype=minigrad.float64, requires_grad=True)
    y = answer.apply(x)
    if not _close(y, [1.0, -8.0, 0.125]):
        return False, say("forward should return x ** 3.", "forward 应该返回 x ** 3。")
    grad = answer.backward(y.grad_fn, minigrad.ones(3, dtype=minigrad.float64))
    if grad is ...:
        raise _NotAttempted
    if not minigrad.autograd.gradcheck(answer.apply, (x,), raise_exception=False):
        return False, say(
            "gradcheck disagrees with your backward. What is the derivative of x³? And backward "
            "must multiply it by the incoming grad.",
            "gradcheck 和你的 backward 不一致。x³ 的导数是什么？"
            "另外 backward 还要乘上传进来的 grad。",
        )
    return True, say("gradcheck agrees with your backward.", "gradcheck 认可你的 backward。")


@exercise("where")
def _where(answer):
    text = str(answer).strip().replace("\\", "/")
    if text.endswith(".py"):
        text = text[:-3]
    text = text.replace("/", ".")
    if text.endswith("minigrad.ops.unary"):
        return True, say(
            "Sigmoid lives in minigrad/ops/unary.py, with the other one-input ops.",
            "Sigmoid 在 minigrad/ops/unary.py 里，和其他单输入的运算放在一起。",
        )
    return False, say(
        "Use the inspection cell above on minigrad.sigmoid(x).grad_fn, and read __module__.",
        "用上面那个查看用的单元格看 minigrad.sigmoid(x).grad_fn，读它的 __module__。",
    )


# -- lesson 7: gradients of gradients --------------------------------------------------------------


def _number(answer) -> float | None:
    """The one number in ``answer`` (a number, a one-element tensor or list), else None."""
    if isinstance(answer, str | bytes):
        return None
    try:
        values = np.asarray(_values(answer), dtype=float).ravel()
    except (TypeError, ValueError):
        return None
    return float(values[0]) if values.size == 1 else None


@exercise("second-derivative")
def _second_derivative(answer):
    value = _number(answer)
    if value is None:
        return False, say(
            "Answer with one number, or the tensor the second grad(...) returns.",
            "用一个数回答，或者用第二次 grad(...) 返回的张量。",
        )
    if abs(value - 48.0) < 1e-3:
        return True, say(
            "d²y/dx² = 12x² = 48 at x = 2: the first grad recorded 4x³ as a graph, the "
            "second differentiated it.",
            "x = 2 处 d²y/dx² = 12x² = 48：第一次 grad 把 4x³ 记成了计算图，第二次对它求导。",
        )
    if abs(value - 32.0) < 1e-3:
        return False, say(
            "32 is the first derivative, 4x³. Ask for it with create_graph=True, then take "
            "grad of that result once more.",
            "32 是一阶导数 4x³。求它时加上 create_graph=True，再对这个结果求一次 grad。",
        )
    if abs(value - 16.0) < 1e-3:
        return False, say(
            "16 is y itself, x⁴. Differentiate it twice.",
            "16 是 y 本身，也就是 x⁴。要对它求两次导。",
        )
    return False, say(
        "(d1,) = grad(y, x, create_graph=True) gives dy/dx with a graph; grad(d1, x) "
        "differentiates it again.",
        "(d1,) = grad(y, x, create_graph=True) 得到带计算图的 dy/dx；grad(d1, x) 再对它求导。",
    )


@exercise("hvp")
def _hvp(answer):
    try:
        values = np.asarray(_values(answer), dtype=float).ravel()
    except (TypeError, ValueError):
        values = None
    if isinstance(answer, str | bytes) or values is None or values.size != 2:
        return False, say(
            "Answer with the two numbers of H v, or the tensor grad(..., grad_outputs=v) returns.",
            "用 H v 的两个数回答，或者用 grad(..., grad_outputs=v) 返回的张量。",
        )
    if np.allclose(values, [2.0, 12.0], atol=1e-3):
        return True, say(
            "H v = (2, 12), the Hessian's second column, with two backward passes and no matrix.",
            "H v = (2, 12)，正是 Hessian 矩阵的第二列：两次反向传播，不用造矩阵。",
        )
    if np.allclose(values, [4.0, 2.0], atol=1e-3):
        return False, say(
            "That is H v for v = (1, 0), the example above. Use this cell's v = (0, 1).",
            "这是上面例子里 v = (1, 0) 的 H v。要用这个单元格里的 v = (0, 1)。",
        )
    if np.allclose(values, [4.0, 13.0], atol=1e-3):
        return False, say(
            "That is the gradient g itself. Differentiate it once more, with grad_outputs=v.",
            "这是梯度 g 本身。用 grad_outputs=v 再对它求一次导。",
        )
    return False, say(
        "First (g,) = grad(surface(w), w, create_graph=True), then grad(g, w, grad_outputs=v).",
        "先求 (g,) = grad(surface(w), w, create_graph=True)，再求 grad(g, w, grad_outputs=v)。",
    )


@exercise("newton")
def _newton(answer):
    value = _number(answer)
    if value is None:
        return False, say(
            "Answer with one number: x after the step.",
            "用一个数回答：走完这一步之后的 x。",
        )
    if abs(value - 4 / 3) < 1e-3:
        return True, say(
            "x = 1 - h'(1) / h''(1) = 1 - (-1) / 3 = 4/3. The minimum is at 2^(1/3) ≈ 1.26; "
            "the next step gets much closer.",
            "x = 1 - h'(1) / h''(1) = 1 - (-1) / 3 = 4/3。最小值在 2^(1/3) ≈ 1.26；"
            "下一步会近得多。",
        )
    if abs(value - 2.0) < 1e-3:
        return False, say(
            "That is a gradient step with learning rate 1, x - h'(x). Newton's step divides "
            "h'(x) by the second derivative h''(x).",
            "这是学习率为 1 的梯度下降一步，x - h'(x)。牛顿法要把 h'(x) 除以二阶导数 h''(x)。",
        )
    if abs(value - 2 / 3) < 1e-3:
        return False, say(
            "Check the sign: the step is x - h'(x) / h''(x), and h'(1) is negative.",
            "检查一下符号：这一步是 x - h'(x) / h''(x)，而 h'(1) 是负的。",
        )
    if abs(value - 2 ** (1 / 3)) < 1e-3:
        return False, say(
            "That is where h is lowest; one Newton step only gets close. Take exactly one step.",
            "那是 h 的最低点；牛顿法走一步只能靠近它。只走一步。",
        )
    return False, say(
        "(d1,) = grad(h(x), x, create_graph=True) is h'(x), grad(d1, x) is h''(x); the step "
        "is x - h'(x) / h''(x).",
        "(d1,) = grad(h(x), x, create_graph=True) 是 h'(x)，grad(d1, x) 是 h''(x)；"
        "这一步是 x - h'(x) / h''(x)。",
    )
