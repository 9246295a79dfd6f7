"""Grad mode and inference mode are per thread, as in PyTorch; anomaly mode is per process.

Real threads: a training thread calls ``backward()`` while an evaluation thread sits in
``no_grad`` (or ``inference_mode``), hundreds of times, stepping in lock-step so that
every training step happens while the other thread is inside its block. Then the rules
PyTorch follows for new threads, for decorated generator functions and for inference
tensors, each compared with real PyTorch.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import minigrad as mg

STEPS = 300


def _run_threads(*targets) -> list[BaseException]:
    """Run each target in its own thread; return what any of them raised."""
    errors: list[BaseException] = []

    def guard(fn):
        def run():
            try:
                fn()
            except BaseException as e:  # noqa: BLE001 - reported by the test
                errors.append(e)

        return run

    threads = [threading.Thread(target=guard(fn)) for fn in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return errors


@pytest.mark.parametrize("evaluation_mode", [mg.no_grad, mg.inference_mode])
def test_training_thread_records_while_evaluation_thread_is_in_no_grad(evaluation_mode):
    model = mg.nn.Sequential(mg.nn.Linear(3, 8), mg.nn.Tanh(), mg.nn.Linear(8, 1))
    opt = mg.optim.SGD(model.parameters(), lr=0.01)
    x, y = mg.randn(16, 3), mg.randn(16, 1)
    inside = threading.Barrier(2, timeout=60)  # the evaluator is inside its block
    done = threading.Barrier(2, timeout=60)  # the trainer finished its step
    failures: list[str] = []

    def train():
        for i in range(STEPS):
            inside.wait()
            opt.zero_grad()
            loss = mg.nn.functional.mse_loss(model(x), y)
            if loss.grad_fn is None or not mg.is_grad_enabled():
                failures.append(f"step {i}: no graph recorded")
            else:
                loss.backward()
                if any(p.grad is None for p in model.parameters()):
                    failures.append(f"step {i}: a parameter got no gradient")
                opt.step()
            done.wait()

    def evaluate():
        for i in range(STEPS):
            with evaluation_mode():
                inside.wait()
                out = model(x)
                if out.requires_grad or mg.is_grad_enabled():
                    failures.append(f"evaluation {i}: recorded a graph")
                done.wait()

    assert _run_threads(train, evaluate) == []
    assert failures == []


def test_free_running_threads_never_see_each_others_mode():
    w = mg.randn(4, 4, requires_grad=True)
    failures: list[str] = []
    stop = threading.Event()

    def train():
        for i in range(STEPS):
            loss = (w @ w).tanh().sum()
            if loss.grad_fn is None:
                failures.append(f"step {i}")
                continue
            loss.backward()
            w.grad = None
        stop.set()

    def toggle():
        while not stop.is_set():
            with mg.no_grad():
                if (w * 2).requires_grad:
                    failures.append("no_grad recorded")
            with mg.set_grad_enabled(False):
                pass
            with mg.inference_mode():
                mg.ones(2)

    assert _run_threads(train, toggle) == []
    assert failures == []


def _modes_in_new_thread(lib) -> tuple[bool, bool]:
    seen = {}

    def probe():
        seen["modes"] = (lib.is_grad_enabled(), lib.is_inference_mode_enabled())

    t = threading.Thread(target=probe)
    t.start()
    t.join()
    return seen["modes"]


@pytest.mark.parametrize("lib_name", ["minigrad", "torch"])
def test_a_new_thread_starts_with_grad_on_and_inference_off(lib_name, torch):
    lib = mg if lib_name == "minigrad" else torch
    with lib.no_grad():
        assert _modes_in_new_thread(lib) == (True, False)
    with lib.inference_mode():
        assert _modes_in_new_thread(lib) == (True, False)
    lib.set_grad_enabled(False)
    try:
        assert _modes_in_new_thread(lib) == (True, False)
    finally:
        lib.set_grad_enabled(True)


def test_a_mode_set_in_a_thread_stays_there():
    def flip():
        mg.set_grad_enabled(False)  # never undone: the thread ends with grad off

    assert _run_threads(flip) == []
    assert mg.is_grad_enabled()
    assert (mg.ones(1, requires_grad=True) * 2).requires_grad


def test_modes_are_read_cheaply_only_while_every_thread_is_in_the_default():
    """``state`` is a plain object while no thread is in no_grad or inference mode (the
    training loop's case, read ~20 times a step), and reads each thread's own values while
    one is (``_modes._PerThread``); back to plain once the last one leaves, nested or not."""
    from minigrad import _modes

    inside, leave = threading.Event(), threading.Event()
    seen: list = []

    def evaluation():
        with mg.no_grad(), mg.inference_mode():
            inside.set()
            leave.wait(60)
            seen.append((mg.is_grad_enabled(), mg.is_inference_mode_enabled()))

    assert type(_modes.state) is _modes._Everywhere
    thread = threading.Thread(target=evaluation)
    thread.start()
    assert inside.wait(60)
    assert type(_modes.state) is _modes._PerThread
    x = mg.ones(2, requires_grad=True)
    assert (x * 2).requires_grad and not (x * 2).is_inference()  # this thread: defaults
    with mg.no_grad():
        assert not (x * 2).requires_grad
    assert (x * 2).grad_fn is not None
    leave.set()
    thread.join(60)
    assert seen == [(False, True)]
    assert type(_modes.state) is _modes._Everywhere
    with mg.enable_grad():  # the defaults already: nothing changes
        assert type(_modes.state) is _modes._Everywhere
    ended = threading.Thread(target=lambda: mg.set_grad_enabled(False))  # never undone
    ended.start()
    ended.join(60)
    assert type(_modes.state) is _modes._Everywhere  # counted back when its locals went


def test_anomaly_mode_is_one_switch_for_the_process_as_in_pytorch(torch):
    for lib in (mg, torch):
        seen = {}

        def probe(lib=lib, seen=seen):
            seen["on"] = lib.is_anomaly_enabled()
            lib.autograd.set_detect_anomaly(False)

        lib.autograd.set_detect_anomaly(True)
        try:
            assert _run_threads(probe) == []
        finally:
            lib.autograd.set_detect_anomaly(False)
        assert seen["on"] is True
        assert lib.is_anomaly_enabled() is False  # the thread's change is seen here too


# -- decorated generator functions --------------------------------------------------------


def _generator_trace(lib, make_decorator) -> list:
    """The modes seen inside a decorated generator and by its caller, step by step."""

    def modes():
        return (lib.is_grad_enabled(), lib.is_inference_mode_enabled())

    @make_decorator(lib)
    def gen():
        received = yield ("start", modes())
        try:
            yield ("got " + str(received), modes())
        except ValueError:
            yield ("caught", modes())
        try:
            yield ("last", modes())
        finally:
            trace.append(("closed", modes()))
        return "done"

    trace: list = []
    g = gen()
    trace.append(("created", modes()))
    trace.append(next(g))
    trace.append(("caller", modes()))
    trace.append(g.send(7))
    trace.append(g.throw(ValueError("x")))
    trace.append(next(g))
    trace.append(("caller", modes()))
    g.close()
    trace.append(("after close", modes()))
    return trace


DECORATORS = {
    "no_grad()": lambda lib: lib.no_grad(),
    "no_grad": lambda lib: lib.no_grad,
    "enable_grad()": lambda lib: lib.enable_grad(),
    "set_grad_enabled(False)": lambda lib: lib.set_grad_enabled(False),
    "inference_mode()": lambda lib: lib.inference_mode(),
    "inference_mode": lambda lib: lib.inference_mode,
    "inference_mode(False)": lambda lib: lib.inference_mode(False),
}


@pytest.mark.parametrize("name", DECORATORS)
def test_decorated_generator_as_pytorch(name, torch):
    make = DECORATORS[name]
    for outer in (lambda lib: lib.enable_grad(), lambda lib: lib.no_grad()):
        with outer(mg):
            ours = _generator_trace(mg, make)
        with outer(torch):
            theirs = _generator_trace(torch, make)
        assert ours == theirs


def test_generator_return_value_and_exceptions_pass_through():
    @mg.no_grad()
    def gen():
        yield 1
        return "result"

    g = gen()
    assert next(g) == 1
    with pytest.raises(StopIteration) as stop:
        next(g)
    assert stop.value.value == "result"
    assert mg.is_grad_enabled()

    @mg.no_grad()
    def failing():
        yield 1
        raise KeyError("inside")

    g = failing()
    next(g)
    with pytest.raises(KeyError):
        next(g)
    assert mg.is_grad_enabled()


# -- inference mode -----------------------------------------------------------------------


def _inference_outcomes(lib) -> dict:
    """What PyTorch's inference-mode rules give, case by case: a value or an error."""
    w = lib.ones(3, requires_grad=True)
    with lib.inference_mode():
        x = lib.ones(3)
        y = w * 2
        inside = {
            "modes": (lib.is_grad_enabled(), lib.is_inference_mode_enabled()),
            "x": x.is_inference(),
            "y": (y.is_inference(), y.requires_grad, y.grad_fn is None),
            "w": w.is_inference(),
            "in-place on x": x.add_(1).is_inference(),
        }
        with lib.enable_grad():
            inside["enable_grad"] = (lib.is_grad_enabled(), (w * 2).requires_grad)
        with lib.inference_mode(False):
            inside["inference_mode(False)"] = (
                lib.is_grad_enabled(),
                lib.is_inference_mode_enabled(),
                lib.ones(1).is_inference(),
            )
        with lib.no_grad():
            inside["no_grad"] = (lib.is_grad_enabled(), lib.is_inference_mode_enabled())
    cases = {
        "x * w": lambda: (x * w).requires_grad,
        "w + x": lambda: (w + x).grad_fn is not None,
        "x.exp()": lambda: x.exp().is_inference(),
        "x.add_(1)": lambda: x.add_(1),
        "x[0] = 2": lambda: x.__setitem__(0, 2.0),
        "x.requires_grad_()": lambda: x.requires_grad_(),
        "x.requires_grad_(False)": lambda: x.requires_grad_(False).requires_grad,
        "x._version": lambda: x._version,
        "Parameter(x)": lambda: lib.nn.Parameter(x),
        "x.clone()": lambda: x.clone().is_inference(),
        "x.detach()": lambda: x.detach().is_inference(),
        "x[0]": lambda: x[0].is_inference(),
        "x.view(3)": lambda: x.view(3).is_inference(),
        "x.data": lambda: x.data.is_inference(),
        "x.detach().add_(1)": lambda: x.detach().add_(1).is_inference(),
        "x.data.mul_(2)": lambda: x.data.mul_(2).is_inference(),
        "x.data.data.fill_(3)": lambda: x.data.data.fill_(3).is_inference(),
        "x.detach()._version": lambda: x.detach()._version,
        "x.detach()[0].add_(1)": lambda: x.detach()[0].add_(1),
        "x.detach().view(3).add_(1)": lambda: x.detach().view(3).add_(1),
        "x.detach()[0] = 2": lambda: x.detach().__setitem__(0, 2.0),
        "x.detach().requires_grad_()": lambda: x.detach().requires_grad_(),
        "x.detach() * w": lambda: (x.detach() * w).requires_grad,
        "y.numpy()": lambda: y.numpy().tolist(),
        "no_grad: x.add_(1)": lambda: _in(lib.no_grad(), lambda: x.add_(1)),
        "plain tensor": lambda: lib.ones(1).is_inference(),
        "no_grad tensor": lambda: _in(lib.no_grad(), lambda: lib.ones(1).is_inference()),
        "modes after": lambda: (lib.is_grad_enabled(), lib.is_inference_mode_enabled()),
    }
    outside = {}
    for name, fn in cases.items():
        try:
            outside[name] = fn()
        except RuntimeError as e:
            outside[name] = "RuntimeError: " + str(e).replace("torch.", "minigrad.")
    return {"inside": inside, "outside": outside}


def _in(context, fn):
    with context:
        return fn()


def test_inference_mode_as_pytorch(torch):
    ours, theirs = _inference_outcomes(mg), _inference_outcomes(torch)
    assert ours["inside"] == theirs["inside"]
    for name in theirs["outside"]:
        assert ours["outside"][name] == theirs["outside"][name], name


@pytest.mark.parametrize("lib_name", ["minigrad", "torch"])
def test_inference_mode_decorators_and_repr(lib_name, torch):
    lib = mg if lib_name == "minigrad" else torch

    @lib.inference_mode
    def bare():
        return lib.ones(1).is_inference(), lib.is_inference_mode_enabled()

    @lib.inference_mode()
    def called():
        return lib.ones(1).is_inference()

    @lib.inference_mode(False)
    def off():
        return lib.is_inference_mode_enabled()

    assert bare() == (True, True) and called() is True
    with lib.inference_mode():
        assert off() is False
        assert lib.is_inference_mode_enabled()
    assert not lib.is_inference_mode_enabled()
    assert repr(lib.inference_mode()).startswith(
        f"<{lib_name}.autograd.grad_mode.inference_mode object at 0x"
    )
    assert lib.autograd.inference_mode is lib.inference_mode
    with lib.inference_mode():
        made_inside = lib.ones(1)
    assert lib.is_inference(made_inside) and not lib.is_inference(lib.ones(1))
    with pytest.raises(TypeError, match=r"is_inference\(\): argument 'input' \(position 1\) "):
        lib.is_inference([1])


def test_inference_tensors_are_fine_where_nothing_is_saved():
    with mg.inference_mode():
        x = mg.tensor(np.arange(3.0))
    w = mg.ones(3, requires_grad=True)
    (w + x).sum().backward()  # AddBackward0 saves nothing: allowed, as in PyTorch
    np.testing.assert_array_equal(w.grad.numpy(), np.ones(3))
    y = x.clone()  # a normal tensor again
    (w * y).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), 1 + np.arange(3.0))
