"""Run the same snippet with ``T = torch`` and ``T = minigrad`` and record what a learner sees.

A snippet is Python code written once with the name ``T`` for the module. Inside it:

- ``show(a, b, ...)`` records each value: a tensor's printed text, dtype, shape, ``requires_grad``,
  ``is_leaf``, grad_fn name and values; a Python number (compared with a tolerance); anything else
  by its ``repr``;
- ``graph(t)`` records the backward graph below ``t``: node names, ``next_functions`` in order,
  ``(None, 0)`` edges, nodes reached twice, and for every ``AccumulateGrad`` the names in the
  snippet that hold its ``.variable``;
- an exception ends the snippet and is recorded by type and message; warnings are recorded too.

Text is normalised before comparing: ``torch.`` becomes ``minigrad.`` (where PyTorch names its own
module) and memory addresses become ``0x?``.
"""

from __future__ import annotations

import math
import textwrap
import warnings

import numpy as np
from difffuzz.runner import graph_signature, normalise  # one graph walk, one renaming


def _is_tensor(value) -> bool:
    return type(value).__name__ in ("Tensor", "Parameter") and hasattr(value, "grad_fn")


class Recorder:
    """What one run of a snippet produced: a list of comparable items."""

    def __init__(self, module) -> None:
        self.module = module
        self.items: list = []
        self.namespace: dict = {}

    # -- describing values -------------------------------------------------------------------------
    def describe(self, value):
        if _is_tensor(value):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn = value.grad_fn
            plain = value.detach()
            if getattr(plain, "_is_zerotensor", bool)():  # PyTorch's unallocated zeros
                plain = plain.new_zeros(plain.shape)
            values = np.array(plain.tolist(), dtype=np.float64)
            return (
                "tensor",
                normalise(repr(value)),
                normalise(repr(value.dtype)),
                list(value.shape),
                value.requires_grad,
                value.is_leaf,
                None if fn is None else normalise(fn.name()),
                values,
            )
        if isinstance(value, bool) or value is None:
            return ("repr", repr(value))
        if isinstance(value, float):
            return ("float", value)
        if type(value) in (tuple, list):
            return (type(value).__name__, [self.describe(v) for v in value])
        if isinstance(value, np.ndarray):
            return ("ndarray", str(value.dtype), value.shape, value.astype(np.float64).tolist())
        return ("repr", normalise(repr(value)))

    def show(self, *values) -> None:
        for v in values:
            self.items.append(self.describe(v))

    def graph(self, tensor) -> None:
        """Record the graph below ``tensor.grad_fn`` (a DAG: shared nodes are named once)."""
        self.items.append(("graph", graph_signature(tensor, self.namespace)))


# PyTorch gives these warnings once per process (TORCH_WARN_ONCE), and so does minigrad. Which
# snippet shows one depends on what ran before it in the same pytest worker (another test may
# have used up torch's, or reset minigrad's), so the comparison leaves them out. Their text and
# once-ness are checked by the unit tests (test_autograd, test_double_backward, test_tensor).
ONCE_PER_PROCESS = (
    "Using backward() with create_graph=True will create a reference cycle",
    "Tensor.T is deprecated",
    "Tensor.mT is deprecated",
    "Tensor.mH is deprecated",
    "Tensor.H is deprecated",
    "The use of `x.T` on tensors of dimension other than 2",
    "grad and param do not obey the gradient layout contract",
)


def run(module, code: str) -> list:
    """Execute ``code`` with ``T = module``; return the recorded items (exceptions included)."""
    rec = Recorder(module)
    ns = rec.namespace
    ns.update(T=module, np=np, math=math, show=rec.show, graph=rec.graph)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", append=True)
        try:
            exec(textwrap.dedent(code), ns)
        except Exception as e:  # noqa: BLE001 - the exception is the result
            rec.items.append(("raises", type(e).__name__, normalise(str(e))))
        finally:
            module.set_grad_enabled(True)  # a snippet that fails must not leak grad mode
    for w in caught:
        if issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning)):
            continue
        if str(w.message).startswith(ONCE_PER_PROCESS):
            continue
        rec.items.append(("warning", w.category.__name__, normalise(str(w.message))))
    return rec.items


