"""Parity snippets for the elementwise ops of issue 8's fuzzer table: rounding (floor, ceil,
trunc, frac), the relatives of exp and log (reciprocal, rsqrt, log1p, expm1, log2, log10,
exp2), the comparisons as functions (``T.le``), and the smooth activations (gelu, softplus,
silu, elu) with their modules.

Each snippet runs in torch and in minigrad through ``parity_snippets.py``'s harness (values,
printed text, dtypes, grad_fn names, saved values, graphs, errors); ``SNIPPETS`` includes
them all.
"""

from __future__ import annotations

# Values a learner meets at the edges: signed zeros, nan, inf, huge and tiny numbers,
# halves (where rounding decides), and ordinary ones.
_EDGES = (
    "[-0.0, 0.0, float('nan'), float('inf'), -float('inf'), 1e30, -1e30, 1e-30, -1e-30, "
    "0.5, -0.5, 1.5, -2.5, 2.7, -3.2, 1e-10, -0.9999, 88.0, -104.0, 1000.0]"
)

_UNARY = {
    "floor": "T.floor({x})",
    "ceil": "{x}.ceil()",
    "trunc": "T.trunc({x})",
    "fix": "{x}.fix()",
    "frac": "{x}.frac()",
    "reciprocal": "{x}.reciprocal()",
    "rsqrt": "T.rsqrt({x})",
    "log1p": "{x}.log1p()",
    "expm1": "T.expm1({x})",
    "log2": "{x}.log2()",
    "log10": "T.log10({x})",
    "exp2": "{x}.exp2()",
}

ELEMENTWISE: dict[str, str] = {}

for _name, _call in _UNARY.items():
    ELEMENTWISE[f"{_name}_values_and_gradient"] = f"""
for dtype in (T.float32, T.float64):
    x = T.tensor({_EDGES}, dtype=dtype, requires_grad=True)
    y = {_call.format(x="x")}
    show(y)
    graph(y)
    y.backward(T.linspace(-2, 2, 20, dtype=dtype))
    show(x.grad)
rng = np.random.default_rng(0)
x = T.tensor(rng.standard_normal(40).astype(np.float32) * 3, requires_grad=True)
y = {_call.format(x="x")}
show(y)
print_all = [float(v) for v in y.detach().reshape(-1)]
show(print_all)
y.sum().backward()
show(x.grad)
"""
    ELEMENTWISE[f"{_name}_of_integers_and_bools"] = f"""
for dtype in (T.int64, T.int32, T.bool):
    x = T.tensor([0, 1, 1, 0], dtype=dtype)
    show({_call.format(x="x")})
x = T.tensor([-3, 0, 7, 12])
show({_call.format(x="x")})
"""
    ELEMENTWISE[f"{_name}_in_place"] = f"""
x = T.tensor([0.3, -1.7, 2.5, 4.0], requires_grad=True)
y = x * 1
out = y.{_name}_()
show(out is y, y, y._version)
graph(y)
y.sum().backward()
show(x.grad)
z = T.tensor([1, 2, 3])
z.{_name}_()
show(z)
"""
    ELEMENTWISE[f"{_name}_on_a_leaf_in_place"] = f"""
x = T.tensor([0.3, 2.5], requires_grad=True)
x.{_name}_()
"""
    ELEMENTWISE[f"{_name}_saved_values"] = f"""
x = T.tensor([0.3, 1.7, 2.5], requires_grad=True)
y = {_call.format(x="x")}
for name in ("_saved_self", "_saved_result"):
    if hasattr(y.grad_fn, name):
        show(name, getattr(y.grad_fn, name))
y.sum().backward()
for name in ("_saved_self", "_saved_result"):
    if hasattr(y.grad_fn, name):
        getattr(y.grad_fn, name)
"""

