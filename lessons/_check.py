"""Answer checks for the lessons' "Your turn" exercises.

In a lesson you write ``check("basket", answer)``: the function registered
below under that name looks at your answer and prints "Correct!" or a hint.
Peeking here is allowed, but try first: the hints are written for you.

Each checker returns ``(True, remark)`` or ``(False, hint)``; it never raises
at you, and an answer left as ``...`` only gets a reminder to fill it in.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np

import minigrad

_CHECKERS: dict[str, Callable] = {}
NOT_ATTEMPTED = "Replace the ... with your answer, then run this cell again."


def exercise(name: str):
    """Register a checker under ``name`` (used by ``check(name, answer)``)."""

    def register(fn: Callable) -> Callable:
        _CHECKERS[name] = fn
        return fn

    return register


def verdict(name: str, answer, *given) -> tuple[bool | None, str]:
    """(True, remark), (False, hint), or (None, reminder) when not attempted yet.

    ``given`` are objects from the exercise the checker needs to see (e.g. the tensor
    your answer should share memory with).
    """
    if answer is ...:
        return None, NOT_ATTEMPTED
    if name not in _CHECKERS:
        return False, f"There is no exercise called {name!r}. Did you change the check(...) line?"
    try:
        ok, message = _CHECKERS[name](answer, *given)
    except _NotAttempted:
        return None, NOT_ATTEMPTED
    except Exception as err:  # a wrong answer must never crash the lesson
        return False, f"Checking your answer raised {type(err).__name__}: {err}"
    return bool(ok), message


def check(name: str, answer, *given) -> None:
    """Print "Correct!" or a hint for exercise ``name``."""
    ok, message = verdict(name, answer, *given)
    if ok:
        print(f"Correct! {message}".rstrip())
    elif ok is None:
        print(message)
    else:
        print(f"Not yet. {message}")


class _NotAttempted(Exception):
    """A checker found a ... inside the answer (e.g. a backward returning ...)."""


# -- small helpers --------------------------------------------------------------------------


def _is_tensor(x) -> bool:
    return isinstance(x, minigrad.Tensor)


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
    try:
        values = np.asarray(_values(answer), dtype=float).ravel()
    except (TypeError, ValueError):
        return False  # not a number: the checker's hint says what to write
    return values.size == 1 and abs(values[0] - expected) <= tol


# -- lesson 0: start here -------------------------------------------------------------------------


@exercise("warm-up")
def _warm_up(answer):
    if _close_scalar(answer, 42, tol=0):
        return True, "That is how every exercise works."
    return False, "6 * 7 is Python for 6 × 7. Write answer = 6 * 7."


@exercise("first-tensor")
def _first_tensor(answer):
    if not _is_tensor(answer):
        return False, f"That is a {type(answer).__name__}. Write minigrad.tensor([1, 2, 3])."
    if answer.tolist() != [1, 2, 3]:
        return False, f"It holds {answer.tolist()}; it should hold 1, 2 and 3."
    return True, f"It prints as {answer!r}."


# -- lesson 1: eggs and baskets ------------------------------------------------------------------


@exercise("basket")
def _basket(answer):
    if not _is_tensor(answer):
        return False, (
            f"Your answer is a {type(answer).__name__}, not a tensor. "
            "Wrap the eggs: Variable(FloatTensor([5, 6, 7]), requires_grad=...)."
        )
    if answer.tolist() != [5.0, 6.0, 7.0]:
        return (
            False,
            f"The basket should hold the eggs [5., 6., 7.]; yours holds {answer.tolist()}.",
        )
    if not answer.requires_grad:
        return False, "The eggs are there, but the basket does not take part in backpropagation."
    if answer.dtype != minigrad.float32:
        return False, "Use FloatTensor for the eggs, so they are float32."
    return True, "Your basket prints with requires_grad=True."


@exercise("refused-flags")
def _refused_flags(answer):
    try:
        given = [repr(x) for x in answer]
    except TypeError:
        return False, "Answer with a list of flags, like [True, 0]."
    expected = {"1.0", "None", "'yes'"}
    wrongly_refused = [g for g in given if g not in expected]
    missing = expected - set(given)
    if wrongly_refused:
        return False, (
            f"{', '.join(wrongly_refused)} is accepted: any integer from 0 to 255 works "
            "(and True/False are integers too)."
        )
    if missing:
        hints = {
            "1.0": "1.0 is refused even though it equals 1: it is a float.",
            "None": "None is not an integer either.",
            "'yes'": "A string is not an integer.",
        }
        return False, " ".join(hints[m] for m in sorted(missing))
    return True, "Only whole numbers (and bools) pass."


@exercise("eggs-out")
def _eggs_out(answer):
    if not _is_tensor(answer):
        if isinstance(answer, np.ndarray):
            return (
                False,
                "That is a numpy array. Take the eggs out as a tensor: .detach() or .data.",
            )
        return False, f"Your answer is a {type(answer).__name__}, not a tensor."
    if answer.requires_grad:
        return False, "It still requires grad: the eggs are still in the basket. Try .detach()."
    if answer.tolist() != [1.0, 2.0, 3.0]:
        return False, "Those are not the eggs [1., 2., 3.] from the basket."
    if answer.grad_fn is not None:
        return False, "It should be a leaf with no grad_fn."
    return True, "Both .detach() and .data work here; lesson 3 shows why .detach() is safer."


def _shares_memory_with(answer, *tensors) -> bool:
    return any(np.shares_memory(np.asarray(answer), t.detach().numpy()) for t in tensors)


# -- lesson 2: the graph behind the curtain ----------------------------------------------------


@exercise("grad-by-hand")
def _grad_by_hand(answer):
    if _is_tensor(answer):
        return False, "Work it out by hand and type the numbers as a list, e.g. [0.5, 1.0, 1.5]."
    if _close(answer, [1.0, 4.0, 9.0]):
        return True, "The 3 from 3x² and the 1/3 from the mean cancel: the gradient is x²."
    if _close(answer, [3.0, 12.0, 27.0]):
        return False, "That is the derivative of sum(x³). The mean also divides by 3 elements."
    if _close(answer, [1.0, 2.0, 3.0]) or _close(answer, [0.5, 1.0, 1.5]):
        return (
            False,
            "That looks like the gradient of a square. Here each x is cubed: d/dx x³ = 3x².",
        )
    return False, "out = (x₁³ + x₂³ + x₃³) / 3. Differentiate with respect to each xᵢ."


@exercise("accumulate")
def _accumulate(answer):
    try:
        value = float(np.asarray(_values(answer), dtype=float).ravel()[0])
    except (TypeError, ValueError, IndexError):
        return False, "Answer with a number."
    if abs(value - 9.0) < 1e-6:
        return True, "Each pass adds 3 to w.grad: 3 + 3 + 3."
    if abs(value - 3.0) < 1e-6:
        return False, "That is the gradient of one pass. Nothing resets w.grad between the passes."
    return (
        False,
        "The gradient of (w * 3) with respect to w is 3. What happens to w.grad each pass?",
    )


@exercise("zero-grad")
def _zero_grad(answer):
    if not _is_tensor(answer):
        return False, "Pass w itself to check(...)."
    if answer.grad is None:
        return False, "w.grad is None: did the loop run backward()?"
    g = answer.grad.tolist()
    if _close(answer.grad, [4.0]):
        return True, "w.grad holds the gradient of the last pass only: 2w = 4."
    if _close(answer.grad, [12.0]):
        return False, (
            "w.grad is 12: three passes of 4 added up. Replace the ... with a line that resets "
            "the gradient before backward(): w.grad = None. (w.grad.zero_() fails on the first "
            "pass, when w.grad is still None.)"
        )
    return False, f"w.grad is {g}; after the loop it should be the gradient of one pass, 2w."


# -- lesson 3: getting the eggs out ------------------------------------------------------------


@exercise("to-numpy")
def _to_numpy(answer, weights=None):
    if _is_tensor(answer):
        return False, "That is still a tensor. Add .numpy() at the end."
    if not isinstance(answer, np.ndarray):
        return False, f"Your answer is a {type(answer).__name__}, not a numpy array."
    if answer.tolist() != [0.5, -1.5]:
        return False, f"The values should be [0.5, -1.5]; yours are {answer.tolist()}."
    if weights is not None and not _shares_memory_with(answer, weights):
        return False, "That is a copy. .detach().numpy() gives the same memory, without copying."
    return True, "weights.detach().numpy() shares memory with weights."


@exercise("shared-eggs")
def _shared_eggs(answer):
    if _close_scalar(answer, 7.0):
        return True, "arr and weights are the same eggs: changing one changes the other."
    if _close_scalar(answer, -1.5):
        return False, ".numpy() does not copy. arr and weights share their memory."
    return False, "arr[1] = 7.0 wrote into the memory that weights uses too."


@exercise("safe-way")
def _safe_way(answer):
    text = str(answer).strip().strip(".()").lower()
    if text == "detach":
        return True, ".detach() shares the version counter, so autograd notices in-place changes."
    if text == "data":
        return (
            False,
            ".data hides in-place changes from autograd: the gradient can be silently wrong.",
        )
    return False, 'Answer with "data" or "detach".'


# -- lesson 4: from tensors to plots -----------------------------------------------------------


@exercise("slope")
def _slope(answer):
    if _close_scalar(answer, 4.75):
        return True, "3 · 1.5² - 2 = 4.75, and autograd agrees."
    if _close_scalar(answer, 0.375):
        return False, "That is f(1.5), the value. The slope is the gradient: call backward()."
    return False, (
        "Make x = minigrad.tensor(1.5, requires_grad=True), compute f = x**3 - 2*x, "
        "call f.backward() and read x.grad."
    )


@exercise("plot-ready")
def _plot_ready(answer, pred=None):
    if _is_tensor(answer):
        return False, "That is still a tensor. matplotlib wants numpy: add .numpy()."
    if not isinstance(answer, np.ndarray):
        return False, f"Your answer is a {type(answer).__name__}, not a numpy array."
    if pred is not None:
        if answer.shape != tuple(pred.shape) or not _close(answer, pred):
            return False, "Those are not the values of pred."
        if not _shares_memory_with(answer, pred):
            return False, "That is a copy. pred.detach().numpy() gives the same memory."
    return True, "pred.detach().numpy() is ready for plt.plot."


@exercise("learning-rate")
def _learning_rate(answer):
    text = str(answer).strip().strip('"').lower()
    if text in ("up", "grows", "increases", "explodes", "diverges"):
        return True, "Each step overshoots the minimum by more than it started: the loss explodes."
    if text in ("down", "shrinks", "decreases"):
        return False, "Run it: w, b, losses = fit(lr=1.5, steps=20), then print(losses[-3:])."
    return False, 'Answer with "down" or "up".'


# -- lesson 5: train, save, load -----------------------------------------------------------------


@exercise("param-count")
def _param_count(answer):
    if _close_scalar(answer, 49, tol=0):
        return (
            True,
            "16 + 16 + 16 + 1 = 49 numbers: "
            "the same as sum(p.numel() for p in model.parameters()).",
        )
    if _close_scalar(answer, 32, tol=0) or _close_scalar(answer, 33, tol=0):
        return False, "Count the biases too: hidden.bias has 16 numbers, out.bias 1."
    return (
        False,
        "Multiply out each shape: (16, 1) is 16 numbers, (16,) is 16, (1, 16) is 16, (1,) is 1.",
    )


@exercise("restore")
def _restore(answer, trained=None):
    if not isinstance(answer, minigrad.nn.Module):
        return False, "Pass the model, another, to check(...)."
    if trained is None:
        return False, "check needs the trained model too: check('restore', another, model)."
    mine, theirs = answer.state_dict(), trained.state_dict()
    if list(mine) != list(theirs):
        return False, "another should be a SineNet, like the trained model."
    if all(minigrad.equal(mine[k], theirs[k]) for k in mine):
        return True, "another now predicts exactly what the trained model predicts."
    return (
        False,
        "another still has its random weights. Try another.load_state_dict(minigrad.load(PATH)).",
    )


@exercise("step-order")
def _step_order(answer):
    text = "".join(ch for ch in str(answer).upper() if ch.isalpha())
    if sorted(text) != list("ABCD"):
        return False, 'Use each of the four letters once, e.g. "ABCD".'
    if text in ("CDBA", "DCBA"):
        return True, "Forget old gradients before backward, compute the loss, backward, then step."
    if text == "DBAC":
        return (
            True,
            "Zeroing after each step works too: every backward() starts from empty gradients.",
        )
    if text.index("A") < text.index("B"):
        return False, "step() uses the gradients, so backward() must come before it."
    if text.index("B") < text.index("D"):
        return False, "backward() needs a loss to start from: compute it first."
    return False, "zero_grad() must come before backward(), or old gradients pile up (lesson 2)."


# -- lesson 6: inside minigrad -----------------------------------------------------------------


@exercise("order")
def _order(answer):
    try:
        # name() says "minigrad::autograd::AccumulateGrad"; the short name counts too
        names = [str(n).rsplit("::", 1)[-1] for n in answer]
    except TypeError:
        return False, "Answer with a list of node names, e.g. ['MulBackward0', 'AccumulateGrad']."
    expected = ["AddBackward0", "MulBackward0", "AccumulateGrad"]
    if names == expected:
        return True, "AccumulateGrad waits until both of its gradients have arrived."
    if sorted(names) != sorted(expected):
        return False, (
            "The graph has three nodes: AddBackward0 (q), MulBackward0 (p) and the "
            "AccumulateGrad of a. Put each once, in the order backward runs them."
        )
    if names.index("AccumulateGrad") < names.index("MulBackward0"):
        return False, (
            "AccumulateGrad gets gradient from two nodes. It must wait until MulBackward0 has "
            "sent its part."
        )
    return False, "backward starts from the node that made q."


@exercise("cube")
def _cube(answer):
    Function = minigrad.autograd.Function
    if not (inspect.isclass(answer) and issubclass(answer, Function)):
        return False, "Pass your class, Cube, to check(...)."
    x = minigrad.tensor([1.0, -2.0, 0.5], dtype=minigrad.float64, requires_grad=True)
    y = answer.apply(x)
    if not _close(y, [1.0, -8.0, 0.125]):
        return False, "forward should return x ** 3."
    grad = answer.backward(y.grad_fn, minigrad.ones(3, dtype=minigrad.float64))
    if grad is ...:
        raise _NotAttempted
    if not minigrad.autograd.gradcheck(answer.apply, (x,), raise_exception=False):
        return False, (
            "gradcheck disagrees with your backward. The derivative of x³ is 3x², and backward "
            "must multiply it by the incoming grad."
        )
    return True, "gradcheck agrees with your backward."


@exercise("where")
def _where(answer):
    text = str(answer).strip().replace("\\", "/")
    if text.endswith(".py"):
        text = text[:-3]
    text = text.replace("/", ".")
    if text.endswith("minigrad.ops.unary"):
        return True, "Sigmoid lives in minigrad/ops/unary.py, with the other one-input ops."
    return (
        False,
        "Use the inspection cell above on minigrad.sigmoid(x).grad_fn, and read __module__.",
    )
