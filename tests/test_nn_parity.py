"""minigrad.nn and minigrad.optim against real PyTorch: same text, graphs, numbers and errors.

Each test runs the same code with ``lib = torch`` and ``lib = minigrad``. Text is
compared after ``torch.`` -> ``minigrad.`` (PyTorch names its own module where
minigrad names itself). Weights are copied from minigrad into PyTorch, so that
trajectories can be compared number for number.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minigrad as mg

pytestmark = pytest.mark.parity


def norm(text: str) -> str:
    """PyTorch's text as minigrad must print it: ``torch.`` becomes ``minigrad.``."""
    text = text.replace("torch Tensor", "minigrad Tensor").replace("torch::", "minigrad::")
    return text.replace("torch.", "minigrad.")


def outcome(fn: Callable[[Any], Any], lib: Any) -> tuple:
    """("ok", repr of the result) or ("raises", type, message), with the warnings.

    Only PyTorch's text is normalised: minigrad's must already name minigrad.
    """
    fix = norm if lib is not mg else (lambda text: text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", fix(repr(fn(lib))))
        except Exception as e:  # noqa: BLE001 - the exception is what we compare
            result = ("raises", type(e).__name__, fix(str(e)))
    said = [
        (w.category.__name__, fix(str(w.message)))
        for w in caught
        if not issubclass(w.category, DeprecationWarning)
    ]
    return result, said


def same_outcome(fn: Callable[[Any], Any], torch: Any) -> None:
    expected = outcome(fn, torch)
    got = outcome(fn, mg)
    assert got == expected


def tree(fn) -> list:
    """Node names below ``fn``, depth first, with PyTorch's AccumulateGrad name shortened."""
    out = []
    stack = [(fn, 0)]
    while stack:
        node, depth = stack.pop()
        out.append((depth, None if node is None else norm(node.name())))  # no-op for minigrad
        if node is not None:
            stack.extend((f, depth + 1) for f, _ in reversed(node.next_functions))
    return out


def numpy_of(t) -> np.ndarray:
    return np.array(t.detach().cpu().tolist() if hasattr(t, "cpu") else t.detach().tolist())


def copy_into_torch(mg_model, torch_model, torch) -> None:
    """Give the PyTorch model minigrad's weights (minigrad's random numbers differ)."""
    sd = {k: torch.tensor(v.numpy()) for k, v in mg_model.state_dict().items()}
    torch_model.load_state_dict(sd)


def define_net(lib):
    nn = lib.nn

    class Net(nn.Module):
        def __init__(self, hidden=3):
            super().__init__()
            self.fc1 = nn.Linear(4, hidden)
            self.act = nn.ReLU()
            self.fc2 = nn.Linear(hidden, 2)

        def forward(self, x):
            return self.fc2(self.act(self.fc1(x)))

    return Net


# -- printed text ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: define_net(lib)(),
        lambda lib: lib.nn.Sequential(
            lib.nn.Linear(2, 16),
            lib.nn.ReLU(),
            lib.nn.Sequential(lib.nn.Linear(16, 1)),
            lib.nn.Sigmoid(),
        ),
        lambda lib: lib.nn.Sequential(),
        lambda lib: lib.nn.Linear(3, 2, bias=False),
        lambda lib: [
            lib.nn.ReLU(),
            lib.nn.ReLU(inplace=True),
            lib.nn.Tanh(),
            lib.nn.Sigmoid(),
            lib.nn.Softmax(dim=1),
            lib.nn.Softmax(),
            lib.nn.LogSoftmax(dim=0),
            lib.nn.Flatten(),
            lib.nn.Flatten(0, 2),
        ],
        lambda lib: [
            lib.nn.MSELoss(),
            lib.nn.L1Loss(reduction="sum"),
            lib.nn.NLLLoss(),
            lib.nn.CrossEntropyLoss(weight=lib.ones(3)),
            lib.nn.BCELoss(),
            lib.nn.BCEWithLogitsLoss(pos_weight=lib.ones(2)),
        ],
        lambda lib: lib.nn.Parameter(lib.tensor([[1.0, 2.0], [3.0, 4.5]])),
        lambda lib: lib.nn.Parameter(lib.ones(3), requires_grad=False),
        lambda lib: lib.nn.Parameter(),
        lambda lib: lib.nn.Parameter(lib.ones(2)) * 2,
    ],
)
def test_reprs(make, torch):
    same_outcome(make, torch)