ELEMENTWISE.update(
    {
        "comparison_functions": """
x = T.tensor([[1.0, -2.0, float('nan')], [0.0, -0.0, 3.0]])
y = T.tensor([1.0, 0.0, 3.0])
for f in (T.le, T.ge, T.lt, T.gt, T.eq, T.ne, T.less_equal, T.greater_equal, T.less,
          T.greater, T.not_equal):
    show(f(x, y), f(x, 0), f(x, 1.5), f(x, T.tensor(0.0, dtype=T.float64)))
for m in ("le", "ge", "lt", "gt", "eq", "ne", "less_equal", "greater", "not_equal"):
    show(getattr(x, m)(y))
""",
        "comparison_promotes_as_pytorch": """
a = T.tensor([16777217, 3])
show(T.le(a, 16777216.0), T.eq(a, 16777216.0), a == 16777216.0, a <= 16777216.0)
f = T.tensor([0.1, 0.2])
show(T.eq(f, T.tensor(0.1, dtype=T.float64)), f == T.tensor(0.1, dtype=T.float64))
show(T.le(T.tensor([True, False]), T.tensor([True, True])), T.le(T.tensor([1, 2]), True))
show(T.gt(T.tensor([1, 2], dtype=T.int32), T.tensor(1.5, dtype=T.float64)))
""",
        "comparison_errors": """
x = T.tensor([1.0, 2.0])
T.le(x, T.tensor([1.0, 2.0, 3.0]))
""",
        "comparison_needs_no_grad": """
x = T.tensor([1.0, -2.0], requires_grad=True)
y = T.le(x, 0.5)
show(y, y.requires_grad, y.grad_fn)
""",
        "rounding_of_huge_and_negative_halves": """
x = T.tensor([-0.5, -1.5, 2.5, -2.5, 1e20, -1e20, 8388609.0, -8388609.5])
show(x.floor(), x.ceil(), x.trunc(), x.frac(), T.round(x))
""",
        "reciprocal_of_numbers_and_zeros": """
x = T.tensor([0.0, -0.0, 1e-40, 3.0], requires_grad=True)
y = x.reciprocal()
show(y)
y.backward(T.ones(4))
show(x.grad)
show(T.tensor([0, 2, -4]).reciprocal(), T.tensor([True, False]).reciprocal())
""",
        "in_place_on_integers_that_need_a_float": """
x = T.tensor([1, 2, 4])
x.rsqrt_()
""",
        "log1p_of_tiny_numbers_keeps_digits": """
x = T.tensor([1e-10, -1e-10, 1e-7], dtype=T.float64)
show(x.log1p(), x.expm1(), T.log1p(x.float()), T.expm1(x.float()))
""",
        "view_then_in_place": """
x = T.tensor([[0.3, 1.7], [2.5, 4.0]], requires_grad=True)
y = x * 1
y[0].log1p_()
show(y)
graph(y)
y.sum().backward()
show(x.grad)
""",
        "saved_value_changed_in_place": """
x = T.tensor([0.3, 1.7], requires_grad=True)
y = x * 1
z = y.log2()
y.add_(1)
z.sum().backward()
""",
        "in_place_saves_a_clone_of_self": """
x = T.tensor([0.3, -1.7], requires_grad=True)
z = T.tensor([2.0, 3.0], requires_grad=True)
for f in (lambda y: y.log1p_(), lambda y: y.abs_(), lambda y: y.mul_(z), lambda y: y.div_(2),
          lambda y: y.mul_(z.detach()), lambda y: y.exp_(), lambda y: y.log2_()):
    y = x * 1
    f(y)
    show(y.grad_fn._saved_self if hasattr(y.grad_fn, "_saved_self") else None)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    graph(g)
""",
        "result_changed_in_place": """
x = T.tensor([0.3, 1.7], requires_grad=True)
z = x.expm1()
z.mul_(2)
z.sum().backward()
""",
    }
)

_ACTIVATIONS = {
    "gelu": "F.gelu({x})",
    "gelu_tanh": "F.gelu({x}, approximate='tanh')",
    "softplus": "F.softplus({x})",
    "softplus_beta": "F.softplus({x}, beta=2, threshold=3)",
    "softplus_float_beta": "F.softplus({x}, 0.5, 4.0)",
    "silu": "F.silu({x})",
    "elu": "F.elu({x})",
    "elu_alpha": "F.elu({x}, alpha=0.5)",
    "gelu_module": "T.nn.GELU()({x})",
    "silu_module": "T.nn.SiLU()({x})",
    "elu_module": "T.nn.ELU(2.0)({x})",
    "softplus_module": "T.nn.Softplus(beta=3)({x})",
}

# float32: the values where PyTorch's kernels (oneDNN's gelu, SLEEF's exp and tanh, within an
# ulp or two of the exact result elsewhere) and minigrad's agree to the last bit
_SPECIAL32 = (
    "[-0.0, 0.0, float('nan'), float('inf'), -float('inf'), 1e30, -1e30, -20.0, 21.0, 100.0, "
    "-100.0]"
)

