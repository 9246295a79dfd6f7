"""Parity with PyTorch 2.13 on second-order programs (gradients of gradients).

Each snippet runs with ``T = torch`` and ``T = minigrad`` through the harness of
``parity_snippets.py``: values, printed text, ``grad_fn`` names and the graphs below the
gradients computed with ``create_graph=True`` must be the same. Inputs come from numpy
(the two libraries' random generators differ).
"""

from __future__ import annotations

import pytest
from parity_snippets import run, same
from test_parity import _explain

pytestmark = pytest.mark.parity

_MLP = """
rng = np.random.default_rng(0)
def t(*shape):
    return T.tensor(rng.standard_normal(shape), dtype=T.float64, requires_grad=True)
X = T.tensor(rng.standard_normal((5, 3)), dtype=T.float64)
Y = T.tensor(rng.standard_normal((5, 1)), dtype=T.float64)
W1, b1, W2, b2 = t(4, 3), t(4), t(1, 4), t(1)
def mlp(x, W1, b1, W2, b2):
    return T.nn.functional.linear(T.tanh(T.nn.functional.linear(x, W1, b1)), W2, b2)
def loss(W1, b1, W2, b2):
    return T.nn.functional.mse_loss(mlp(X, W1, b1, W2, b2), Y)
"""