def test_state_dict_keys_and_named_members(torch):
    def probe(lib):
        net = define_net(lib)()
        net.register_buffer("running", lib.zeros(2))
        net.register_buffer("cache", lib.zeros(1), persistent=False)
        net.scale = lib.nn.Parameter(lib.ones(1))
        seq = lib.nn.Sequential(net, lib.nn.Tanh(), net.fc2)
        return (
            list(seq.state_dict()),
            [k for k, _ in seq.named_parameters()],
            [k for k, _ in seq.named_buffers()],
            [k for k, _ in seq.named_modules()],
            type(seq.state_dict()).__name__,
            [type(v).__name__ for v in seq.state_dict().values()][:2],
            seq.state_dict()["0.scale"].requires_grad,
        )

    same_outcome(probe, torch)


# -- initialisation -------------------------------------------------------------------------------


@pytest.mark.parametrize("fan_in, fan_out", [(400, 300), (2, 16), (1000, 1)])
def test_linear_initialisation_statistics(fan_in, fan_out, torch):
    """Values differ (other random numbers) but the distribution is PyTorch's."""
    mg.manual_seed(0)
    torch.manual_seed(0)
    n = max(1, 120_000 // (fan_in * fan_out))  # enough samples for stable statistics
    ours = [mg.nn.Linear(fan_in, fan_out) for _ in range(n)]
    theirs = [torch.nn.Linear(fan_in, fan_out) for _ in range(n)]
    for name in ("weight", "bias"):
        a = np.concatenate([getattr(m, name).detach().numpy().ravel() for m in ours])
        b = np.concatenate([getattr(m, name).detach().numpy().ravel() for m in theirs])
        bound = 1 / math.sqrt(fan_in)
        assert np.abs(a).max() <= bound and np.abs(b).max() <= bound
        sigma, count = bound / math.sqrt(3), min(a.size, b.size)  # U(-bound, bound)
        assert abs(a.std() - b.std()) < 6 * sigma * math.sqrt(0.4 / count)  # 6 standard errors
        assert abs(a.mean() - b.mean()) < 6 * sigma * math.sqrt(2 / count)
        assert abs(a.std() - sigma) < 6 * sigma * math.sqrt(0.2 / count)
        assert a.dtype == np.float32


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("xavier_uniform_", {}),
        ("xavier_normal_", {"gain": 2.0}),
        ("kaiming_uniform_", {"nonlinearity": "relu"}),
        ("kaiming_normal_", {"mode": "fan_out"}),
        ("kaiming_uniform_", {"a": math.sqrt(5)}),
        ("uniform_", {"a": -0.5, "b": 2.0}),
        ("normal_", {"mean": 1.0, "std": 3.0}),
    ],
)
def test_init_statistics(name, kwargs, torch):
    a = getattr(mg.nn.init, name)(mg.empty(300, 200), **kwargs).numpy()
    b = getattr(torch.nn.init, name)(torch.empty(300, 200), **kwargs).numpy()
    assert abs(a.std() - b.std()) < 0.02 * b.std()
    assert abs(a.mean() - b.mean()) < 0.02 * b.std()
    if "uniform" in name:
        assert abs(a.min() - b.min()) < 0.01 * b.std() and abs(a.max() - b.max()) < 0.01 * b.std()


def test_init_helpers_and_errors(torch):
    for gain in [
        ("linear",),
        ("tanh",),
        ("relu",),
        ("leaky_relu",),
        ("leaky_relu", 0.2),
        ("selu",),
        ("sigmoid",),
    ]:
        assert mg.nn.init.calculate_gain(*gain) == torch.nn.init.calculate_gain(*gain)
    same_outcome(lambda lib: lib.nn.init.calculate_gain("foo"), torch)
    same_outcome(lambda lib: lib.nn.init.xavier_uniform_(lib.empty(3)), torch)
    same_outcome(lambda lib: lib.nn.init.kaiming_normal_(lib.empty(3, 3), mode="x"), torch)
    same_outcome(lambda lib: lib.nn.init.kaiming_uniform_(lib.empty(0, 3)).shape, torch)