for _name, _call in _ACTIVATIONS.items():
    ELEMENTWISE[f"{_name}_values_and_gradient"] = f"""
F = T.nn.functional
edges64 = {_EDGES} + [-7.0, -3.5, -20.0, 19.0, 21.0]
for values, dtype in (({_SPECIAL32}, T.float32), (edges64, T.float64)):
    x = T.tensor(values, dtype=dtype, requires_grad=True)
    y = {_call.format(x="x")}
    show(y)
    graph(y)
    y.backward(T.tensor(np.linspace(-2, 2, len(values)), dtype=dtype))
    show(x.grad)
rng = np.random.default_rng(0)
x = T.tensor(rng.standard_normal(40) * 3, requires_grad=True)
y = {_call.format(x="x")}
show(y)
show([float(v) for v in y.detach().reshape(-1)])
y.sum().backward()
show(x.grad)
x = T.tensor(rng.standard_normal((2, 3)), requires_grad=True)
y = {_call.format(x="x")}
for name in ("_saved_self", "_saved_result", "_saved_approximate", "_saved_beta",
             "_saved_threshold", "_saved_alpha", "_saved_scale", "_saved_input_scale"):
    if hasattr(y.grad_fn, name):
        show(name, getattr(y.grad_fn, name))
(g,) = T.autograd.grad(y.sum(), x, create_graph=True)
show(g)
graph(g)
(h,) = T.autograd.grad((g * g).sum(), x, create_graph=True)
show(h)
graph(h)
(k,) = T.autograd.grad(h.sum(), x)
show(k)
"""
    ELEMENTWISE[f"{_name}_of_integers"] = f"""
F = T.nn.functional
{_call.format(x="T.tensor([1, 2])")}
"""

ELEMENTWISE.update(
    {
        "activation_modules_print": """
show(repr(T.nn.GELU()), repr(T.nn.GELU('tanh')), repr(T.nn.Softplus()), repr(T.nn.Softplus(2, 5)))
show(repr(T.nn.SiLU()), repr(T.nn.SiLU(inplace=True)), repr(T.nn.ELU()), repr(T.nn.ELU(0.5, True)))
show(repr(T.nn.Sequential(T.nn.Linear(2, 3), T.nn.GELU(), T.nn.Linear(3, 1), T.nn.SiLU())))
""",
        "gelu_approximate_is_checked": """
T.nn.functional.gelu(T.ones(2), approximate='exact')
""",
        "elu_in_place": """
F = T.nn.functional
x = T.tensor([0.3, -1.7, 2.5, -0.2], requires_grad=True)
y = x * 1
out = F.elu(y, alpha=0.5, inplace=True)
show(out is y, y, y._version, y.grad_fn._saved_result, y.grad_fn._saved_alpha)
graph(y)
(g,) = T.autograd.grad(y.sum(), x, create_graph=True)
show(g)
graph(g)
(h,) = T.autograd.grad((g * g).sum(), x)
show(h)
z = x * 1
F.elu_(z)
show(z)
m = T.nn.ELU(inplace=True)
w = x * 2
show(m(w) is w, w)
""",
        "silu_in_place": """
F = T.nn.functional
x = T.tensor([0.3, -1.7, 2.5], requires_grad=True)
y = x * 1
out = F.silu(y, inplace=True)
show(out is y, y, y._version, y.grad_fn._saved_self)
(g,) = T.autograd.grad(y.sum(), x, create_graph=True)
show(g)
graph(g)
""",
        "activations_in_place_on_a_leaf": """
x = T.tensor([0.3, -1.7], requires_grad=True)
T.nn.functional.elu(x, inplace=True)
""",
        "elu_result_changed_in_place": """
x = T.tensor([0.3, -1.7], requires_grad=True)
y = x * 1
T.nn.functional.elu_(y)
y.mul_(2)
y.sum().backward()
""",
        "softplus_of_huge_and_tiny": """
F = T.nn.functional
x = T.tensor([1e30, -1e30, 88.7, 89.0, -88.0, -104.0, 0.0, -0.0], requires_grad=True)
y = F.softplus(x)
show(y)
y.sum().backward()
show(x.grad)
show(F.softplus(x, beta=0), F.softplus(x, beta=-1))
""",
        "sinh_and_cosh": """
x = T.tensor([0.3, -1.7, 90.0, -0.0], requires_grad=True)
y = T.sinh(x) + x.cosh()
show(T.sinh(x), T.cosh(x), y)
(g,) = T.autograd.grad(y.sum(), x, create_graph=True)
show(g)
graph(g)
""",
    }
)
