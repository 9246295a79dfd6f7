"""Autograd: custom Functions, backward, grad, gradcheck, grad modes, the graph, freeing, hooks.

Expected values and messages are what PyTorch 2.13 gives (``torch.`` read as ``minigrad.``).
"""

from __future__ import annotations

import re

import pytest

import minigrad
from minigrad.autograd import Function
from minigrad.autograd.graph import AccumulateGrad

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)


def leaf(values, dtype=minigrad.float32) -> minigrad.Tensor:
    return minigrad.tensor(values, dtype=dtype, requires_grad=True)


# -- custom Functions (lesson 6) -------------------------------------------------------------------


class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


def test_custom_function_forward_backward() -> None:
    x = leaf([1.0, -2.0, 3.0])
    y = Square.apply(x)
    assert y.tolist() == [1.0, 4.0, 9.0]
    assert y.requires_grad and not y.is_leaf
    assert y.grad_fn.name() == "SquareBackward" and type(y.grad_fn).__name__ == "SquareBackward"
    assert re.fullmatch(
        r"<minigrad\.autograd\.function\.SquareBackward object at 0x[0-9a-f]+>", repr(y.grad_fn)
    )
    assert repr(y) == "tensor([1., 4., 9.], grad_fn=<SquareBackward>)"
    ((acc, index),) = y.grad_fn.next_functions
    assert isinstance(acc, AccumulateGrad) and acc.variable is x and index == 0
    y.sum().backward()
    assert x.grad.tolist() == [2.0, -4.0, 6.0]


def test_custom_function_without_grad_needed() -> None:
    out = Square.apply(minigrad.tensor([2.0]))
    assert out.grad_fn is None and not out.requires_grad
    with minigrad.no_grad():
        out = Square.apply(leaf([2.0]))
    assert out.grad_fn is None and not out.requires_grad


def test_forward_runs_with_grad_mode_off() -> None:
    seen = []

    class Probe(Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(minigrad.is_grad_enabled())
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            seen.append(minigrad.is_grad_enabled())
            return grad * 2

    Probe.apply(leaf([1.0])).sum().backward()
    assert seen == [False, False]


class ScaledMul(Function):
    """Two tensors and a constant: the constant gets no edge and returns None."""

    @staticmethod
    def forward(ctx, a, b, scale):
        ctx.save_for_backward(a, b)
        ctx.scale = scale
        ctx.needs = ctx.needs_input_grad
        return a * b * scale

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        ctx.needs_in_backward = ctx.needs_input_grad
        ga = grad * b * ctx.scale if ctx.needs_input_grad[0] else None
        gb = grad * a * ctx.scale if ctx.needs_input_grad[1] else None
        return ga, gb, None


def test_needs_input_grad_has_one_flag_per_argument() -> None:
    a, b = leaf([1.0, 2.0]), minigrad.tensor([3.0, 4.0])
    y = ScaledMul.apply(a, b, 10.0)
    assert y.tolist() == [30.0, 80.0]
    assert len(y.grad_fn.next_functions) == 2 and y.grad_fn.next_functions[1] == (None, 0)
    assert y.grad_fn.needs == (True, False, False)
    y.sum().backward()
    assert y.grad_fn.needs_in_backward == (True, False, False)
    assert a.grad.tolist() == [30.0, 40.0] and b.grad is None


def test_custom_function_that_returns_its_input() -> None:
    class Identity(Function):
        @staticmethod
        def forward(ctx, a):
            return a

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = leaf([1.0, 2.0])
    y = Identity.apply(x)
    assert y is not x and y.data_ptr() == x.data_ptr() and y._version == 0
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_setup_context_style() -> None:
    class Mul3(Function):
        @staticmethod
        def forward(x):
            return x * 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.factor = 3

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.factor

    x = leaf([1.0, 2.0])
    Mul3.apply(x).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_custom_function_saved_tensor_version_check() -> None:
    x = leaf([1.0, 2.0])
    h = x + 1
    y = Square.apply(h)
    h.add_(1)
    with pytest.raises(RuntimeError) as info:
        y.sum().backward()
    assert str(info.value).startswith(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minigrad.FloatTensor [2]], which is output 0 of Add, is at version 1; "
        "expected version 0 instead."
    )