# -- graphs ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(4,), (5, 4), (5, 2, 4)])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("input_grad", [True, False])
def test_linear_graph_and_values(shape, bias, input_grad, torch):
    lin = mg.nn.Linear(4, 3, bias=bias)
    tlin = torch.nn.Linear(4, 3, bias=bias)
    copy_into_torch(lin, tlin, torch)
    x = mg.randn(*shape, requires_grad=input_grad)
    tx = torch.tensor(x.detach().numpy(), requires_grad=input_grad)
    y, ty = lin(x), tlin(tx)
    assert tree(y.grad_fn) == tree(ty.grad_fn)
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-6)
    y.sum().backward()
    ty.sum().backward()
    np.testing.assert_allclose(lin.weight.grad.numpy(), tlin.weight.grad.numpy(), rtol=1e-5)
    if input_grad:
        np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_sequential_model_output_graph(torch):
    def build(lib):
        nn = lib.nn
        return nn.Sequential(
            nn.Linear(2, 4),
            nn.ReLU(),
            nn.Linear(4, 4),
            nn.Tanh(),
            nn.Linear(4, 3),
            nn.Softmax(dim=1),
        )

    model, tmodel = build(mg), build(torch)
    copy_into_torch(model, tmodel, torch)
    x = mg.randn(6, 2)
    y, ty = model(x), tmodel(torch.tensor(x.numpy()))
    assert tree(y.grad_fn) == tree(ty.grad_fn)
    assert norm(repr(y)) == norm(repr(ty))


# -- losses ---------------------------------------------------------------------------------------


def _pair(torch, array, requires_grad=True):
    return (
        mg.tensor(array, requires_grad=requires_grad),
        torch.tensor(array, requires_grad=requires_grad),
    )


LOSS_CASES = [
    ("mse_loss", {}, "reg"),
    ("l1_loss", {}, "reg"),
    ("mse_loss", {}, "reg_target_grad"),
    ("cross_entropy", {}, "cls"),
    ("cross_entropy", {"weight": [1.0, 2.0, 0.5, 3.0]}, "cls"),
    ("cross_entropy", {"ignore_index": 1}, "cls"),
    ("cross_entropy", {}, "soft"),
    ("cross_entropy", {"weight": [1.0, 2.0, 0.5, 3.0]}, "soft"),
    ("cross_entropy", {}, "image"),
    ("cross_entropy", {}, "seq"),
    ("cross_entropy", {}, "unbatched"),
    ("nll_loss", {}, "cls"),
    ("binary_cross_entropy", {}, "prob"),
    ("binary_cross_entropy", {"weight": [0.5, 1.0, 2.0, 1.5, 1.0, 0.2]}, "prob"),
    ("binary_cross_entropy", {}, "prob_target_grad"),
    ("binary_cross_entropy_with_logits", {}, "logit"),
    ("binary_cross_entropy_with_logits", {"pos_weight": [2.0, 0.5, 1.0, 3.0, 1.0, 1.0]}, "logit"),
    (
        "binary_cross_entropy_with_logits",
        {"weight": [0.5, 1.0, 2.0, 1.5, 1.0, 0.2], "pos_weight": [2.0, 0.5, 1.0, 3.0, 1.0, 1.0]},
        "logit_target_grad",
    ),
]