SNIPPETS = {
    "hessian_of_an_mlp_loss": _MLP
    + """
H = T.autograd.functional.hessian(loss, (W1, b1, W2, b2))
for row in H:
    for block in row:
        show(block)
""",
    "hessian_vector_product_of_an_mlp_loss": _MLP
    + """
params = (W1, b1, W2, b2)
grads = T.autograd.grad(loss(*params), params, create_graph=True)
for g in grads:
    show(g)
graph(grads[0])
vs = [T.ones_like(p) * 0.5 for p in params]
dot = sum((g * v).sum() for g, v in zip(grads, vs))
show(dot)
hv = T.autograd.grad(dot, params)
show(*hv)
out, hv2 = T.autograd.functional.hvp(loss, params, tuple(vs))
show(out, *hv2)
out, vh = T.autograd.functional.vhp(loss, params, tuple(vs))
show(*vh)
""",
    "gradient_penalty": _MLP
    + """
x = X.clone().requires_grad_()
d = mlp(x, W1, b1, W2, b2)
(g,) = T.autograd.grad(d.sum(), x, create_graph=True)
show(g)
graph(g)
penalty = (((g * g).sum(1).sqrt() - 1) ** 2).mean()
show(penalty)
graph(penalty)
penalty.backward()
show(W1.grad, b1.grad, W2.grad, b2.grad, x.grad)
""",
    "third_derivative_of_tanh": """
x = T.tensor([0.3, -0.5, 1.2], dtype=T.float64, requires_grad=True)
(g1,) = T.autograd.grad(x.tanh().sum(), x, create_graph=True)
(g2,) = T.autograd.grad(g1.sum(), x, create_graph=True)
(g3,) = T.autograd.grad(g2.sum(), x)
show(g1, g2, g3)
graph(g1)
graph(g2)
""",
    "third_derivatives_of_exp_and_log_relatives": """
x = T.tensor([0.3, 0.5, 1.2], dtype=T.float64, requires_grad=True)
for f in (T.reciprocal, T.rsqrt, T.log1p, T.expm1, T.log2, T.log10, T.exp2):
    (g1,) = T.autograd.grad(f(x).sum(), x, create_graph=True)
    (g2,) = T.autograd.grad((g1 * g1).sum(), x, create_graph=True)
    (g3,) = T.autograd.grad(g2.sum(), x)
    show(g1, g2, g3)
    graph(g2)
""",
    "hessian_of_prod_through_zeros": """
x = T.tensor([[0.0, 2.0, 3.0], [0.0, 0.0, 1.5]], dtype=T.float64)
show(T.autograd.functional.hessian(lambda a: a.prod(), x))
show(T.autograd.functional.hessian(lambda a: a.prod(1).sum(), x))
show(T.autograd.functional.hessian(lambda a: a.prod(0, keepdim=True).sum(), x))
""",
    "functional_on_vectors_and_several_inputs": """
x = T.tensor([0.5, -1.0, 2.0], dtype=T.float64)
y = T.tensor([1.5, 0.25], dtype=T.float64)
f = lambda a: a.exp() * a.sum()
g = lambda a, b: (a.unsqueeze(1) * b).sin()
show(T.autograd.functional.jacobian(f, x))
show(T.autograd.functional.jacobian(g, (x, y)))
show(T.autograd.functional.hessian(lambda a, b: (a.unsqueeze(1) * b).sin().sum(), (x, y)))
show(T.autograd.functional.vjp(f, x, T.ones(3, dtype=T.float64)))
show(T.autograd.functional.jvp(g, (x, y), (T.ones(3, dtype=T.float64), T.ones(2, dtype=T.float64))))
show(T.autograd.functional.hvp(lambda a: (a ** 3).sum(), x, T.ones(3, dtype=T.float64)))
show(T.autograd.functional.vhp(lambda a: (a ** 3).sum(), x, T.ones(3, dtype=T.float64)))
J = T.autograd.functional.jacobian(f, x, create_graph=True)
show(J.requires_grad)
try:
    T.autograd.functional.hessian(lambda a: a * 2, x)
except RuntimeError as e:
    show(str(e))
try:
    T.autograd.functional.vjp(lambda a: a * 2, x, strict=True)
except RuntimeError as e:
    show(str(e))
""",
    "functional_vectorize_and_strategy": """
x = T.tensor([0.5, -1.0, 2.0], dtype=T.float64)
y = T.tensor([1.5, 0.25], dtype=T.float64)
f = lambda a: a.exp() * a.sum()
g = lambda a, b: (a.unsqueeze(1) * b).sin()
h = lambda a, b: (a.unsqueeze(1) * b).sin().sum() + (a ** 3).sum()
AF = T.autograd.functional
show(AF.jacobian(f, x, vectorize=True))
show(AF.jacobian(g, (x, y), vectorize=True))
show(AF.jacobian(lambda a, b: a * 2, (x, y), vectorize=True))
show(AF.hessian(h, (x, y), vectorize=True))
show(AF.hessian(lambda a: a.sum() * 2, x, vectorize=True))
show(AF.jacobian(f, x, strategy="forward-mode", vectorize=True))
fwd = AF.jacobian(lambda a, b: (a * 2, b * 3), (x, y), strategy="forward-mode", vectorize=True)
show(type(fwd).__name__, type(fwd[0]).__name__, fwd[0][0], fwd[1][1])
show(type(AF.hessian(h, (x, y), vectorize=True, outer_jacobian_strategy="forward-mode")))
for kw in (
    dict(vectorize=True, strict=True),
    dict(strategy="forward-mode"),
    dict(strategy="forward-mode", create_graph=True, vectorize=True),
    dict(strategy="forward-mode", strict=True, vectorize=True),
    dict(strategy="sideways"),
):
    try:
        AF.jacobian(f, x, **kw)
    except (RuntimeError, NotImplementedError, AssertionError) as e:
        show(type(e).__name__, str(e))
for vectorize in (True, False):
    try:
        AF.jacobian(lambda a: a[:0] * 2, x, vectorize=vectorize)
    except (RuntimeError, IndexError) as e:
        show(type(e).__name__, str(e))
""",
    "custom_function_differentiated_twice": """
class Cube(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x
class Exp(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = x.exp()
        ctx.save_for_backward(out)
        return out
    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out
x = T.tensor([0.5, -1.0], dtype=T.float64, requires_grad=True)
(g,) = T.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
show(g)
graph(g)
show(T.autograd.grad(g.sum(), x))
(g,) = T.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
show(g)
show(T.autograd.grad(g.sum(), x))
show(T.autograd.gradgradcheck(Cube.apply, (x,)))
""",
    "nll_loss_gradient_of_its_gradient": """
x = T.tensor([[0.1, 0.5, -0.3], [1.0, 2.0, 0.5]], dtype=T.float64, requires_grad=True)
y = T.tensor([2, 0])
w = T.tensor([1.0, 2.0, 3.0], dtype=T.float64)
for kwargs in ({}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": w, "ignore_index": 0}):
    lp = x.log_softmax(1)
    loss = T.nn.functional.nll_loss(lp * lp, y, **kwargs)
    node = loss.grad_fn
    show(node._saved_total_weight, node._saved_target, node._saved_weight, node._saved_self)
    go = T.ones(tuple(loss.shape), dtype=T.float64, requires_grad=True) * 0.5
    (g,) = T.autograd.grad(loss, lp, go, create_graph=True)
    show(g)
    graph(g)
    (gg,) = T.autograd.grad(g, go, T.ones_like(g) * x.detach(), create_graph=True)
    show(gg)
    graph(gg)
""",
    "create_graph_semantics": """
x = T.tensor([1.0, 2.0], requires_grad=True)
v = T.tensor([3.0, -1.0], requires_grad=True)
y = (x * x).sum()
(g,) = T.autograd.grad(y, x, create_graph=True)
show(g)
(g2,) = T.autograd.grad(y, x)
show(g2)
(gv,) = T.autograd.grad(x * x.detach(), x, v, create_graph=True)
show(gv)
graph(gv)
u = T.tensor([5.0], requires_grad=True)
show(T.autograd.grad((x * 2).sum(), (x, u), create_graph=True, allow_unused=True))
show(T.autograd.grad((x * x).sum(), (x, u), create_graph=True, materialize_grads=True))
z = T.tensor(2.0, requires_grad=True)
(gz,) = T.autograd.grad(z * 3.0, z, create_graph=True)
show(gz)
""",
}