def test_custom_function_second_backward_raises() -> None:
    y = Square.apply(leaf([1.0, 2.0])).sum()
    y.backward()
    with pytest.raises(RuntimeError) as info:
        y.backward()
    assert str(info.value) == SECOND_BACKWARD


@pytest.mark.parametrize(
    ("backward", "error", "message"),
    [
        (
            lambda ctx, g: (g, g),
            RuntimeError,
            "function BadBackward returned an incorrect number of gradients (expected 1, got 2)",
        ),
        (
            lambda ctx, g: minigrad.ones(3),
            RuntimeError,
            "Function BadBackward returned an invalid gradient at index 0 - got [3] but expected "
            "shape compatible with [2]",
        ),
        (lambda ctx, g: 1.0, RuntimeError, "expected Variable or None (got float)"),
    ],
)
def test_custom_backward_errors(backward, error, message) -> None:
    class Bad(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    Bad.backward = staticmethod(backward)
    with pytest.raises(error) as info:
        Bad.apply(leaf([1.0, 2.0])).sum().backward()
    assert str(info.value) == message


def test_custom_function_without_backward() -> None:
    class NoBackward(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    with pytest.raises(NotImplementedError, match="^You must implement either the backward or "):
        NoBackward.apply(leaf([1.0])).sum().backward()


def test_custom_backward_gradient_is_summed_to_a_broadcast_input() -> None:
    class AddBias(Function):
        @staticmethod
        def forward(ctx, x, b):
            return x + b

        @staticmethod
        def backward(ctx, grad):
            return grad, grad  # b's gradient has x's shape: summed back to b's

    x, b = leaf([[1.0, 2.0], [3.0, 4.0]]), leaf([0.5, 0.5])
    AddBias.apply(x, b).sum().backward()
    assert b.grad.tolist() == [2.0, 2.0]


# -- backward, grad, gradcheck ---------------------------------------------------------------------


def test_backward_with_gradient_and_retain_graph() -> None:
    x = leaf([1.0, 2.0])
    y = x * x
    y.backward(minigrad.tensor([1.0, 0.1]), retain_graph=True)
    assert x.grad.tolist() == pytest.approx([2.0, 0.4])
    y.backward(gradient=minigrad.ones(2))
    assert x.grad.tolist() == pytest.approx([4.0, 4.4])


def test_backward_of_a_leaf() -> None:
    x = minigrad.tensor(3.0, requires_grad=True)
    x.backward()
    assert x.grad.item() == 1.0


def test_autograd_backward_with_several_roots() -> None:
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    minigrad.autograd.backward([(a * 2).sum(), (b * 3).sum()])
    assert a.grad.tolist() == [2.0, 2.0] and b.grad.tolist() == [3.0, 3.0]
    y = a * b
    minigrad.autograd.backward(y, grad_tensors=minigrad.ones(2))
    assert a.grad.tolist() == [5.0, 6.0]


def test_backward_inputs_accumulates_only_there() -> None:
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    (x * w).sum().backward(inputs=[x])
    assert x.grad.tolist() == [3.0, 4.0] and w.grad is None
    with pytest.raises(RuntimeError, match=r"^`inputs` argument to `backward\(\)` cannot be empty"):
        (x * w).sum().backward(inputs=[])


def test_autograd_grad_leaves_dot_grad_alone() -> None:
    x, w = leaf([1.0, 2.0, 3.0]), leaf([0.5, 0.5, 0.5])
    y = (x * x * w).sum()
    gx, gw = minigrad.autograd.grad(y, [x, w], retain_graph=True)
    assert gx.tolist() == [1.0, 2.0, 3.0] and gw.tolist() == [1.0, 4.0, 9.0]
    assert x.grad is None and w.grad is None
    assert not gx.requires_grad and gx.grad_fn is None
    (again,) = minigrad.autograd.grad(y, x)
    assert again.tolist() == gx.tolist()
    twice = minigrad.autograd.grad((x * 2).sum(), [x, x])  # the same input twice
    assert [g.tolist() for g in twice] == [[2.0, 2.0, 2.0]] * 2


def test_autograd_grad_of_non_leaf_and_grad_outputs() -> None:
    a = leaf([1.0, 2.0])
    y = a * 3
    gy, ga = minigrad.autograd.grad((y * y).sum(), [y, a])
    assert gy.tolist() == [6.0, 12.0] and ga.tolist() == [18.0, 36.0]
    (g,) = minigrad.autograd.grad((a * 2).sum(), a, grad_outputs=minigrad.tensor(3.0))
    assert g.tolist() == [6.0, 6.0]


def test_autograd_grad_unused_inputs() -> None:
    x, z = leaf([1.0, 2.0]), leaf([1.0, 2.0])
    y = (x * 2).sum()
    assert minigrad.autograd.grad(y, [x, z], allow_unused=True, retain_graph=True)[1] is None
    (zeros,) = minigrad.autograd.grad(y, [z], materialize_grads=True, retain_graph=True)
    assert zeros.tolist() == [0.0, 0.0]
    with pytest.raises(RuntimeError) as info:
        minigrad.autograd.grad(y, [x, z])
    assert str(info.value) == (
        "The differentiated Tensor at index 1 appears to not have been used in the graph. Set "
        "allow_unused=True if this is the desired behavior."
    )


def test_autograd_grad_errors() -> None:
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar"):
        minigrad.autograd.grad(x * 2, x)
    with pytest.raises(RuntimeError, match="^One of the differentiated Tensors does not require "):
        minigrad.autograd.grad((x * 2).sum(), minigrad.ones(2))


def test_create_graph_builds_a_graph_of_the_gradient() -> None:
    x = leaf([1.0])
    with pytest.warns(UserWarning, match="create a reference cycle"):
        minigrad.autograd.backward_api._warned = False
        (x * x).sum().backward(create_graph=True)
    assert x.grad.grad_fn is not None


def test_gradcheck() -> None:
    x = leaf([0.5, -1.5, 2.0], dtype=minigrad.float64)
    w = leaf([[1.0, 2.0, 3.0]], dtype=minigrad.float64)
    assert minigrad.autograd.gradcheck(lambda a, b: (a.sin() * b).sum(1), (x, w))
    assert minigrad.autograd.gradcheck(Square.apply, (x,))
    assert minigrad.autograd.gradcheck(Square.apply, x)

    class WrongSquare(Square):
        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 3 * x * grad

    assert minigrad.autograd.gradcheck(WrongSquare.apply, (x,), raise_exception=False) is False
    with pytest.raises(
        RuntimeError, match="^Jacobian mismatch for output 0 with respect to input 0"
    ):
        minigrad.autograd.gradcheck(WrongSquare.apply, (x,))
    assert x.grad is None  # gradcheck leaves .grad alone


def test_gradcheck_warnings_and_errors() -> None:
    with pytest.warns(UserWarning, match="^Input #0 requires gradient and is not a double "):
        assert minigrad.autograd.gradcheck(lambda a: a * 2, (leaf([0.5]),), eps=1e-3, atol=1e-2)
    with pytest.raises(ValueError) as info:
        minigrad.autograd.gradcheck(lambda a: a * 2, (minigrad.ones(2, dtype=minigrad.float64),))
    assert str(info.value) == (
        "gradcheck expects at least one input tensor to require gradient, but none of them have "
        "requires_grad=True."
    )


# -- grad modes ------------------------------------------------------------------------------------


def test_no_grad_and_enable_grad_as_context_managers() -> None:
    x = leaf([1.0, 2.0])
    assert minigrad.is_grad_enabled()
    with minigrad.no_grad() as nothing:
        assert nothing is None
        assert not minigrad.is_grad_enabled()
        y = x * 2
        with minigrad.enable_grad():
            assert minigrad.is_grad_enabled()
            z = x * 2
        assert not minigrad.is_grad_enabled()
    assert minigrad.is_grad_enabled()
    assert not y.requires_grad and y.grad_fn is None and y.is_leaf
    assert z.requires_grad and z.grad_fn.name() == "MulBackward0"


def test_grad_modes_as_decorators() -> None:
    x = leaf([1.0, 2.0])

    @minigrad.no_grad()
    def f(t):
        return t * 3

    @minigrad.no_grad
    def g(t):
        return t * 3

    @minigrad.enable_grad()
    def h(t):
        return t * 3

    @minigrad.set_grad_enabled(False)
    def k(t):
        return t * 3

    assert minigrad.is_grad_enabled()  # decorating does not change the mode
    assert not f(x).requires_grad and not g(x).requires_grad and not k(x).requires_grad
    with minigrad.no_grad():
        assert h(x).requires_grad
    assert f.__name__ == "f" and g.__name__ == "g"
    assert minigrad.is_grad_enabled()


def test_set_grad_enabled_as_function_and_context() -> None:
    x = leaf([1.0])
    try:
        minigrad.set_grad_enabled(False)
        assert not minigrad.is_grad_enabled() and not (x + 1).requires_grad
    finally:
        minigrad.set_grad_enabled(True)
    assert (x + 1).requires_grad
    with minigrad.set_grad_enabled(False):
        assert not (x + 1).requires_grad
    assert minigrad.is_grad_enabled()
    with minigrad.no_grad(), minigrad.set_grad_enabled(True):
        assert (x + 1).requires_grad
    assert repr(minigrad.set_grad_enabled(True)) == (
        "minigrad.autograd.grad_mode.set_grad_enabled(mode=True)"
    )
    with pytest.raises(TypeError) as info:
        minigrad.set_grad_enabled(1)
    assert str(info.value) == (
        "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not int"
    )


def test_grad_mode_is_restored_after_an_exception() -> None:
    with pytest.raises(ValueError):
        with minigrad.no_grad():
            raise ValueError
    assert minigrad.is_grad_enabled()

    @minigrad.no_grad()
    def boom():
        raise ValueError

    with pytest.raises(ValueError):
        boom()
    assert minigrad.is_grad_enabled()


def test_grad_mode_names_in_autograd() -> None:
    assert minigrad.autograd.no_grad is minigrad.no_grad
    assert minigrad.autograd.enable_grad is minigrad.enable_grad
    assert minigrad.autograd.set_grad_enabled is minigrad.set_grad_enabled
    assert minigrad.autograd.is_grad_enabled is minigrad.is_grad_enabled


# -- the graph: grad_fn, next_functions, AccumulateGrad --------------------------------------------


def test_mean_of_v_squared_graph() -> None:
    v = leaf([[1.0, 2.0], [3.0, 4.0]])
    out = minigrad.mean(v * v)
    mean = out.grad_fn
    assert mean.name() == "MeanBackward0"
    ((mul, zero),) = mean.next_functions
    assert zero == 0 and mul.name() == "MulBackward0"
    (acc1, i1), (acc2, i2) = mul.next_functions
    assert acc1 is acc2 and (i1, i2) == (0, 0)
    assert type(acc1) is AccumulateGrad and acc1.name() == "minigrad::autograd::AccumulateGrad"
    assert acc1.variable is v and acc1.next_functions == ()
    assert re.fullmatch(r"<AccumulateGrad object at 0x[0-9a-f]+>", repr(acc1))
    assert re.fullmatch(r"<MulBackward0 object at 0x[0-9a-f]+>", repr(mul))
    out.backward()
    assert v.grad.equal(v.detach() / 2)


def test_next_functions_of_inputs_without_grad() -> None:
    x, c = leaf([1.0, 2.0]), minigrad.tensor([3.0, 4.0])
    y = x * c + c
    add = y.grad_fn
    assert add.next_functions[1] == (None, 0)
    assert add.next_functions[0][0].next_functions[1] == (None, 0)
    assert (x + 1).grad_fn.next_functions[1] == (None, 0)
    assert len((1 - x).grad_fn.next_functions) == 1


def test_linear_layer_graph() -> None:
    w = leaf([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    b = leaf([0.5, -0.5, 1.0])
    x = minigrad.tensor([[1.0, -1.0], [2.0, 0.5]])
    y = minigrad.addmm(b, x, w.t())
    assert y.grad_fn.name() == "AddmmBackward0"
    names = [f.name() if f else None for f, _ in y.grad_fn.next_functions]
    assert names == ["minigrad::autograd::AccumulateGrad", None, "TBackward0"]
    y.sum().backward()
    assert b.grad.tolist() == [2.0, 2.0, 2.0]
    assert w.grad.tolist() == [[3.0, -0.5]] * 3


def test_accumulate_grad_node_is_shared_by_all_uses() -> None:
    x = leaf([1.0])
    nodes = {(x * 2).grad_fn.next_functions[0][0], (x + 1).grad_fn.next_functions[0][0]}
    assert len(nodes) == 1


def test_diamond_graph_gradient() -> None:
    x = minigrad.tensor(2.0, dtype=minigrad.float64, requires_grad=True)
    a = x * 3
    d = a.exp() * a.sin() + a
    d.backward()
    av = 6.0
    import math

    expected = 3 * (math.exp(av) * math.sin(av) + math.exp(av) * math.cos(av) + 1)
    assert x.grad.item() == pytest.approx(expected)


# -- freeing the graph, retain_graph, accumulation -------------------------------------------------


def test_second_backward_raises_and_retain_graph_allows_it() -> None:
    x = leaf([1.0, 2.0, 3.0])
    y = (x * x).sum()
    y.backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    with pytest.raises(RuntimeError) as info:
        y.backward()
    assert str(info.value) == SECOND_BACKWARD
    x.grad = None
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [6.0, 12.0, 18.0]


def test_graphs_without_saved_tensors_can_run_twice() -> None:
    x = leaf([1.0, 2.0])
    y = (x + 1).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_autograd_grad_frees_the_graph_too() -> None:
    x = leaf([1.0, 2.0])
    y = x.exp().sum()
    minigrad.autograd.grad(y, x)
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        y.backward()


def test_gradients_accumulate_until_zeroed() -> None:
    x = leaf([1.0, 2.0])
    (x * 2).sum().backward()
    g = x.grad
    (x * 3).sum().backward()
    assert x.grad is g and g.tolist() == [5.0, 5.0]  # accumulated in place
    x.grad.zero_()
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    x.grad = None
    x.exp().sum().backward()
    assert x.grad.tolist() == pytest.approx([2.7182817, 7.389056])


# -- hooks and retain_grad -------------------------------------------------------------------------


def test_hooks_see_and_replace_gradients() -> None:
    x = leaf([1.0, 2.0])
    calls = []
    x.register_hook(lambda g: calls.append(("x1", g.tolist())))
    x.register_hook(lambda g: g * 2)
    x.register_hook(lambda g: calls.append(("x3", g.tolist())))
    y = x * x
    y.register_hook(lambda g: calls.append(("y", g.tolist())))
    handle = y.register_hook(lambda g: g + 1)
    z = y.sum()
    z.backward(retain_graph=True)
    assert calls == [("y", [1.0, 1.0]), ("x1", [4.0, 8.0]), ("x3", [8.0, 16.0])]
    assert x.grad.tolist() == [8.0, 16.0]
    handle.remove()
    calls.clear()
    x.grad = None
    z.backward()
    assert calls == [("y", [1.0, 1.0]), ("x1", [2.0, 4.0]), ("x3", [4.0, 8.0])]


def test_hook_errors() -> None:
    with pytest.raises(RuntimeError) as info:
        minigrad.ones(2).register_hook(lambda g: g)
    assert str(info.value) == "cannot register a hook on a tensor that doesn't require gradient"
    x = leaf([1.0, 2.0])
    y = x * 2

    def widen(g):
        return minigrad.ones(3)

    y.register_hook(widen)
    with pytest.raises(RuntimeError) as info:
        y.sum().backward()
    assert str(info.value) == "hook 'widen' has changed the size of value"


def test_retain_grad() -> None:
    x = leaf([1.0, 2.0])
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 10)
    z = (y * y).sum()
    z.backward(retain_graph=True)
    assert y.retains_grad and y.grad.tolist() == [40.0, 80.0]
    assert x.grad.tolist() == [80.0, 160.0]
    z.backward()
    assert y.grad.tolist() == [80.0, 160.0]  # accumulates like a leaf's
    x.retain_grad()  # a no-op on a leaf
    assert not x.retains_grad
    with pytest.raises(RuntimeError) as info:
        minigrad.ones(2).retain_grad()
    assert str(info.value) == "can't retain_grad on Tensor that has requires_grad=False"


# -- the observer seam and the order of the walk ---------------------------------------------------


def test_execution_order_and_observers() -> None:
    from minigrad.autograd import graph

    x = leaf([1.0, 2.0])
    y = (x.exp() * x).sum()
    order = [n.name() for n in graph.execution_order(y)]
    assert order == [
        "SumBackward0",
        "MulBackward0",
        "ExpBackward0",
        "minigrad::autograd::AccumulateGrad",
    ]
    seen = []

    class Watcher:
        def on_backward_begin(self, roots):
            seen.append(("begin", [r.name() for r in roots]))

        def on_node(self, node, grad_output, grad_inputs):
            seen.append(node.name())

        def on_backward_end(self):
            seen.append("end")

    handle = graph.register_backward_observer(Watcher())
    try:
        y.backward()
    finally:
        handle.remove()
    assert seen == [("begin", ["SumBackward0"]), *order, "end"]
    (x * 2).sum().backward()
    assert seen[-1] == "end" and len(seen) == len(order) + 2


def test_an_observer_naming_nodes_is_called_only_in_passes_that_run_them():
    """``nodes`` (a dict or set): a pass that runs none of them calls begin and end only;
    a pass that runs one reports the named nodes, including those named during the pass."""
    from minigrad.autograd import graph

    x = leaf([1.0, 2.0])
    y = (x.exp() * x).sum()
    mul = y.grad_fn.next_functions[0][0]
    acc = mul.next_functions[1][0]
    seen = []

    class Watcher:
        nodes: dict | set = {mul: 1}  # the MulBackward0 of y's graph, not x's AccumulateGrad

        def on_backward_begin(self, roots):
            seen.append("begin")

        def on_node(self, node, grad_output, grad_inputs):
            seen.append(node.name())
            if isinstance(self.nodes, dict):
                self.nodes[acc] = 1  # named while the pass runs: reported from now on

        def on_backward_end(self):
            seen.append("end")

    watcher = Watcher()
    handle = graph.register_backward_observer(watcher)
    try:
        (x * 2).sum().backward()  # another graph of the same leaf: nothing named in it
        assert seen == ["begin", "end"]
        y.backward()
        assert seen[2:] == ["begin", "MulBackward0", "minigrad::autograd::AccumulateGrad", "end"]
        watcher.nodes = {acc}
        (x * 3).sum().backward()
    finally:
        handle.remove()
    assert seen[6:] == ["begin", "minigrad::autograd::AccumulateGrad", "end"]


def test_leaf_gradients_never_alias_other_arrays():
    """AccumulateGrad keeps an unshared first gradient uncopied, and copies anything shared."""
    import numpy as np

    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    (a + b).sum().backward()  # AddBackward0 sends the same array to both leaves
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())

    kept = []
    c = minigrad.tensor([1.0, 2.0], requires_grad=True)
    c.register_hook(lambda g: kept.append(g))  # the hook keeps the gradient it saw
    (c * 3).sum().backward()
    assert not np.shares_memory(c.grad.numpy(), kept[0].numpy())

    seed = minigrad.ones(2)
    d = minigrad.tensor([1.0, 2.0], requires_grad=True)
    d.backward(seed)  # the learner's own tensor must not become d.grad
    assert not np.shares_memory(d.grad.numpy(), seed.numpy())
    d.backward(seed)
    assert seed.tolist() == [1.0, 1.0] and d.grad.tolist() == [2.0, 2.0]

    e = minigrad.tensor([1.0, 2.0], requires_grad=True)
    e.view(2, 1).view(2).sum().backward()  # a view's gradient is a reshaped view
    e.grad.add_(1)
    assert e.grad.tolist() == [2.0, 2.0]