def _loss_inputs(kind: str, rng: np.random.Generator) -> tuple:
    """(input array, target array, target dtype, target requires grad)."""
    f32 = np.float32
    if kind.startswith("reg"):
        return (
            rng.normal(size=(5, 3)).astype(f32),
            rng.normal(size=(5, 3)).astype(f32),
            "f",
            kind.endswith("grad"),
        )
    if kind == "cls":
        return rng.normal(size=(5, 4)).astype(f32), np.array([0, 3, 1, 1, 2]), "i", False
    if kind == "soft":
        p = rng.uniform(size=(5, 4)).astype(f32)
        return rng.normal(size=(5, 4)).astype(f32), p / p.sum(1, keepdims=True), "f", False
    if kind == "image":
        return rng.normal(size=(2, 4, 3, 2)).astype(f32), rng.integers(0, 4, (2, 3, 2)), "i", False
    if kind == "seq":
        return rng.normal(size=(2, 4, 5)).astype(f32), rng.integers(0, 4, (2, 5)), "i", False
    if kind == "unbatched":
        return rng.normal(size=(4,)).astype(f32), np.array(2), "i", False
    if kind.startswith("prob"):
        return (
            rng.uniform(0.05, 0.95, 6).astype(f32),
            rng.uniform(size=6).astype(f32),
            "f",
            kind.endswith("grad"),
        )
    return (
        rng.normal(size=6).astype(f32) * 3,
        rng.uniform(size=6).astype(f32),
        "f",
        kind.endswith("grad"),
    )


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name, options, kind", LOSS_CASES)
def test_loss_values_grads_and_graphs(name, options, kind, reduction, torch):
    rng = np.random.default_rng(len(name) + len(kind))
    x, t, t_kind, t_grad = _loss_inputs(kind, rng)
    if name == "nll_loss":
        x = x - np.log(np.exp(x).sum(1, keepdims=True))
    mx, tx = _pair(torch, x)
    if t_kind == "i":
        mt, tt = mg.tensor(t), torch.tensor(t)
    else:
        mt, tt = _pair(torch, t.astype(np.float32), t_grad)
    mo = {k: mg.tensor(v) for k, v in options.items() if isinstance(v, list)}
    to = {k: torch.tensor(v) for k, v in options.items() if isinstance(v, list)}
    mo.update({k: v for k, v in options.items() if not isinstance(v, list)})
    to.update({k: v for k, v in options.items() if not isinstance(v, list)})
    ours = getattr(mg.nn.functional, name)(mx, mt, reduction=reduction, **mo)
    theirs = getattr(torch.nn.functional, name)(tx, tt, reduction=reduction, **to)
    assert tree(ours.grad_fn) == tree(theirs.grad_fn)
    assert ours.shape == tuple(theirs.shape) and ours.dtype == mg.float32
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=2e-6, atol=1e-6)
    if ours.ndim and math.isnan(float(ours.detach().numpy().sum())):
        return
    seed = rng.normal(size=ours.shape).astype(np.float32)
    ours.backward(mg.tensor(seed))
    theirs.backward(torch.tensor(seed))
    np.testing.assert_allclose(mx.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)
    if t_grad:
        np.testing.assert_allclose(mt.grad.numpy(), tt.grad.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib: lib.nn.functional.mse_loss(lib.ones(3, 1), lib.zeros(3)),
        lambda lib: lib.nn.functional.l1_loss(lib.ones(3, 1), lib.zeros(3)),
        lambda lib: lib.nn.functional.mse_loss(lib.ones(3, 4), lib.ones(3)),
        lambda lib: lib.nn.functional.mse_loss(lib.ones(3), lib.ones(3), reduction="foo"),
        lambda lib: lib.nn.MSELoss(size_average=False)(lib.ones(3), lib.ones(3) * 2),
        lambda lib: lib.nn.functional.mse_loss(
            lib.ones(3, dtype=lib.long), lib.ones(3, dtype=lib.long)
        ),
        lambda lib: lib.nn.functional.cross_entropy(lib.ones(3, 4), lib.tensor([0, 5, 1])),
        lambda lib: lib.nn.functional.cross_entropy(lib.ones(3, 4), lib.tensor([0.0, 2.0, 1.0])),
        lambda lib: lib.nn.functional.cross_entropy(
            lib.ones(3, 4), lib.tensor([0, 1, 2], dtype=lib.int32)
        ),
        lambda lib: lib.nn.functional.cross_entropy(lib.ones(3, 4), lib.tensor([0, 2])),
        lambda lib: lib.nn.functional.cross_entropy(lib.ones(3, 4), lib.ones(3, 5)),
        lambda lib: lib.nn.functional.cross_entropy(
            lib.ones(3, 4), lib.tensor([1, 2, 3]), weight=lib.ones(3)
        ),
        lambda lib: lib.nn.functional.nll_loss(lib.ones(3, 4), lib.tensor([1, -1, 3])),
        lambda lib: lib.nn.functional.cross_entropy(lib.ones(3, 4), lib.tensor([-100] * 3)),
        lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([1.5]), lib.tensor([1.0])),
        lambda lib: lib.nn.functional.binary_cross_entropy(lib.ones(3, 1) / 2, lib.ones(3)),
        lambda lib: lib.nn.functional.binary_cross_entropy(
            lib.ones(3) / 2, lib.ones(3, dtype=lib.long)
        ),
        lambda lib: lib.nn.functional.binary_cross_entropy(
            lib.tensor([0.0, 1.0]), lib.tensor([1.0, 0.0])
        ),
        lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(lib.ones(3, 1), lib.ones(3)),
        lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(
            lib.tensor([100.0, -100.0]), lib.tensor([0.0, 1.0]), reduction="none"
        ),
        lambda lib: lib.nn.functional.softmax(lib.tensor([[1.0, 2.0], [3.0, 5.0]])),
        lambda lib: lib.nn.Softmax()(lib.tensor([1.0, 2.0])),
        lambda lib: lib.nn.functional.log_softmax(lib.ones(2, 2, 2)),
    ],
)
def test_loss_and_activation_messages(fn, torch):
    same_outcome(fn, torch)