def same(a, b) -> bool:
    """Compare two recorded items: exact text, numbers with a float32 tolerance."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True))
    if isinstance(a, float):
        return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


# --------------------------------------------------------------------------------------------------
# The snippets: name -> code. Each runs with T = torch and T = minigrad.
# --------------------------------------------------------------------------------------------------

SNIPPETS: dict[str, str] = {
    # -- lesson 1: eggs and baskets ----------------------------------------------------------------
    "variable_basket": """
        from T.autograd import Variable
        t = T.tensor([[1., 2.], [3., 4.]])
        v = Variable(t, requires_grad=True)
        show(v, type(v), type(v) is T.Tensor, isinstance(t, Variable), isinstance(v, Variable))
        show(str(type(v)), v.requires_grad, v.is_leaf, v.grad, v.grad_fn)
    """,
    "variable_requires_grad_ints": """
        from T.autograd import Variable
        t = T.ones(2)
        show(Variable(t, requires_grad=1).requires_grad)
        show(Variable(t, requires_grad=2).requires_grad)
        show(Variable(t, requires_grad=0).requires_grad)
        show(Variable(t, requires_grad=255).requires_grad)
        show(Variable(t, requires_grad=True).requires_grad, Variable(t).requires_grad)
    """,
    "variable_requires_grad_float": """
        from T.autograd import Variable
        Variable(T.ones(2), requires_grad=1.0)
    """,
    "variable_requires_grad_none": """
        from T.autograd import Variable
        Variable(T.ones(2), requires_grad=None)
    """,
    "variable_requires_grad_str": """
        from T.autograd import Variable
        Variable(T.ones(2), requires_grad='yes')
    """,
    "variable_requires_grad_negative": """
        from T.autograd import Variable
        Variable(T.ones(2), requires_grad=-3)
    """,
    "variable_requires_grad_256": """
        from T.autograd import Variable
        Variable(T.ones(2), requires_grad=256)
    """,
    "variable_shares_storage_and_version": """
        from T.autograd import Variable
        t = T.tensor([1., 2., 3.])
        a = Variable(t)
        b = Variable(t, requires_grad=False)
        c = Variable(t, requires_grad=True).detach()
        p = t.data_ptr()
        show(a.data_ptr() == p, b.data_ptr() == p, c.data_ptr() == p)
        t.add_(1)
        show(a._version, b._version, c._version, t._version, a, b, c)
        show(a is t, b is t, c is t, a.requires_grad, b.requires_grad, c.requires_grad)
        a.mul_(2)
        show(t, t._version)
    """,
    "variable_of_non_tensor": """
        from T.autograd import Variable
        Variable([1., 2.])
    """,
    "tensor_factory_requires_grad_int": """
        T.tensor([1., 2.], requires_grad=1)
    """,
    "ones_requires_grad_int": """
        T.ones(2, requires_grad=1)
    """,
    "requires_grad_on_integer_tensor": """
        T.tensor([1, 2], requires_grad=True)
    """,
    "requires_grad_attr_on_integer_tensor": """
        x = T.tensor([1, 2])
        x.requires_grad = True
    """,
    "requires_grad_method_on_integer_tensor": """
        x = T.tensor([1, 2])
        x.requires_grad_()
    """,
    "requires_grad_on_non_leaf": """
        x = T.ones(2, requires_grad=True)
        y = x * 2
        y.requires_grad = False
    """,
    "requires_grad_true_on_non_leaf": """
        x = T.ones(2, requires_grad=True)
        y = x * 2
        y.requires_grad = True
        show(y)
    """,
    # -- lesson 2: the graph -----------------------------------------------------------------------
    "mean_x_squared": """
        x = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        out = T.mean(x*x)
        show(x, out, out.grad_fn, out.grad_fn.name())
        graph(out)
        out.backward()
        show(x.grad, x / 2, T.equal(x.grad, x.detach() / 2))
        acc = out.grad_fn.next_functions[0][0].next_functions[0][0]
        show(acc.variable is x, acc is out.grad_fn.next_functions[0][0].next_functions[1][0])
        show(out.grad_fn.next_functions[0][0].next_functions)
    """,
    "variable_mean_graph": """
        from T.autograd import Variable
        v = Variable(T.FloatTensor([[1, 2], [3, 4]]), requires_grad=True)
        out = T.mean(v * v)
        show(v, out)
        graph(out)
        out.backward()
        show(v.grad)
    """,
    "graph_with_constant_input": """
        x = T.tensor([1., 2.], requires_grad=True)
        c = T.tensor([3., 4.])
        y = (x * c + c).sum()
        graph(y)
        show(y.grad_fn.next_functions[0][0].next_functions)
    """,
    "graph_linear_like": """
        w = T.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
        b = T.tensor([0.5, -0.5, 1.], requires_grad=True)
        x = T.tensor([[1., -1.], [2., 0.5]])
        y = T.addmm(b, x, w.t())
        show(y)
        graph(y)
        y.sum().backward()
        show(w.grad, b.grad)
    """,
    "graph_T_is_permute": """
        w = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        y = w.T
        z = w.t()
        show(y.grad_fn.name(), z.grad_fn.name(), y._version, y.is_leaf)
        graph(y @ z)
    """,
    "graph_names_many_ops": """
        x = T.tensor([[0.5, -1.], [2., 3.]], requires_grad=True)
        y = T.tensor([[1., 2.], [-3., 0.25]], requires_grad=True)
        outs = [x + y, x - y, x * y, x / y, -x, x ** 2, x ** y, 2 ** x, x.exp(), x.abs().log(),
                x.abs().sqrt(), x.abs(), x.sin(), x.cos(), x.tanh(), x.sigmoid(), x.relu(),
                x.clamp(-0.5, 1.), x.clamp(min=0.), x.sum(), x.sum(0), x.mean(), x.mean(1),
                x.max(), x.min(), x.max(0)[0], x.min(1).values, x.var(), x.std(), x.var(0),
                x.std(1), x.softmax(0), x.log_softmax(1), x.view(4), x.reshape(4), x.flatten(),
                x.unsqueeze(0), x.unsqueeze(0).squeeze(), x.unsqueeze(0).squeeze(0),
                x.transpose(0, 1), x.t(), x.T, x.permute(1, 0), x[0], x[:, 1], x[0, 1], x[1:],
                x[[0, 1]], x[x > 0], T.cat([x, y]), T.stack([x, y]), T.where(x > 0, x, y),
                T.maximum(x, y), T.minimum(x, y), x @ y, x.mm(y), x.mv(y[0]), x[0].dot(y[1]),
                x.expand(2, 2, 2), x.clone(), x.double(), x.to(T.float64), 1 - x, 1 / x,
                x + 1, 2 * x, x / 2, x - 1, x.t().reshape(4)]
        show([o.grad_fn.name() for o in outs])
        show([len(o.grad_fn.next_functions) for o in outs])
    """,
    # -- backward: accumulation, retain_graph, freeing ---------------------------------------------
    "second_backward_raises": """
        x = T.tensor([1., 2., 3.], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        show(x.grad)
        y.backward()
    """,
    "second_backward_through_exp_raises": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x.exp().sum()
        T.autograd.grad(y, x)
        y.backward()
    """,
    "retain_graph_accumulates": """
        x = T.tensor([1., 2., 3.], requires_grad=True)
        y = (x * x).sum()
        y.backward(retain_graph=True)
        show(x.grad)
        y.backward(retain_graph=True)
        show(x.grad)
        y.backward()
        show(x.grad)
        x.grad.zero_()
        show(x.grad)
        (x * 3).sum().backward()
        show(x.grad)
        x.grad = None
        (x.exp()).sum().backward()
        show(x.grad)
    """,
    "second_backward_without_saved_tensors_is_fine": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = (x + 1).sum()
        y.backward()
        y.backward()
        show(x.grad)
    """,
    "backward_non_scalar": """
        x = T.tensor([1., 2.], requires_grad=True)
        (x * 2).backward()
    """,
    "backward_with_gradient": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * x
        y.backward(T.tensor([1., 0.1]))
        show(x.grad)
        y2 = x * 3
        y2.backward(gradient=T.ones(2), retain_graph=None)
        show(x.grad)
    """,
    "backward_gradient_wrong_shape": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * x
        y.backward(T.ones(3))
    """,
    "backward_gradient_wrong_shape_2d": """
        x = T.ones(2, 3, requires_grad=True)
        y = x * x
        y.backward(T.ones(3, 2))
    """,
    "backward_no_grad_needed": """
        x = T.tensor([1., 2.])
        (x * 2).sum().backward()
    """,
    "backward_on_leaf": """
        x = T.tensor(3., requires_grad=True)
        x.backward()
        show(x.grad)
    """,
    "backward_gradient_scalar_and_python": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = (x * x).sum()
        y.backward(T.tensor(2.))
        show(x.grad)
    """,
    "autograd_backward_function": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * x
        T.autograd.backward([y.sum()])
        show(x.grad)
        T.autograd.backward(y, grad_tensors=T.ones(2))
    """,
    "autograd_grad": """
        x = T.tensor([1., 2., 3.], requires_grad=True)
        w = T.tensor([0.5, 0.5, 0.5], requires_grad=True)
        y = (x * x * w).sum()
        gx, gw = T.autograd.grad(y, [x, w], retain_graph=True)
        show(gx, gw, x.grad, w.grad)
        (gx2,) = T.autograd.grad(y, x)
        show(gx2)
    """,
    "autograd_grad_unused": """
        x = T.tensor([1., 2.], requires_grad=True)
        z = T.tensor([1., 2.], requires_grad=True)
        y = (x * 2).sum()
        show(T.autograd.grad(y, [x, z], allow_unused=True, retain_graph=True))
        T.autograd.grad(y, [x, z])
    """,
    "autograd_grad_non_scalar": """
        x = T.tensor([1., 2.], requires_grad=True)
        T.autograd.grad(x * 2, x)
    """,
    "autograd_grad_input_no_grad": """
        x = T.tensor([1., 2.], requires_grad=True)
        c = T.tensor([1., 2.])
        T.autograd.grad((x * c).sum(), c)
    """,
    "grad_of_non_leaf_warns": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * 2
        y.sum().backward()
        show(y.grad, x.grad)
    """,
    "retain_grad": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * 2
        y.retain_grad()
        z = (y * y).sum()
        z.backward(retain_graph=True)
        show(y.grad, x.grad, y.is_leaf, y.retains_grad, x.retains_grad)
        z.backward()
        show(y.grad, x.grad)
    """,
    "register_hook": """
        x = T.tensor([1., 2.], requires_grad=True)
        seen = []
        y = x * 3
        h = y.register_hook(lambda g: seen.append(g.clone()))
        x.register_hook(lambda g: g * 10)
        (y * y).sum().backward()
        show(seen, x.grad)
        h.remove()
    """,
    "register_hook_no_grad": """
        x = T.tensor([1., 2.])
        x.register_hook(lambda g: g)
    """,
    "retain_grad_no_grad": """
        x = T.tensor([1., 2.])
        x.retain_grad()
    """,
    "tensor_used_twice": """
        x = T.tensor([1., -2., 3.], requires_grad=True)
        y = x * x + x.sin() * x
        y.sum().backward()
        show(x.grad)
        graph(y)
    """,
    "diamond_graph": """
        x = T.tensor(2., dtype=T.float64, requires_grad=True)
        a = x * 3
        b = a.exp()
        c = a.sin()
        d = b * c + a
        d.backward()
        show(x.grad, d)
        graph(d)
    """,
    # -- lesson 3: getting the eggs out ------------------------------------------------------------
    "numpy_refused": """
        x = T.tensor([1., 2.], requires_grad=True)
        x.numpy()
    """,
    "np_array_refused": """
        x = T.tensor([1., 2.], requires_grad=True)
        np.array(x)
    """,
    "np_asarray_refused_non_leaf": """
        x = T.tensor([1., 2.], requires_grad=True)
        np.asarray(x * 2)
    """,
    "numpy_shares_memory": """
        x = T.tensor([1., 2.], requires_grad=True)
        a = x.data.numpy()
        b = x.detach().numpy()
        a[0] = 10.
        show(x, b, np.array(x.detach()), x.detach().numpy().dtype.name)
        n = np.ones(3)
        t = T.from_numpy(n)
        n[1] = 5
        show(t, T.as_tensor(n), T.tensor(n))
        t2 = T.tensor(n); n[2] = 7
        show(t2, t)
    """,
    "data_vs_detach_versions": """
        x = T.tensor([1., 2.], requires_grad=True)
        d = x.data
        e = x.detach()
        show(d.requires_grad, e.requires_grad, d.is_leaf, e.is_leaf, d.grad_fn, e.grad_fn)
        show(x._version, d._version, e._version)
        e.add_(1)
        show(x._version, d._version, e._version)
        d.add_(1)
        show(x._version, d._version, e._version, x)
    """,
    "detach_modification_breaks_backward": """
        a = T.tensor([1., 2., 3.], requires_grad=True)
        b = a.sigmoid()
        c = b.detach()
        c.zero_()
        show(b)
        b.sum().backward()
    """,
    "data_modification_gives_wrong_gradient": """
        a = T.tensor([1., 2., 3.], requires_grad=True)
        b = a.sigmoid()
        c = b.data
        c.zero_()
        show(b)
        b.sum().backward()
        show(a.grad)
    """,
    "exp_saved_output_modified": """
        a = T.tensor([1., 2.], requires_grad=True)
        b = a.exp()
        b.detach().mul_(2)
        b.sum().backward()
    """,
    "mul_saved_input_modified": """
        a = T.tensor([1., 2.], requires_grad=True)
        w = T.tensor([3., 4.])
        y = a * w
        w.add_(1)
        y.sum().backward()
    """,
    "leaf_saved_input_modified_under_no_grad": """
        a = T.tensor([1., 2.], requires_grad=True)
        y = (a * a).sum()
        with T.no_grad():
            a.add_(1)
        y.backward()
    """,
    "data_setter": """
        x = T.tensor([1., 2.], requires_grad=True)
        x.data = T.tensor([5., 6., 7.])
        show(x, x.shape, x._version)
        x.data = T.tensor([1, 2])
        show(x, x.requires_grad)
    """,
    "detach_inplace": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * 2
        z = y.detach_()
        show(z is y, y, y.requires_grad, y.grad_fn, y.is_leaf)
    """,
    # -- in-place ----------------------------------------------------------------------------------
    "inplace_on_leaf": """
        x = T.tensor([1., 2.], requires_grad=True)
        x.add_(1)
    """,
    "inplace_iadd_on_leaf": """
        x = T.tensor([1., 2.], requires_grad=True)
        x += 1
    """,
    "inplace_setitem_on_leaf": """
        x = T.tensor([1., 2.], requires_grad=True)
        x[0] = 5.
    """,
    "inplace_on_view_of_leaf": """
        x = T.tensor([1., 2.], requires_grad=True)
        x[0].mul_(2)
    """,
    "inplace_zero_on_leaf": """
        x = T.tensor([1., 2.], requires_grad=True)
        x.zero_()
    """,
    "inplace_fill_copy_clamp_on_leaf": """
        x = T.tensor([1., 2.], requires_grad=True)
        x.fill_(3.)
    """,
    "inplace_on_leaf_no_grad": """
        x = T.tensor([1., 2.], requires_grad=True)
        with T.no_grad():
            x.add_(1); x.sub_(0.5); x.mul_(2); x.div_(4); x += 1; x -= 1; x *= 3; x /= 3
            show(x, x._version)
            x[0] = 7.
            x.clamp_(0, 5)
            show(x, x._version)
            x.copy_(T.tensor([9., 8.]))
            x.fill_(1.)
            x.zero_()
        show(x, x._version, x.is_leaf, x.requires_grad, x.grad_fn)
    """,
    "inplace_versions": """
        x = T.tensor([1., 2.])
        v = [x._version]
        x.add_(1); v.append(x._version)
        x.sub_(1); v.append(x._version)
        x.mul_(2); v.append(x._version)
        x.div_(2); v.append(x._version)
        x.zero_(); v.append(x._version)
        x.fill_(2); v.append(x._version)
        x.copy_(T.tensor([3., 4.])); v.append(x._version)
        x.clamp_(0, 3.5); v.append(x._version)
        x += 1; v.append(x._version)
        x -= 1; v.append(x._version)
        x *= 2; v.append(x._version)
        x /= 2; v.append(x._version)
        x[0] = 1; v.append(x._version)
        x[:] = 2; v.append(x._version)
        show(v, x)
        y = x[0]
        y.add_(1)
        show(x._version, y._version, x)
    """,
    "inplace_in_graph": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * 2
        y.add_(1)
        show(y, y._version)
        y.mul_(y.detach())
        show(y)
        y += 1
        y -= x
        y *= x
        y /= 2
        show(y, y._version)
        graph(y)
        y.sum().backward()
        show(x.grad)
    """,
    "inplace_setitem_in_graph": """
        x = T.tensor([1., 2., 3.], requires_grad=True)
        w = T.tensor(5., requires_grad=True)
        y = x * 1
        y[0] = w * 2
        show(y, y._version)
        graph(y)
        y.sum().backward()
        show(x.grad, w.grad)
    """,
    "inplace_fill_zero_copy_in_graph": """
        x = T.tensor([1., 2.], requires_grad=True)
        s = T.tensor([5., 6.], requires_grad=True)
        outs = []
        for name, args in [("fill_", (1.5,)), ("zero_", ()), ("copy_", (s * 2,)),
                           ("fill_", (T.tensor(2.),)), ("fill_", (s[0],))]:
            y = x * 3
            getattr(y, name)(*args)
            outs.append(y)
            graph(y)
        sum(o.sum() for o in outs).backward()
        show(outs, x.grad, s.grad)
    """,
    "inplace_through_views": """
        x = T.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        y = x * 2
        v = y[0]
        v.mul_(3)
        t = y.t()
        t[1].add_(1)
        y[1] += y[0]
        graph(y)
        graph(v)
        (y.sum() + (v * v).sum()).backward()
        show(y, v, x.grad, y._version)
        w = T.tensor([1., 2.], requires_grad=True)
        buf = T.zeros(3)
        buf[0:2].add_(w)
        graph(buf)
        buf.sum().backward()
        show(buf, w.grad)
    """,
    "view_used_after_its_base_changed_in_place": """
        x = T.tensor([1., 2., 3.], requires_grad=True)
        y = x * 1
        v = y[1:]
        y.mul_(2)  # v shares y's memory: its values doubled, its history must follow
        graph(v)
        out = (v * v).sum()
        out.backward()
        show(v, out, x.grad)
    """,
    "inplace_copy_casts_and_broadcasts": """
        i = T.tensor([1, 2])
        i.copy_(T.tensor([1.7, -2.5]))
        z = T.ones(2, 3)
        z.copy_(T.tensor([1., 2., 3.]))
        show(i, i._version, z)
        z.copy_(T.ones(2))
    """,
    "inplace_broadcast_mismatch": """
        x = T.ones(2)
        x.add_(T.ones(2, 2))
    """,
    "inplace_int_float_cast": """
        x = T.tensor([1, 2])
        x.add_(1.5)
    """,
    "inplace_int_mul_int": """
        x = T.tensor([1, 2])
        x.mul_(3)
        x += 2
        show(x)
    """,
    "inplace_int_div": """
        x = T.tensor([1, 2])
        x /= 2
    """,
    "inplace_float_accepts_int": """
        x = T.tensor([1., 2.])
        x.add_(T.tensor([1, 2]))
        x[0] = 5
        show(x)
    """,
    # -- grad mode ---------------------------------------------------------------------------------
    "no_grad_context_and_decorator": """
        x = T.tensor([1., 2.], requires_grad=True)
        with T.no_grad():
            y = x * 2
            show(T.is_grad_enabled())
            with T.enable_grad():
                z = x * 2
                show(T.is_grad_enabled())
        show(y, z, T.is_grad_enabled())

        @T.no_grad()
        def f(t):
            return t * 3

        @T.enable_grad()
        def g(t):
            return t * 3

        show(f(x))
        with T.no_grad():
            show(g(x))
        with T.set_grad_enabled(False):
            show(x + 1)
        show(x + 1)
        T.set_grad_enabled(False)
        show(x + 1, T.is_grad_enabled())
        T.set_grad_enabled(True)
        show(x + 1, T.is_grad_enabled())

        @T.set_grad_enabled(False)
        def h(t):
            return t * 4

        show(h(x), T.is_grad_enabled())
    """,
    "no_grad_bare_decorator": """
        x = T.tensor([1., 2.], requires_grad=True)

        @T.no_grad
        def f(t):
            return t * 3

        show(f(x))
    """,
    # -- printing and conversion -------------------------------------------------------------------
    "printing": """
        x = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        show(str(x), repr(x.mean()), repr(x.double().sum()), T.tensor([1e-5, 1.]),
             T.arange(2000.) / 3, T.tensor([1, 2], dtype=T.int32), T.tensor([True, False]),
             T.zeros(2, 0), T.tensor(3), T.tensor([[1.5, 2.5]], dtype=T.float64))
        print(x)
    """,
    "repr_types_and_sizes": """
        x = T.tensor([[1., 2.], [3., 4.]])
        show(x.shape, x.size(), x.size(1), x.size(-1), x.dtype, x.type(), x.long().type(),
             x.double().type(), x.int().type(), (x > 1).type(), x.device, str(x.device),
             x.ndim, x.dim(), x.numel(), T.numel(x), type(x.shape), x.shape[1:], x.shape[0],
             x.shape + (3,), T.Size([2, 3]), T.Size([2, 3]).numel(), len(x), x.T.shape,
             x.is_leaf, x.requires_grad, x.grad, x.element_size(), x.is_floating_point())
    """,
    "size_out_of_range": """
        T.ones(2, 3).size(2)
    """,
    "item_and_tolist": """
        x = T.tensor([[1., 2.], [3., 4.]])
        show(x[0, 1].item(), type(x[0, 1].item()).__name__, T.tensor([3]).item(),
             type(T.tensor(3).item()).__name__, T.tensor(True).item(), x.tolist(),
             T.tensor(2.5).tolist(), T.tensor([1, 2]).tolist(), float(x[1, 1]), int(x[1, 0]))
    """,
    "item_many_elements": """
        T.tensor([1., 2.]).item()
    """,
    "item_empty": """
        T.tensor([]).item()
    """,
    "bool_ambiguous": """
        bool(T.tensor([1., 2.]))
    """,
    "type_conversions": """
        x = T.tensor([1.7, -2.2], requires_grad=True)
        show(x.float() is x, x.double(), x.long(), x.int(), x.to(T.float64), x.to(T.float32) is x,
             x.type(T.DoubleTensor), x.type('torch.LongTensor'), x.to(T.int64), x.bool(),
             x.to('cpu') is x, x.to(T.zeros(1, dtype=T.float64)))
        y = x.double()
        y.sum().backward()
        show(x.grad)
    """,
    "clone_and_detach": """
        x = T.tensor([1., 2.], requires_grad=True)
        c = x.clone()
        d = x.detach()
        show(c, d, c.data_ptr() == x.data_ptr(), d.data_ptr() == x.data_ptr(), c.is_leaf)
        (c * 2).sum().backward()
        show(x.grad)
    """,
    "equal_and_allclose": """
        a = T.tensor([1., 2.])
        show(a.equal(T.tensor([1., 2.])), T.equal(a, T.tensor([1., 3.])),
             T.equal(a, T.tensor([[1., 2.]])), T.allclose(a, a + 1e-9), a.equal(a.double()))
    """,
    "requires_grad_method": """
        x = T.ones(2)
        y = x.requires_grad_()
        show(y is x, x.requires_grad, x.requires_grad_(False).requires_grad, x)
    """,
    "len_and_iteration": """
        x = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        rows = list(x)
        show(rows, len(x))
        len(T.tensor(1.))
    """,
    # -- creation ----------------------------------------------------------------------------------
    "creation_dtypes": """
        show(T.tensor([1, 2]), T.tensor([1., 2]), T.tensor([True, False]), T.tensor(1.5),
             T.tensor([]), T.tensor([[]]), T.tensor([1, 2.5, True]), T.tensor([[1, 2], [3, 4]]),
             T.tensor(np.array([1, 2], dtype=np.int32)), T.tensor(np.float64(2.)),
             T.tensor([1, 2], dtype=T.float64), T.tensor([1.9, -1.9], dtype=T.int64),
             T.tensor(np.array([1.5])), T.tensor([np.float32(1.5)]), T.tensor([T.tensor(1.), 2.]))
    """,
    "creation_dtype_aliases": """
        show(T.float, T.double, T.long, T.int, T.half, T.bool, T.float32 is T.float,
             T.float64 is T.double, T.int64 is T.long, T.int32 is T.int, T.get_default_dtype(),
             T.ones(2, dtype=T.float).dtype, T.ones(2, dtype=T.long), T.zeros(2, dtype=T.bool),
             T.ones(2, dtype=T.int), T.float32.is_floating_point, T.int64.is_floating_point,
             T.float64.itemsize)
    """,
    "legacy_constructors": """
        show(T.FloatTensor([[1, 2], [3, 4]]), T.DoubleTensor([1, 2]), T.LongTensor([1.7, 2]),
             T.Tensor([[1, 2], [3, 4]]), T.Tensor(2, 3).shape, T.FloatTensor(2).shape, T.Tensor(),
             T.IntTensor([1, 2]), T.BoolTensor([1, 0]), T.ByteTensor([1, 2]),
             T.Tensor(T.Size([2, 1])).shape, T.LongTensor(3).dtype)
        show(isinstance(T.ones(2), T.FloatTensor), isinstance(T.ones(2), T.DoubleTensor),
             type(T.FloatTensor([1.])), T.FloatTensor)
    """,
    "legacy_constructor_scalar": """
        T.FloatTensor(2.5)
    """,
    "legacy_constructor_string": """
        T.Tensor('abc')
    """,
    "factories": """
        show(T.ones(2, 3), T.zeros((2, 1)), T.zeros([2]), T.ones(T.Size([1, 2])),
             T.full((2, 2), 7.), T.full((2,), 3), T.full((1,), True), T.empty(2, 3).shape,
             T.eye(3), T.eye(2, 3),
             T.arange(5), T.arange(1, 4), T.arange(0., 1., 0.25), T.arange(0, 1, 0.5),
             T.arange(5, dtype=T.float32), T.linspace(0, 1, 5), T.linspace(-1, 1, steps=3),
             T.ones(2, 2, dtype=T.float64, requires_grad=True), T.zeros(()), T.ones([]))
    """,
    "factories_like": """
        x = T.tensor([[1., 2.]], dtype=T.float64, requires_grad=True)
        i = T.tensor([1, 2])
        show(T.ones_like(x), T.zeros_like(x), T.full_like(x, 3.), T.empty_like(x).shape,
             T.zeros_like(i), T.ones_like(i, dtype=T.float32), T.full_like(i, 2.7),
             T.rand_like(x).shape, T.randn_like(x).dtype, T.zeros_like(x, requires_grad=True))
    """,
    "factory_negative_size": """
        T.ones(2, -1)
    """,
    "factory_float_size": """
        T.ones(2.5)
    """,
    "random_shapes_and_ranges": """
        T.manual_seed(0)
        a = T.rand(1000)
        b = T.randn(3, 4)
        c = T.randint(0, 10, (500,))
        d = T.randint(5, (2, 2))
        show(a.shape, a.dtype, bool((a >= 0).all()), bool((a < 1).all()), b.shape, b.dtype,
             c.dtype, c.shape, bool((c >= 0).all()), bool((c < 10).all()), d.shape,
             T.rand(2, dtype=T.float64).dtype, T.randn(2, requires_grad=True).requires_grad,
             T.rand(()).shape, T.randint(3, 4, (1,)))
    """,
    "from_numpy_and_as_tensor": """
        n = np.arange(4, dtype=np.float32).reshape(2, 2)
        t = T.from_numpy(n)
        a = T.as_tensor(n)
        b = T.as_tensor(n, dtype=T.float64)
        c = T.as_tensor([1, 2])
        n[0, 0] = 9
        show(t, a, b, c, T.from_numpy(np.array([1, 2], dtype=np.int32)),
             T.from_numpy(np.array([True])), T.as_tensor(t) is t)
    """,
    "from_numpy_not_array": """
        T.from_numpy([1, 2])
    """,
    "tensor_non_numeric": """
        T.tensor(['a', 'b'])
    """,
    "tensor_non_numeric_object": """
        T.tensor([object()])
    """,
    "tensor_ragged": """
        T.tensor([[1, 2], [3]])
    """,
    "tensor_none": """
        T.tensor(None)
    """,
    "tensor_from_tensor_warns": """
        x = T.tensor([1., 2.], requires_grad=True)
        show(T.tensor(x))
    """,
}

_OPS: dict[str, str] = {
    # -- arithmetic, broadcasting, operators -------------------------------------------------------
    "arithmetic_operators": """
        a = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        b = T.tensor([0.5, -2.], requires_grad=True)
        outs = [a + b, a - b, a * b, a / b, b - a, b / a, a + 1, 1 + a, a - 1, 1 - a, 2 * a,
                a * 2, a / 2, 2 / a, a ** 2, 2 ** a, a ** b, a ** 0.5, -a, +a, a ** 0, abs(b),
                a @ b, b @ a, a @ a, a + True, a * np.float64(2.), np.float32(3.) * a,
                T.add(a, b, alpha=2), T.sub(a, b, alpha=3), a.add(1), a.sub(b), a.mul(b),
                a.div(b), a.pow(2), a.neg(), T.rsub(a, 1), T.multiply(a, 2), T.true_divide(a, 2)]
        show(outs)
        total = sum(o.sum() for o in outs)
        total.backward()
        show(a.grad, b.grad, total)
    """,
    "arithmetic_int_promotion": """
        i = T.tensor([1, 2, 3])
        f = T.tensor([0.5, 1.5, 2.5])
        d = T.tensor([0.5, 1.5, 2.5], dtype=T.float64)
        show(i + 1, i * 2.5, i / 2, i / i, i + f, i * d, f + d, i ** 2, i ** 0.5, 2 ** i,
             T.tensor([True, False]) + 1, f * True, i // 2, i % 2, f // 1, f % 1, 7 // i, 7 % i,
             -i % 2, f % (f - 1), i.remainder(2),
             T.tensor(2, dtype=T.int32) * i, T.tensor([1, 2], dtype=T.int32) + 1,
             T.tensor([1, 2], dtype=T.int32) + 1.5, i.sum(), i.sum(0), (i > 1).sum(),
             T.tensor([1, 2], dtype=T.int32).sum())
    """,
    "bool_subtraction": """
        T.tensor([1, 2]) - True
    """,
    "bool_subtraction_two_masks": """
        m = T.tensor([True, False])
        m - m
    """,
    "bool_rsub": """
        1 - T.tensor([True, False])
    """,
    "bool_negation": """
        -T.tensor([True, False])
    """,
    "integer_division_by_zero": """
        T.tensor([1, 2]) // 0
    """,
    "remainder_and_floor_divide_grads": """
        x = T.tensor([1.5, -2.5, 4.], requires_grad=True)
        y = T.tensor([1., 2., -3.], requires_grad=True)
        a, b, c, d = x % 1, x % y, x // 2, 7 % x
        show(a, b, c, d, T.remainder(x, 2), T.floor_divide(x, 2), 2 // x, x // y)
        for t in (a, b, c, d, 2 // x, x // y):
            graph(t)
        (a + b).sum().backward()
        show(x.grad, y.grad)
        c.sum().backward()
    """,
    "broadcast_shapes_and_grads": """
        a = T.ones(3, 1, 2, requires_grad=True)
        b = T.arange(8.).reshape(4, 2).requires_grad_()
        c = T.tensor(2., requires_grad=True)
        y = a * b + c
        show(y.shape)
        y.sum().backward()
        show(a.grad, b.grad, c.grad)
    """,
    "broadcast_mismatch_add": """
        T.ones(2, 3) + T.ones(4)
    """,
    "broadcast_mismatch_mul_dim0": """
        T.ones(3, 2) * T.ones(4, 2)
    """,
    "broadcast_mismatch_sub_3d": """
        T.ones(2, 3, 4) - T.ones(2, 5, 4)
    """,
    "broadcast_mismatch_div": """
        T.ones(5) / T.ones(2, 3)
    """,
    "broadcast_mismatch_maximum": """
        T.maximum(T.ones(2), T.ones(3))
    """,
    "broadcast_mismatch_where": """
        T.where(T.ones(2) > 0, T.ones(3), T.ones(2))
    """,
    "broadcast_mismatch_pow": """
        T.ones(2) ** T.ones(3)
    """,
    "matmul_mismatch_2d": """
        T.ones(2, 3) @ T.ones(2, 3)
    """,
    "matmul_mismatch_mm": """
        T.mm(T.ones(2, 3), T.ones(4, 5))
    """,
    "matmul_mismatch_mv": """
        T.ones(2, 3) @ T.ones(4)
    """,
    "matmul_mismatch_vm": """
        T.ones(4) @ T.ones(3, 2)
    """,
    "matmul_mismatch_dot": """
        T.ones(4) @ T.ones(3)
    """,
    "matmul_mismatch_batched": """
        T.ones(5, 2, 3) @ T.ones(5, 4, 2)
    """,
    "matmul_mismatch_batched_broadcast": """
        T.ones(5, 2, 3) @ T.ones(4, 3, 2)
    """,
    "matmul_scalar": """
        T.tensor(2.) @ T.ones(2)
    """,
    "mm_of_vector": """
        T.mm(T.ones(2), T.ones(2, 2))
    """,
    "dot_of_matrix": """
        T.dot(T.ones(2, 2), T.ones(2))
    """,
    "matmul_dtype_mismatch": """
        T.ones(2, 2) @ T.ones(2, 2, dtype=T.float64)
    """,
    "matmul_shapes_and_grads": """
        A = T.arange(6.).reshape(2, 3).requires_grad_()
        B = T.arange(12.).reshape(3, 4).requires_grad_()
        v = T.tensor([1., -1., 2.], requires_grad=True)
        w = T.tensor([0.5, 2.], requires_grad=True)
        outs = [A @ B, A @ v, w @ A, v @ v, T.matmul(A, B), A.mm(B), A.mv(v), v.dot(v)]
        show(outs)
        sum(o.sum() for o in outs).backward()
        show(A.grad, B.grad, v.grad, w.grad)
    """,
    "matmul_batched_grads": """
        A = (T.arange(24.).reshape(2, 3, 4) / 10).requires_grad_()
        B = (T.arange(8.).reshape(4, 2) / 10).requires_grad_()
        v = T.tensor([1., -1., 2., 0.5], requires_grad=True)
        C = A @ B
        D = A @ v
        E = T.ones(5, 1, 2, 3) @ A
        show(C, D, E.shape, C.grad_fn.name(), D.grad_fn.name(), E.grad_fn.name())
        (C.sum() + D.sum() + E.sum()).backward()
        show(A.grad, B.grad, v.grad)
    """,
    # -- elementwise functions ---------------------------------------------------------------------
    "unary_functions": """
        x = T.tensor([[-1.5, -0.5, 0.], [0.25, 1., 2.]], dtype=T.float64, requires_grad=True)
        p = T.tensor([0.5, 1., 4.], dtype=T.float64, requires_grad=True)
        outs = [x.exp(), p.log(), p.sqrt(), x.abs(), x.sin(), x.cos(), x.tanh(), x.sigmoid(),
                x.relu(), x.clamp(-1, 1), x.clamp(min=0.1), x.clamp(max=0.1), T.exp(x), T.log(p),
                T.sqrt(p), T.abs(x), T.sin(x), T.cos(x), T.tanh(x), T.sigmoid(x), T.relu(x),
                T.clamp(x, -0.5, 0.5), T.clip(x, 0, 1), x.clip(max=0.)]
        show(outs)
        sum(o.sum() for o in outs).backward()
        show(x.grad, p.grad)
    """,
    "unary_at_edges": """
        x = T.tensor([0., -1., 1.], requires_grad=True)
        show(x.log(), x.sqrt(), (x * 0).abs())
        x.log().sum().backward()
        show(x.grad)
        x.grad = None
        x.sqrt().sum().backward()
        show(x.grad)
        x.grad = None
        x.abs().sum().backward()
        show(x.grad)
        x.grad = None
        x.relu().sum().backward()
        show(x.grad)
        x.grad = None
        x.clamp(0, 1).sum().backward()
        show(x.grad)
    """,
    "unary_on_integers": """
        i = T.tensor([1, 2, 3])
        show(i.exp(), i.sqrt(), i.log(), i.sin(), i.abs(), i.relu(), i.sigmoid(), i.tanh(),
             i.clamp(0, 2), -i, i.float().mean(), T.clamp(i, 1.5))
    """,
    "clamp_without_bounds": """
        T.clamp(T.ones(2))
    """,
    "clamp_with_tensor_bounds": """
        x = T.tensor([-2., 0., 2.], requires_grad=True)
        lo = T.tensor([-1., 1., -1.])
        show(T.clamp(x, min=lo), x.clamp(lo, T.tensor(1.5)))
    """,
    "clamp_with_zero_dim_bounds_of_another_dtype": """
        x = T.tensor([0.1, 0.9, 2.0], requires_grad=True)
        lo = T.tensor(0.5, dtype=T.float64, requires_grad=True)
        y = T.clamp(x, min=lo, max=T.tensor(1.0, dtype=T.float64))
        y.sum().backward()
        show(y, x.grad, lo.grad, T.clamp(T.tensor([1, 2, 3]), min=T.tensor(1.5)),
             T.clamp(T.ones(2, dtype=T.float16), max=T.tensor(0.5, dtype=T.float64)))
    """,
    "maximum_minimum_ties": """
        a = T.tensor([1., 2., 3.], requires_grad=True)
        b = T.tensor([3., 2., 1.], requires_grad=True)
        y = T.maximum(a, b) + 2 * T.minimum(a, b)
        y.sum().backward()
        show(y, a.grad, b.grad, T.max(a, b))
    """,
    # -- reductions --------------------------------------------------------------------------------
    "reductions": """
        x = T.tensor([[1., 5., 3.], [4., 2., 6.]], requires_grad=True)
        outs = [x.sum(), x.sum(0), x.sum(1), x.sum(-1, keepdim=True), x.sum((0, 1)),
                x.sum(dim=[0, 1]), x.mean(), x.mean(0), x.mean(1, keepdim=True), x.mean((0, 1)),
                T.sum(x), T.mean(x, 0), x.var(), x.var(0), x.var(1, keepdim=True),
                x.var(unbiased=False), x.var(1, correction=0), x.std(), x.std(0), x.std(1, True),
                x.std(unbiased=False), T.var(x), T.std(x, 1), x.max(), x.min(), T.max(x),
                x.sum(dtype=T.float64)]
        show(outs)
        sum(o.sum() for o in outs).backward()
        show(x.grad)
    """,
    "max_min_by_dim": """
        x = T.tensor([[1., 5., 3.], [4., 2., 6.]], requires_grad=True)
        m = x.max(1)
        n = T.min(x, 0, keepdim=True)
        show(m, n, m.values, m.indices, m[0], m[1], type(m).__name__)
        values, indices = x.max(dim=0)
        show(values, indices)
        (m.values.sum() + n.values.sum()).backward()
        show(x.grad)
    """,
    "max_ties_split_gradient": """
        x = T.tensor([1., 3., 3., 2.], requires_grad=True)
        x.max().backward()
        show(x.grad)
        y = T.tensor([[3., 3.], [1., 1.]], requires_grad=True)
        y.max(1).values.sum().backward()
        show(y.grad)
    """,
    "argmax_argmin": """
        x = T.tensor([[1., 5., 3.], [4., 2., 6.]])
        show(x.argmax(), x.argmin(), x.argmax(0), x.argmin(1), T.argmax(x, 1, keepdim=True),
             T.argmin(x), x.argmax(dim=-1), T.tensor([2., 2., 1.]).argmax())
    """,
    "reduction_dim_out_of_range": """
        T.ones(2, 3).sum(2)
    """,
    "reduction_negative_dim_out_of_range": """
        T.ones(2, 3).mean(-3)
    """,
    "mean_of_integers": """
        T.tensor([1, 2, 3]).mean()
    """,
    "var_of_integers": """
        T.tensor([1, 2, 3]).var()
    """,
    "max_of_empty": """
        T.tensor([]).max()
    """,
    "mean_of_empty": """
        show(T.tensor([]).mean(), T.tensor([]).sum(), T.ones(0, 3).sum(0))
    """,
    "var_single_element": """
        x = T.tensor([2.], requires_grad=True)
        show(x.var(), x.std(), x.var(unbiased=False))
    """,
    "softmax_and_log_softmax": """
        x = T.tensor([[1., 2., 3.], [1., 1., 1.], [-1000., 0., 1000.]], requires_grad=True)
        s = T.softmax(x, dim=1)
        l = x.log_softmax(-1)
        s0 = x.softmax(0)
        show(s, l, s0)
        w = T.tensor([[1., 0., 2.], [0.5, 3., 1.], [1., 1., 1.]])
        ((s * w).sum() + (l * w).sum() + (s0 * w).sum()).backward()
        show(x.grad)
    """,
    "softmax_without_dim": """
        T.softmax(T.ones(3))
    """,
    # -- shape ops ---------------------------------------------------------------------------------
    "shape_ops": """
        x = T.arange(24.).reshape(2, 3, 4).requires_grad_()
        outs = [x.view(6, 4), x.view(-1), x.view(2, -1), x.reshape(4, 6), x.reshape(-1, 2, 2),
                x.flatten(), x.flatten(1), x.flatten(0, 1), T.flatten(x, start_dim=1),
                x.unsqueeze(0), x.unsqueeze(-1), x.unsqueeze(2), x[:, :1].squeeze(),
                x[:, :1].squeeze(1), x[:, :1].squeeze(0), x.transpose(0, 2), x.transpose(-1, -2),
                x.permute(2, 0, 1), x.permute((1, 2, 0)), x[0].t(), x[0].T,
                x[:, :1].expand(2, 3, 4),
                x[0, :, :1].expand(-1, 5), x[0, 0].expand(2, 4), x.view(2, 3, 4).view(24),
                T.reshape(x, (3, 8)), T.squeeze(x), T.unsqueeze(x, 1), T.transpose(x, 0, 1),
                T.permute(x, (2, 1, 0)), T.t(x[0]), x.view(T.Size([4, 6])), x.view_as(x),
                x.reshape_as(x.view(24)), x[0].expand_as(x)]
        show([list(o.shape) for o in outs], [o.grad_fn.name() for o in outs])
        w = T.arange(24.).reshape(2, 3, 4) / 7
        sum((o * o).sum() for o in outs).backward()
        show(x.grad)
    """,
    "shape_views_share_version": """
        x = T.zeros(2, 3)
        v = x.view(3, 2)
        t = x.t()
        s = x[0]
        u = x.unsqueeze(0)
        e = x[0].expand(2, 3)
        v.add_(1)
        show(x._version, v._version, t._version, s._version, u._version, e._version, x)
        s[1] = 5.
        show(x, x._version, t)
        r = x.reshape(6)
        r[0] = 9.
        show(x, r._version, x.t().reshape(6)._version)
    """,
    "view_wrong_size": """
        T.ones(2, 3).view(4)
    """,
    "view_two_unknowns": """
        T.ones(2, 3).view(-1, -1)
    """,
    "view_not_contiguous": """
        T.ones(2, 3).t().view(6)
    """,
    "reshape_wrong_size": """
        T.ones(2, 3).reshape(5, -1)
    """,
    "permute_wrong_length": """
        T.ones(2, 3).permute(0)
    """,
    "permute_duplicate": """
        T.ones(2, 3).permute(0, 0)
    """,
    "transpose_out_of_range": """
        T.ones(2, 3).transpose(0, 2)
    """,
    "t_of_3d": """
        T.ones(2, 3, 4).t()
    """,
    "T_of_3d_warns_once_per_process": """
        import warnings
        with warnings.catch_warnings():  # the first time warns (whichever test did it first)
            warnings.simplefilter("ignore")
            T.ones(2, 3, 4).T
        show(T.ones(2, 3, 4).T.shape)  # the second time is silent, in PyTorch too
    """,
    "expand_bad_size": """
        T.ones(2, 3).expand(2, 4)
    """,
    "expand_too_few": """
        T.ones(2, 3).expand(3)
    """,
    "unsqueeze_out_of_range": """
        T.ones(2, 3).unsqueeze(3)
    """,
    "squeeze_dim_not_one": """
        x = T.ones(2, 3, requires_grad=True)
        y = x.squeeze(0)
        show(y, y.shape, y.grad_fn)
    """,
    "flatten_bad_dims": """
        T.ones(2, 3, 4).flatten(2, 1)
    """,
    # -- indexing ----------------------------------------------------------------------------------
    "indexing_get": """
        x = T.arange(12.).reshape(3, 4).requires_grad_()
        outs = [x[0], x[-1], x[1, 2], x[:, 1], x[1:], x[:2, 1:3], x[::2], x[..., 1], x[None],
                x[:, None, 0], x[[0, 2]], x[[0, 0, 1]], x[T.tensor([2, 0])], x[x > 5],
                x[T.tensor([True, False, True])], x[[0, 1], [1, 2]], x[0][1], x[:], x[...],
                x[1, [0, 3]], x[-2:, -1]]
        show(outs, [o.grad_fn.name() for o in outs])
        sum((o * o).sum() for o in outs).backward()
        show(x.grad)
    """,
    "indexing_out_of_range": """
        T.ones(3)[3]
    """,
    "indexing_out_of_range_dim1": """
        T.ones(2, 3)[0, -4]
    """,
    "indexing_too_many": """
        T.ones(2)[0, 0]
    """,
    "indexing_0d": """
        T.tensor(1.)[0]
    """,
    "indexing_advanced_out_of_range": """
        T.ones(3)[[0, 5]]
    """,
    "indexing_float_index": """
        T.ones(3)[1.5]
    """,
    "indexing_views": """
        x = T.arange(6.).reshape(2, 3)
        r = x[1]
        c = x[:, 0]
        e = x[0, 0]
        a = x[[0, 1]]
        r[0] = 100.
        c.mul_(-1)
        show(x, e, a, r._version, a._version, e._version, x[0, 2].data_ptr() == x.data_ptr() + 8)
    """,
    "indexing_set": """
        x = T.zeros(3, 4)
        x[0] = 1.
        x[1, 2] = 5
        x[:, 3] = T.tensor([7., 8., 9.])
        x[2, :2] = T.tensor([-1., -2.])
        x[x < 0] = 0.
        x[[0, 2], [0, 1]] = 3.
        x[..., 1] += 10
        show(x, x._version)
    """,
    "indexing_set_wrong_shape": """
        x = T.zeros(3, 4)
        x[0] = T.ones(3)
    """,
    "indexing_set_in_graph_grads": """
        a = T.tensor([1., 2., 3., 4.], requires_grad=True)
        b = T.tensor([10., 20.], requires_grad=True)
        y = a * 2
        y[1:3] = b * b
        z = y * y
        show(y, z)
        z.sum().backward()
        show(a.grad, b.grad)
    """,
    # -- joining -----------------------------------------------------------------------------------
    "cat_stack_where": """
        a = T.tensor([[1., 2.]], requires_grad=True)
        b = T.tensor([[3., 4.], [5., 6.]], requires_grad=True)
        c = T.cat([a, b])
        d = T.cat((b, b), dim=1)
        e = T.stack([a[0], b[0], b[1]])
        f = T.stack([b, b], dim=2)
        g = T.where(b > 3, b, a)
        h = T.where(b > 3, b, 0.)
        k = T.cat([a, b], -2)
        l = T.concat([a, a])
        m = b.where(b < 5, T.tensor(-1.))
        show(c, d, e, f.shape, g, h, k, l, m)
        w = [c, d, e, f, g, h, k, l, m]
        sum((o * o).sum() for o in w).backward()
        show(a.grad, b.grad)
    """,
    "cat_mismatch": """
        T.cat([T.ones(2, 3), T.ones(2, 4)])
    """,
    "cat_mismatch_dim1": """
        T.cat([T.ones(2, 3), T.ones(3, 3)], dim=1)
    """,
    "cat_empty": """
        T.cat([])
    """,
    "cat_0d": """
        T.cat([T.tensor(1.), T.tensor(2.)])
    """,
    "cat_dtypes": """
        show(T.cat([T.ones(2), T.ones(2, dtype=T.float64)]),
             T.cat([T.ones(1, dtype=T.int64), T.ones(1)]))
    """,
    "cat_different_ndim": """
        T.cat([T.ones(2, 3), T.ones(3)])
    """,
    "stack_mismatch": """
        T.stack([T.ones(2), T.ones(3)])
    """,
    "stack_empty": """
        T.stack([])
    """,
    "where_not_bool": """
        T.where(T.tensor([1., 0.]), T.ones(2), T.zeros(2))
    """,
    "where_scalars_and_dtypes": """
        c = T.tensor([True, False])
        show(T.where(c, 1., 0.), T.where(c, T.ones(2, dtype=T.float64), 0.),
             T.where(c, T.tensor([1, 2]), T.tensor([3, 4])), T.where(c, T.tensor([1, 2]), 0.5))
    """,
    # -- comparisons -------------------------------------------------------------------------------
    "comparisons": """
        x = T.tensor([1., 2., 3.], requires_grad=True)
        y = T.tensor([3., 2., 1.])
        outs = [x == y, x != y, x < y, x <= y, x > y, x >= y, x > 2, 2 < x, x == 2, x.eq(y),
                x.ne(2), x.lt(y), x.le(y), x.gt(y), x.ge(2), (x > 1) & (x < 3), (x > 2) | (x < 2),
                ~(x > 2), (x > 1) ^ (y > 1), T.tensor([1, 2]) == T.tensor([1., 3.])]
        show(outs)
    """,
    "comparison_mismatch": """
        T.ones(2) < T.ones(3)
    """,
    "isclose_allclose": """
        a = T.tensor([1., 2., float('nan')])
        b = T.tensor([1., 2.0000001, float('nan')])
        show(T.isclose(a, b), T.isclose(a, b, equal_nan=True), T.allclose(a[:2], b[:2]),
             a.allclose(b), a.isclose(b))
    """,
}
SNIPPETS.update(_OPS)

_AUTOGRAD: dict[str, str] = {
    # -- custom Functions (lesson 6) ---------------------------------------------------------------
    "custom_function": """
        class Square(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 2 * x * grad

        x = T.tensor([1., -2., 3.], requires_grad=True)
        y = Square.apply(x)
        show(y, y.grad_fn.name(), type(y.grad_fn).__name__, y.is_leaf, y.requires_grad)
        graph(y)
        y.sum().backward()
        show(x.grad)
        with T.no_grad():
            show(Square.apply(x))
        show(Square.apply(T.tensor([2.])))
    """,
    "custom_function_two_inputs_and_constants": """
        class ScaledMul(T.autograd.Function):
            @staticmethod
            def forward(ctx, a, b, scale):
                ctx.save_for_backward(a, b)
                ctx.scale = scale
                return a * b * scale

            @staticmethod
            def backward(ctx, grad):
                a, b = ctx.saved_tensors
                show(ctx.needs_input_grad)
                return grad * b * ctx.scale, grad * a * ctx.scale, None

        a = T.tensor([1., 2.], requires_grad=True)
        b = T.tensor([3., 4.])
        y = ScaledMul.apply(a, b, 10.)
        show(y, len(y.grad_fn.next_functions))
        graph(y)
        y.sum().backward()
        show(a.grad, b.grad)
    """,
    "custom_function_saved_tensor_modified": """
        class Cube(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 3

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 3 * x ** 2 * grad

        x = T.tensor([1., 2.], requires_grad=True)
        h = x + 1
        y = Cube.apply(h)
        h.add_(1)
        y.sum().backward()
    """,
    "custom_function_second_backward": """
        class Double(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return grad * 2

        x = T.tensor([1., 2.], requires_grad=True)
        y = Double.apply(x).sum()
        y.backward()
        y.backward()
    """,
    "custom_function_wrong_number_of_grads": """
        class Bad(T.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x + y

            @staticmethod
            def backward(ctx, grad):
                return grad

        x = T.tensor([1., 2.], requires_grad=True)
        Bad.apply(x, x).sum().backward()
    """,
    "custom_function_wrong_grad_shape": """
        class Bad(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return T.ones(3)

        x = T.tensor([1., 2.], requires_grad=True)
        Bad.apply(x).sum().backward()
    """,
    "custom_function_without_backward": """
        class NoBackward(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

        x = T.tensor([1., 2.], requires_grad=True)
        NoBackward.apply(x).sum().backward()
    """,
    "custom_function_setup_context": """
        class Mul3(T.autograd.Function):
            @staticmethod
            def forward(x):
                return x * 3

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.factor = 3

            @staticmethod
            def backward(ctx, grad):
                return grad * ctx.factor

        x = T.tensor([1., 2.], requires_grad=True)
        y = Mul3.apply(x)
        y.sum().backward()
        show(y, x.grad)
    """,
    "gradcheck": """
        x = T.tensor([0.5, -1.5, 2.], dtype=T.float64, requires_grad=True)
        w = T.tensor([[1., 2., 3.]], dtype=T.float64, requires_grad=True)
        show(T.autograd.gradcheck(lambda a, b: (a.sin() * b).sum(1), (x, w)))
        show(T.autograd.gradcheck(lambda a: a.exp() / a.sum(), (x,)))

        class WrongSquare(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 3 * x * grad

        show(T.autograd.gradcheck(WrongSquare.apply, (x,), raise_exception=False))
    """,
    "gradcheck_float32_warns": """
        x = T.tensor([0.5, 1.5], requires_grad=True)
        show(T.autograd.gradcheck(lambda a: a * 2, (x,), eps=1e-3, atol=1e-2))
    """,
    "gradcheck_no_input_requires_grad": """
        T.autograd.gradcheck(lambda a: a * 2, (T.ones(2, dtype=T.float64),))
    """,
    # -- hooks -------------------------------------------------------------------------------------
    "hooks_replace_and_order": """
        x = T.tensor([1., 2.], requires_grad=True)
        calls = []
        x.register_hook(lambda g: calls.append(('x1', g.tolist())))
        x.register_hook(lambda g: g * 2)
        x.register_hook(lambda g: calls.append(('x3', g.tolist())))
        y = x * x
        y.register_hook(lambda g: calls.append(('y', g.tolist())))
        h = y.register_hook(lambda g: g + 1)
        z = y.sum()
        z.backward(retain_graph=True)
        show(calls, x.grad)
        h.remove()
        calls.clear()
        x.grad = None
        z.backward()
        show(calls, x.grad)
    """,
    "hook_returns_wrong_shape": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: T.ones(3))
        y.sum().backward()
    """,
    "retain_grad_leaf_is_noop": """
        x = T.tensor([1., 2.], requires_grad=True)
        x.retain_grad()
        (x * 2).sum().backward()
        show(x.grad, x.retains_grad)
    """,
    "retain_grad_with_hook": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * 2
        y.retain_grad()
        y.register_hook(lambda g: g * 10)
        (y * y).sum().backward()
        show(y.grad, x.grad)
    """,
    # -- in-place inside the graph -----------------------------------------------------------------
    "inplace_on_saved_input_of_mul": """
        x = T.tensor([1., 2.], requires_grad=True)
        a = x * 1
        b = a * a
        a.mul_(2)
        b.sum().backward()
    """,
    "inplace_on_output_saved_by_sigmoid": """
        x = T.tensor([1., 2.], requires_grad=True)
        s = x.sigmoid()
        s.mul_(2)
        s.sum().backward()
    """,
    "inplace_on_output_saved_by_tanh_then_relu": """
        x = T.tensor([-1., 2.], requires_grad=True)
        y = x.tanh()
        y.relu_()
        show(y, y.grad_fn)
        y.sum().backward()
    """,
    "inplace_not_saved_is_fine": """
        x = T.tensor([1., 2.], requires_grad=True)
        a = x + 1
        b = a + 2
        a.mul_(10)
        b.sum().backward()
        show(x.grad, a, b, a._version)
    """,
    "inplace_zero_grad_between_steps": """
        w = T.tensor([1., -1.], requires_grad=True)
        for step in range(3):
            loss = ((w * 3 - 1) ** 2).sum()
            loss.backward()
            with T.no_grad():
                w -= 0.01 * w.grad
            show(loss, w.grad, w._version)
            w.grad.zero_()
        show(w, w.is_leaf, w.requires_grad)
    """,
    "leaf_grad_is_accumulated_in_place": """
        x = T.tensor([1., 2.], requires_grad=True)
        (x * 2).sum().backward()
        g = x.grad
        (x * 3).sum().backward()
        show(g is x.grad, g, g._version)
    """,
    "grad_assignment": """
        x = T.tensor([1., 2.], requires_grad=True)
        x.grad = T.tensor([5., 5.])
        (x * 2).sum().backward()
        show(x.grad)
        x.grad = T.ones(3)
    """,
    "grad_assignment_wrong_dtype": """
        x = T.tensor([1., 2.], requires_grad=True)
        x.grad = T.tensor([1, 2])
    """,
    "detach_of_view_shares_version": """
        x = T.tensor([1., 2., 3.], requires_grad=True)
        y = x * 2
        v = y[1:]
        d = v.detach()
        d.zero_()
        show(y, d, y._version, v._version, d._version)
    """,
    "backward_inputs_argument": """
        x = T.tensor([1., 2.], requires_grad=True)
        w = T.tensor([3., 4.], requires_grad=True)
        y = (x * w).sum()
        y.backward(inputs=[x])
        show(x.grad, w.grad)
    """,
    "backward_through_int_cast_stops": """
        x = T.tensor([1.7, 2.2], requires_grad=True)
        y = x.long()
        show(y, y.requires_grad, y.grad_fn)
    """,
    "requires_grad_propagation": """
        a = T.ones(2)
        b = T.ones(2, requires_grad=True)
        show((a + a).requires_grad, (a + b).requires_grad, (a * 2).is_leaf, (b * 2).is_leaf,
             (b * 2).detach().is_leaf, b.detach().requires_grad, b.clone().requires_grad,
             T.tensor(b.tolist()).requires_grad)
    """,
}
SNIPPETS.update(_AUTOGRAD)

_EDGES: dict[str, str] = {
    # -- corners found by comparing random programs with PyTorch -----------------------------------
    "pow_gradient_edges": """
        a = T.tensor([0., 0., -2., 2., 0.], dtype=T.float64, requires_grad=True)
        b = T.tensor([0., 2., 2., -1., -1.], dtype=T.float64, requires_grad=True)
        (a ** b).sum().backward()
        show(a.grad, b.grad)
        show(T.tensor([2, -2, 1]) ** T.tensor([-1]), 2 ** T.tensor([-1, 2]))
    """,
    "integer_negative_power_of_number": """
        T.tensor([2]) ** -1
    """,
    "reductions_of_a_0d_tensor": """
        x = T.tensor(2.5, requires_grad=True)
        outs = [x.sum(0), x.mean(-1, keepdim=True), x.max(0).values, x.softmax(0), x.squeeze(0),
                x.unsqueeze(0), x.flatten(), x.var(0), x.std(-1)]
        show(outs)
        sum(o.sum() for o in outs[:7]).backward()
        show(x.grad, x.argmax(0))
    """,
    "reduction_dim_out_of_range_on_0d": """
        T.tensor(2.).sum(1)
    """,
    "flatten_dim_out_of_range_on_0d": """
        T.tensor(2.).flatten(1)
    """,
    "argmax_dim_out_of_range_on_0d": """
        T.tensor(2.).argmax(1)
    """,
    "argmax_of_empty": """
        T.tensor([]).argmax()
    """,
    "max_over_an_empty_dim": """
        T.ones(0, 3).max(0)
    """,
    "softmax_of_integers": """
        T.softmax(T.tensor([[1, 2], [3, 4]]), 0)
    """,
    "log_softmax_of_integers_last_dim": """
        T.tensor([1, 2]).log_softmax(-1)
    """,
    "T_of_0d_and_1d_warns_once_per_process": """
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            T.tensor(2.).T, T.ones(3).T
        show(T.tensor(2.).T, T.ones(3).T)
    """,
    "indexing_a_0d_tensor": """
        x = T.tensor(1.5)
        show(x[None], x[...], x[True], x[x > 0])
        x[0, ...]
    """,
    "slicing_a_0d_tensor": """
        T.tensor(1.5)[:]
    """,
    "setitem_on_a_0d_tensor": """
        x = T.tensor(1.5)
        x[...] = 2.
        show(x)
        x[0] = 3.
    """,
    "setitem_with_extra_leading_ones": """
        x = T.tensor([1., 2., 3.], requires_grad=True)
        v = T.tensor([[5.]], requires_grad=True)
        y = x * 1
        y[0] = v
        y.sum().backward()
        show(y, x.grad, v.grad)
        z = T.zeros(2, 3)
        z[0] = T.ones(1, 3)
        show(z)
        z[0] = T.ones(1, 2)
    """,
    "expand_error_names_the_last_dim_and_dtype": """
        T.ones(2, 2, dtype=T.float64).expand(3, 3, 3)
    """,
    "clamp_bounds_that_do_not_broadcast": """
        T.clamp(T.ones(2, 3), max=T.ones(2))
    """,
    "cat_of_0d_checked_before_dim": """
        T.cat([T.tensor(1.), T.tensor(2.)], dim=3)
    """,
    "remainder_sign_of_zero": """
        show(T.tensor([-1., 0.5, 1.5, -1.5]) % T.tensor([1., -0.5, -1., 1.]),
             T.tensor([-3, 3]) % 2, T.remainder(T.tensor([-3., 3.]), -2))
    """,
    "remainder_and_reflected_floor_divide_of_bools": """
        m = T.tensor([True, False])
        for call in (lambda: m % m, lambda: m % True, lambda: True % m, lambda: True // m,
                     lambda: T.remainder(m, False), lambda: 3 // T.tensor([True, True])):
            try:
                show(call())
            except NotImplementedError as e:
                show(str(e))
    """,
    "sign_and_sgn_of_bool": """
        m = T.tensor([True, False])
        show(m.sign(), m.sgn(), T.sign(T.tensor(True)), T.tensor([-2, 0, 3]).sign())
    """,
    "zero_dim_promotion_in_alpha_where_and_rounded_div": """
        x = T.ones(2, requires_grad=True)
        z = T.tensor(2., dtype=T.float64, requires_grad=True)
        c = T.tensor([True, False])
        outs = [T.add(x, z, alpha=2), T.sub(z, x, alpha=3), T.where(c, x, z), T.where(c, z, x)]
        show(*outs, T.div(T.tensor([7, -7]), T.tensor(2.), rounding_mode="floor"),
             T.add(T.tensor([1, 2]), T.tensor(0.5), alpha=2))
        sum(o.sum() for o in outs).backward()
        show(x.grad, z.grad)
    """,
    "sum_over_a_repeated_dim": """
        T.ones(2, 2).sum((1, -1))
    """,
    "index_of_a_0d_tensor_other_than_0": """
        T.tensor(1.)[1]
    """,
    "permute_without_dims": """
        T.tensor(1.).permute()
    """,
    "addmm_errors": """
        x = T.ones(2, 2)
        for call in (lambda: T.addmm(x, T.ones(2), x), lambda: T.addmm(T.ones(2, 3), x, x)):
            try:
                call()
            except RuntimeError as e:
                show(str(e))
    """,
    "var_in_float32_rounds_once": """
        x = T.tensor([[0.53, -1.12, 1.77], [1.9, -0.33, 0.04], [-1.41, 0.26, 1.05]])
        show(x.var(0).tolist(), x.var(1).tolist(), x.std().item(), x.var().item())
    """,
    "mv_with_wrong_ranks": """
        T.mv(T.ones(3, 2), T.ones(3, 2))
    """,
    "vector_at_batch_requiring_grad_folds": """
        v = T.ones(3, requires_grad=True)
        y = T.ones(2) @ T.ones(4, 2, 3)
        w = T.ones(2, requires_grad=True) @ T.ones(4, 2, 3)
        show(y, w, w.grad_fn.name())
        v @ T.ones(2, 2, 2)
    """,
    "matrix_at_batch_requiring_grad": """
        m = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        b = T.arange(12.).reshape(3, 2, 2)
        y = m @ b
        show(y, y.grad_fn.name())
        y.sum().backward()
        show(m.grad, T.ones(1, 2, requires_grad=True) @ b)
        T.ones(3, 1, requires_grad=True) @ T.ones(1, 3, 2)
    """,
}
SNIPPETS.update(_EDGES)

from parity_reproducers import REPRODUCERS  # noqa: E402 - issue 8's reproducers, same harness

SNIPPETS.update(REPRODUCERS)

from parity_fuzz_findings import FUZZ_FINDINGS  # noqa: E402 - the fuzzer's findings, same harness

SNIPPETS.update(FUZZ_FINDINGS)

from parity_shape_ops import SHAPE_OPS  # noqa: E402 - logsumexp, flip, roll, sort, topk ...

SNIPPETS.update(SHAPE_OPS)

from parity_elementwise import ELEMENTWISE  # noqa: E402 - the elementwise ops of the fuzzer's table

SNIPPETS.update(ELEMENTWISE)

from parity_int_operands import INT_OPERANDS  # noqa: E402 - Python ints beside integer tensors

SNIPPETS.update(INT_OPERANDS)

from parity_fuzz_errors import FUZZ_ERRORS  # noqa: E402 - the fuzzer's error findings

SNIPPETS.update(FUZZ_ERRORS)

from parity_number_ranges import NUMBER_RANGES  # noqa: E402 - numbers that do not fit their dtype

SNIPPETS.update(NUMBER_RANGES)

from parity_grad_values import GRAD_VALUES  # noqa: E402 - gradient values in PyTorch's order

SNIPPETS.update(GRAD_VALUES)

from parity_no_grad_views import NO_GRAD_VIEWS  # noqa: E402 - views made under no_grad

SNIPPETS.update(NO_GRAD_VIEWS)

from parity_new_methods import NEW_METHODS  # noqa: E402 - t.new_zeros(...) and friends

SNIPPETS.update(NEW_METHODS)

from parity_nn_embed import NN_EMBED  # noqa: E402 - embedding, one_hot, unflatten, normalize, pad

SNIPPETS.update(NN_EMBED)

from parity_math_ops import MATH_OPS  # noqa: E402 - outer, atan2, fmod, lerp, tensor_split, erf

SNIPPETS.update(MATH_OPS)

from parity_out_argument import OUT_ARGUMENT  # noqa: E402 - out= of the functional forms

SNIPPETS.update(OUT_ARGUMENT)

from parity_int_lists import INT_LISTS  # noqa: E402 - int[] arguments: pad, unflatten, flip

SNIPPETS.update(INT_LISTS)