# The graph of a gradient computed with create_graph=True, op by op.
_OPS = {
    "add": "x + y",
    "sub": "x - y",
    "rsub": "2 - x",
    "mul": "x * y",
    "div": "x / y",
    "rdiv": "2 / x",
    "neg": "-x",
    "pow2": "x ** 2",
    "pow3": "x ** 3",
    "pow_tensor": "p ** y",
    "rpow": "2 ** x",
    "exp": "x.exp()",
    "log": "p.log()",
    "sqrt": "p.sqrt()",
    "abs": "x.abs()",
    "sin": "x.sin()",
    "cos": "x.cos()",
    "tanh": "x.tanh()",
    "sigmoid": "x.sigmoid()",
    "relu": "x.relu()",
    "clamp": "x.clamp(-0.5, 0.5)",
    "sum": "x.sum()",
    "sum_dim": "x.sum(1)",
    "mean": "x.mean()",
    "mean_dim": "x.mean(1)",
    "var_dim": "x.var(1)",
    "std_dim": "x.std(1)",
    "softmax": "x.softmax(1)",
    "log_softmax": "x.log_softmax(1)",
    "view": "x.view(12)",
    "reshape": "x.t().reshape(12)",
    "transpose": "x.transpose(0, 1)",
    "t": "x.t()",
    "permute": "x.permute(1, 0)",
    "expand": "x[:1].expand(3, 4)",
    "squeeze": "x[:1].squeeze()",
    "unsqueeze": "x.unsqueeze(0)",
    "clone": "x.clone()",
    "to": "x.float()",
    "mm": "x @ m",
    "addmm": "T.addmm(b, x, m)",
    "mv": "x @ v",
    "dot": "v @ v",
    "select": "x[1]",
    "slice": "x[1:]",
    "index": "x[[0, 2]]",
    "mask": "x[x > 0]",
    "cat": "T.cat([x, y])",
    "stack": "T.stack([x, y])",
    "where": "T.where(x > 0, x, y)",
    "mse": "T.nn.functional.mse_loss(x, y)",
    "cross_entropy": "T.nn.functional.cross_entropy(x, T.tensor([0, 1, 3]))",
    "broadcast": "x * b4 + x * c1",
    "maximum": "T.maximum(x, y)",
    "minimum": "T.minimum(x, y * 0 + x[0])",
    "max_all": "x.max()",
    "max_dim": "x.max(1).values",
    "bce": "T.nn.functional.binary_cross_entropy(p, p.detach() * 0.5)",
    "bce_logits": "T.nn.functional.binary_cross_entropy_with_logits(x, p.detach())",
    "batched_matmul": "x.expand(2, 3, 4) @ m",
    "min_all": "x[0, 0].min()",
    "min_dim_keepdim": "x.min(0, keepdim=True).values",
    "amax": "x.amax(1)",
    "gather": "x.gather(1, T.tensor([[0, 1], [2, 0], [1, 1]]))",
    "remainder": "T.remainder(x, p)",
    "huber": "T.nn.functional.huber_loss(x, y)",
    "huber_none": "T.nn.functional.huber_loss(x, y, reduction='none', delta=0.5)",
    "smooth_l1": "T.nn.functional.smooth_l1_loss(x, y, beta=0.3)",
    "leaky_relu": "T.nn.functional.leaky_relu(x, 0.1)",
    "cumsum": "x.cumsum(1)",
    "masked_fill": "x.masked_fill(x > 0, 2.0)",
    "masked_fill_tensor": "x.masked_fill(x > 0, b4[0])",
    "repeat": "x.repeat(2, 3, 1)",
    "bmm": "T.bmm(x.expand(2, 3, 4), m.expand(2, 4, 5))",
    "div_floor": "T.div(x, y, rounding_mode='floor')",
    "sub_alpha": "T.sub(x, y, alpha=2.5)",
    "norm_all": "x.norm()",
    "norm_1": "T.linalg.vector_norm(x, 1, dim=1)",
    "norm_inf": "T.linalg.vector_norm(x, float('inf'), dim=(0, 1))",
    "norm_3": "T.linalg.vector_norm(x, 3, dim=1)",
    "norm_half": "T.linalg.vector_norm(x, 0.5, dim=-1)",
    "var_no_dof": "x.var(correction=12)",
    "var_of_a_vector": "x[0].var(-1)",
    "transpose_of_a_scalar": "x[0, 0].transpose(0, -1) * x[0, 0]",
    "div_number_by_tensor": "T.div(2.5, x)",
    "std_of_a_vector": "x[0].std(0)",
    "bce_target": "T.nn.functional.binary_cross_entropy(p.detach(), p, reduction='sum')",
    "bce_weight": "T.nn.functional.binary_cross_entropy(p, (x * 0.1).sigmoid(), weight=b4.abs())",
    "bce_weight_constant": (
        "T.nn.functional.binary_cross_entropy(p, (x * 0.1).sigmoid(), weight=b4.detach().abs())"
    ),
    "bce_logits_target": "T.nn.functional.binary_cross_entropy_with_logits(x.detach(), p)",
    "bce_logits_pos_weight": (
        "T.nn.functional.binary_cross_entropy_with_logits("
        "x, p, weight=b4.detach(), pos_weight=b4.detach().abs(), reduction='none')"
    ),
    "linear": "T.nn.functional.linear(x, m.t(), b)",
    # tests/parity_shape_ops.py's ops
    "logsumexp": "x.logsumexp(1) * b4[:3]",
    "logsumexp_dims_keepdim": "T.logsumexp(x * y, (0, -1), keepdim=True)",
    "flip": "x.flip(0, 1) * y",
    "roll": "x.roll((1, -1), (0, 1)) * y",
    "roll_flat": "T.roll(x * y, 2)",
    "mT": "x.mT * y.mT",
    "sort": "x.sort(1).values * y",
    "sort_stable_descending": "(x * y).sort(dim=0, descending=True, stable=True)[0]",
    "topk": "x.topk(2).values * x[:, :2]",
    "topk_smallest_dim0": "T.topk(x * y, 2, 0, largest=False)[0]",
    "clamp_min": "x.clamp_min(0.1) * x",
    "clamp_max_tensor": "x.clamp_max(y) * x",
    "clamp_min_tensor": "T.clamp_min(x, c1) * y",
    "squeeze_dims": "(x.unsqueeze(1) * y.unsqueeze(1)).squeeze((1, -1))",
    "topk_of_a_scalar": "x.mean().topk(1, largest=False).values.sigmoid() * x",
    "max_dim_of_a_scalar": "x.sum().max(0).values.tanh() * y",
    "floor": "x.floor() * x",
    "ceil": "T.ceil(x) + x",
    "trunc": "x.trunc() * x",
    "frac": "x.frac()",
    "reciprocal": "p.reciprocal()",
    "rsqrt": "p.rsqrt()",
    "log1p": "p.log1p()",
    "expm1": "x.expm1()",
    "log2": "p.log2()",
    "log10": "T.log10(p)",
    "exp2": "x.exp2()",
    "log1p_in_place": "(p * 1).log1p_()",
    "rsqrt_in_place": "(p * 1).rsqrt_()",
    "gelu": "T.nn.functional.gelu(x)",
    "gelu_tanh": "T.nn.functional.gelu(x, approximate='tanh')",
    "softplus": "T.nn.functional.softplus(x, beta=2, threshold=1)",
    "silu": "T.nn.functional.silu(x)",
    "elu": "T.nn.functional.elu(x, alpha=0.7)",
    "elu_in_place": "T.nn.functional.elu(x * 1, inplace=True)",
    "silu_in_place": "T.nn.functional.silu(x * 1, inplace=True)",
    "cosh": "x.cosh() * x.sinh()",
}
_SETUP = """
rng = np.random.default_rng(1)
def t(*shape):
    return T.tensor(rng.standard_normal(shape), dtype=T.float64, requires_grad=True)
x, y, m, b, v, c1, b4 = t(3, 4), t(3, 4), t(4, 5), t(5), t(4), t(3, 1), t(4)
p = T.tensor(rng.uniform(0.2, 1.0, (3, 4)), dtype=T.float64, requires_grad=True)
"""
for _name, _expr in _OPS.items():
    SNIPPETS[f"gradient_graph_{_name}"] = (
        _SETUP
        + f"""
out = {_expr}
go = T.ones(tuple(out.shape), dtype=out.dtype, requires_grad=True)
grads = T.autograd.grad(out, (x, y, p, m, b, v, c1, b4), go, create_graph=True, allow_unused=True)
for g in grads:
    if g is not None:
        show(g)
        graph(g)
"""
    )


# Values and names of the nodes are compared for every snippet; a snippet whose gradient's
# graph is built from other nodes than PyTorch's would be listed here with the reason, and
# only its values compared. None is, today.
GRAPH_DIFFERS: dict[str, str] = {}


def _values_only(items: list) -> list:
    """Drop the graphs, and the node names from each tensor (its text names its grad_fn)."""
    return [(i[0], *i[2:6], i[7]) if i[0] == "tensor" else i for i in items if i[0] != "graph"]


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_second_order_program_matches_pytorch(torch, name: str) -> None:
    import minigrad

    code = SNIPPETS[name]
    expected = run(torch, code)
    got = run(minigrad, code)
    if name in GRAPH_DIFFERS:
        expected, got = _values_only(expected), _values_only(got)
    assert len(got) == len(expected) and all(
        same(a, b) for a, b in zip(got, expected, strict=True)
    ), f"{name}: {_explain(expected, got)}"