# -- Module behaviour and errors ----------------------------------------------------------------


def _assign(obj, name, value):
    setattr(obj, name, value)
    return obj


MODULE_SNIPPETS = [
    lambda lib: _assign(define_net(lib)(), "fc1", 3),
    lambda lib: _assign(
        _assign(define_net(lib)(), "w", lib.nn.Parameter(lib.ones(1))), "w", lib.ones(1)
    ),
    lambda lib: define_net(lib)().register_parameter("a.b", None),
    lambda lib: define_net(lib)().register_parameter("", None),
    lambda lib: define_net(lib)().register_parameter(1, None),
    lambda lib: define_net(lib)().register_parameter("fc1", None),
    lambda lib: define_net(lib)().register_parameter("q", lib.ones(1)),
    lambda lib: define_net(lib)().register_buffer("r", [1]),
    lambda lib: define_net(lib)().register_buffer("a.b", None),
    lambda lib: define_net(lib)().add_module("a.b", None),
    lambda lib: define_net(lib)().add_module("z", 3),
    lambda lib: define_net(lib)().nothing,
    lambda lib: define_net(lib)().train(1),
    lambda lib: lib.nn.Module()(1),
    lambda lib: define_net(lib)().get_submodule("fc3"),
    lambda lib: lib.nn.Parameter(lib.tensor([1, 2])),
    lambda lib: lib.nn.Parameter([1.0]),
    lambda lib: lib.nn.Sequential(lib.nn.ReLU())[1],
    lambda lib: lib.nn.Sequential(lib.nn.ReLU())[-2],
    lambda lib: lib.nn.Sequential(1),
    lambda lib: lib.nn.Sequential(lib.nn.ReLU(), lib.nn.Tanh(), lib.nn.Sigmoid())[1:],
    lambda lib: lib.nn.Sequential(lib.nn.ReLU(), lib.nn.Tanh()).append(lib.nn.Sigmoid()),
    lambda lib: lib.nn.Linear(4, 3)(lib.ones(2, 5)),
    lambda lib: lib.nn.Linear(4, 3)(lib.ones(5)),
    lambda lib: (lambda m: (m.eval().training, m.fc1.training, m.train().fc2.training))(
        define_net(lib)()
    ),
    lambda lib: [
        k for k, _ in define_net(lib)().requires_grad_(False).named_parameters() if _.requires_grad
    ],
]


@pytest.mark.parametrize("fn", MODULE_SNIPPETS)
def test_module_behaviour_and_errors(fn, torch):
    same_outcome(fn, torch)


# -- load_state_dict ----------------------------------------------------------------------------


def _load(lib, edit, strict=True, source_hidden=3):
    net = define_net(lib)()
    sd = dict(define_net(lib)(source_hidden).state_dict())
    edit(sd, lib)
    return net.load_state_dict(sd, strict=strict)


def _drop(*keys):
    def edit(sd, lib):
        for k in keys:
            del sd[k]

    return edit


def _add(*keys):
    def edit(sd, lib):
        for k in keys:
            sd[k] = lib.ones(1)

    return edit


def _both(sd, lib):
    _drop("fc2.bias")(sd, lib)
    _add("extra", "fc9.weight", "fc1.foo")(sd, lib)


LOAD_CASES = [
    (lambda sd, lib: None, True, 3),
    (_drop("fc2.bias"), True, 3),
    (_drop("fc2.bias", "fc1.bias"), True, 3),
    (_add("a", "b"), True, 3),
    (_both, True, 3),
    (_both, False, 3),
    (lambda sd, lib: None, True, 5),
    (lambda sd, lib: None, False, 5),
    (_drop("fc2.bias"), True, 5),
    (_drop("fc2.bias"), False, 5),
    (lambda sd, lib: sd.__setitem__("fc1.bias", [1, 2, 3]), True, 3),
    (lambda sd, lib: sd.update({k: v.double() for k, v in sd.items()}), True, 3),
]


@pytest.mark.parametrize("edit, strict, hidden", LOAD_CASES)
def test_load_state_dict_results_and_messages(edit, strict, hidden, torch):
    same_outcome(lambda lib: _load(lib, edit, strict, hidden), torch)


def test_load_state_dict_not_a_mapping(torch):
    same_outcome(lambda lib: define_net(lib)().load_state_dict([1]), torch)


def test_load_state_dict_keeps_parameters_and_versions(torch):
    def probe(lib):
        net = define_net(lib)()
        w = net.fc1.weight
        before = w._version
        net.load_state_dict(define_net(lib)().state_dict())
        return net.fc1.weight is w, w._version - before, w.requires_grad, type(w).__name__

    same_outcome(probe, torch)


# -- optimizers -----------------------------------------------------------------------------------


def _mlp(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1)
    )


def _classifier(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))


OPTIMIZERS = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.05, "momentum": 0.9}),
    ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 1e-3}),
    ("SGD", {"lr": 0.05, "momentum": 0.5, "dampening": 0.3, "maximize": False}),
    ("SGD", {"lr": 0.1, "weight_decay": 0.01}),
    ("Adam", {}),
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "betas": (0.8, 0.99), "eps": 1e-6, "amsgrad": True}),
    ("Adam", {"lr": 0.01, "weight_decay": 0.01}),
    ("Adam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("AdamW", {}),
    ("AdamW", {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True, "maximize": False}),
    ("RMSprop", {}),
    ("RMSprop", {"lr": 1e-3, "alpha": 0.9, "momentum": 0.9, "centered": True}),
    ("RMSprop", {"lr": 1e-3, "weight_decay": 0.01, "eps": 1e-6}),
    ("Adagrad", {}),
    ("Adagrad", {"lr": 0.05, "lr_decay": 0.01, "weight_decay": 0.01}),
    ("Adagrad", {"lr": 0.05, "initial_accumulator_value": 0.1, "eps": 1e-8}),
]


@pytest.mark.parametrize("task", ["regression", "classification"])
@pytest.mark.parametrize("name, settings", OPTIMIZERS)
def test_optimizer_trajectories_match(name, settings, task, torch):
    """Same initial weights, same data, same steps: the same parameters to 1e-6."""
    mg.manual_seed(1)
    rng = np.random.default_rng(2)
    if task == "regression":
        build, n_in = _mlp, 2
        x = rng.uniform(-1, 1, (100, 2)).astype(np.float32)
        y = (np.sin(2 * x[:, :1]) * x[:, 1:]).astype(np.float32)
        loss_m, loss_t = mg.nn.MSELoss(), torch.nn.MSELoss()
        ty = torch.tensor(y)
        my = mg.tensor(y)
    else:
        build, n_in = _classifier, 4
        x = rng.normal(size=(60, n_in)).astype(np.float32)
        labels = (x[:, 0] > 0).astype(np.int64) + (x[:, 1] > 0.5).astype(np.int64)
        loss_m, loss_t = mg.nn.CrossEntropyLoss(), torch.nn.CrossEntropyLoss()
        ty = torch.tensor(labels)
        my = mg.tensor(labels)
    model, tmodel = build(mg), build(torch)
    copy_into_torch(model, tmodel, torch)
    opt = getattr(mg.optim, name)(model.parameters(), **settings)
    topt = getattr(torch.optim, name)(tmodel.parameters(), **settings)
    mx, tx = mg.tensor(x), torch.tensor(x)
    for _ in range(25):
        opt.zero_grad()
        topt.zero_grad()
        loss = loss_m(model(mx), my)
        tloss = loss_t(tmodel(tx), ty)
        loss.backward()
        tloss.backward()
        opt.step()
        topt.step()
    assert abs(loss.item() - tloss.item()) < 1e-5 * max(1.0, abs(tloss.item()))
    for (key, p), tp in zip(model.state_dict().items(), tmodel.state_dict().values(), strict=True):
        np.testing.assert_allclose(p.numpy(), tp.numpy(), rtol=0, atol=1e-6, err_msg=key)
    ours, theirs = opt.state_dict(), topt.state_dict()
    assert ours["param_groups"] == theirs["param_groups"]
    assert list(ours["state"]) == list(theirs["state"])
    for k, state in ours["state"].items():
        assert list(state) == list(theirs["state"][k])
        for key, value in state.items():
            other = theirs["state"][k][key]
            assert norm(repr(value.dtype)) == norm(repr(other.dtype))
            # RMSprop's momentum_buffer sums g / avg (about 1 a step) over the steps: elements
            # that cancel to near 0 carry the float32 rounding of the largest ones
            scale = max(1.0, float(np.abs(other.numpy()).max(initial=0.0)))
            np.testing.assert_allclose(value.numpy(), other.numpy(), rtol=1e-4, atol=1e-7 * scale)


@pytest.mark.parametrize("name, settings", [OPTIMIZERS[1], OPTIMIZERS[7]])
def test_optimizer_reprs_and_state_dict_text(name, settings, torch):
    def probe(lib):
        lib.manual_seed(0)
        lin = lib.nn.Linear(2, 1)
        with lib.no_grad():
            lin.weight.copy_(lib.tensor([[0.5, -0.25]]))
            lin.bias.fill_(0.1)
        opt = getattr(lib.optim, name)(lin.parameters(), **settings)
        lin(lib.ones(3, 2)).sum().backward()
        opt.step()
        return repr(opt) + "\n" + repr(opt.state_dict())

    same_outcome(probe, torch)


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib: lib.optim.SGD(lib.nn.Linear(2, 1).parameters(), lr=-1),
        lambda lib: lib.optim.SGD(lib.nn.Linear(2, 1).parameters(), lr=0.1, momentum=-1),
        lambda lib: lib.optim.SGD(lib.nn.Linear(2, 1).parameters(), lr=0.1, nesterov=True),
        lambda lib: lib.optim.Adam(lib.nn.Linear(2, 1).parameters(), betas=(1.0, 0.9)),
        lambda lib: lib.optim.Adam(lib.nn.Linear(2, 1).parameters(), eps=-1),
        lambda lib: lib.optim.SGD([], lr=0.1),
        lambda lib: lib.optim.SGD(lib.ones(2), lr=0.1),
        lambda lib: lib.optim.SGD([1], lr=0.1),
        lambda lib: lib.optim.SGD([lib.ones(2, requires_grad=True) * 2], lr=0.1),
        lambda lib: (lambda p: lib.optim.SGD([p, p], lr=0.1).param_groups[0]["lr"])(
            lib.nn.Parameter(lib.ones(1))
        ),
        lambda lib: (lambda p: lib.optim.SGD([{"params": p}, {"params": p}], lr=0.1))(
            lib.nn.Parameter(lib.ones(1))
        ),
        lambda lib: lib.optim.SGD(lib.nn.Linear(2, 1).named_parameters(), lr=0.1).state_dict(),
        lambda lib: (
            lambda m: lib.optim.SGD(m.parameters(), lr=0.1).load_state_dict(
                lib.optim.SGD([m.weight], lr=0.1).state_dict()
            )
        )(lib.nn.Linear(2, 1)),
        lambda lib: (
            lambda m: lib.optim.SGD(m.parameters(), lr=0.1).load_state_dict(
                lib.optim.SGD([{"params": [m.weight]}, {"params": [m.bias]}], lr=0.1).state_dict()
            )
        )(lib.nn.Linear(2, 1)),
        lambda lib: lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1).add_param_group([1]),
    ],
)
def test_optimizer_messages(fn, torch):
    same_outcome(fn, torch)


def test_zero_grad_modes_match(torch):
    def probe(lib):
        lin = lib.nn.Linear(2, 1)
        opt = lib.optim.SGD(lin.parameters(), lr=0.1)
        lin(lib.ones(1, 2)).sum().backward()
        opt.zero_grad(set_to_none=False)
        kept = repr(lin.weight.grad)
        opt.zero_grad()
        return kept, lin.weight.grad, lin.bias.grad

    same_outcome(probe, torch)
