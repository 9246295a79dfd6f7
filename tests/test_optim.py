"""Unit tests for minigrad.optim: SGD, Adam, the Optimizer base and optimizer state_dicts.

The updates are checked against the formulas written out in numpy; trajectories
against real PyTorch are in tests/test_nn_parity.py.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn as nn
from minigrad.optim import SGD, Adam, Optimizer


def quadratic_problem(dtype=mg.float64):
    """Parameters and a loss whose gradient is known: d/dw sum((w*x - y)^2)."""
    rng = np.random.default_rng(0)
    w = nn.Parameter(mg.tensor(rng.normal(size=(3, 2)), dtype=dtype))
    b = nn.Parameter(mg.tensor(rng.normal(size=(2,)), dtype=dtype))
    x = mg.tensor(rng.normal(size=(5, 3)), dtype=dtype)
    y = mg.tensor(rng.normal(size=(5, 2)), dtype=dtype)

    def loss():
        return ((x @ w + b - y) ** 2).mean()

    def grads(wv, bv):
        r = 2 * (x.numpy() @ wv + bv - y.numpy()) / 10
        return x.numpy().T @ r, r.sum(0)

    return w, b, loss, grads


def sgd_reference(
    w0,
    b0,
    grads,
    steps,
    lr,
    momentum=0.0,
    dampening=0.0,
    weight_decay=0.0,
    nesterov=False,
    maximize=False,
):
    params = [w0.copy(), b0.copy()]
    bufs = [None, None]
    for _ in range(steps):
        gs = grads(*params)
        for i, g in enumerate(gs):
            g = -g if maximize else g
            g = g + weight_decay * params[i]
            if momentum:
                if bufs[i] is None:
                    bufs[i] = g.copy()
                else:
                    bufs[i] = momentum * bufs[i] + (1 - dampening) * g
                g = g + momentum * bufs[i] if nesterov else bufs[i]
            params[i] = params[i] - lr * g
    return params


def adam_reference(
    w0,
    b0,
    grads,
    steps,
    lr,
    betas=(0.9, 0.999),
    eps=1e-8,
    weight_decay=0.0,
    amsgrad=False,
    decoupled=False,
    maximize=False,
):
    params = [w0.copy(), b0.copy()]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    vmax = [np.zeros_like(p) for p in params]
    for t in range(1, steps + 1):
        gs = grads(*params)
        for i, g in enumerate(gs):
            g = -g if maximize else g
            if weight_decay and decoupled:
                params[i] = params[i] * (1 - lr * weight_decay)
            elif weight_decay:
                g = g + weight_decay * params[i]
            m[i] = betas[0] * m[i] + (1 - betas[0]) * g
            v[i] = betas[1] * v[i] + (1 - betas[1]) * g * g
            vmax[i] = np.maximum(vmax[i], v[i])
            vhat = (vmax[i] if amsgrad else v[i]) / (1 - betas[1] ** t)
            params[i] = params[i] - lr / (1 - betas[0] ** t) * m[i] / (np.sqrt(vhat) + eps)
    return params


def run(opt_factory, steps=10):
    w, b, loss, grads = quadratic_problem()
    w0, b0 = w.detach().numpy().copy(), b.detach().numpy().copy()
    opt = opt_factory([w, b])
    for _ in range(steps):
        opt.zero_grad()
        loss().backward()
        opt.step()
    return (w, b), (w0, b0), grads


SGD_SETTINGS = [
    {"lr": 0.1},
    {"lr": 0.05, "momentum": 0.9},
    {"lr": 0.05, "momentum": 0.9, "dampening": 0.5},
    {"lr": 0.05, "momentum": 0.9, "nesterov": True},
    {"lr": 0.1, "weight_decay": 0.01},
    {"lr": 0.05, "momentum": 0.5, "weight_decay": 0.1, "maximize": True},
]


@pytest.mark.parametrize("settings", SGD_SETTINGS)
def test_sgd_matches_the_formula(settings):
    (w, b), (w0, b0), grads = run(lambda ps: SGD(ps, **settings))
    ew, eb = sgd_reference(w0, b0, grads, 10, **settings)
    np.testing.assert_allclose(w.detach().numpy(), ew, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(b.detach().numpy(), eb, rtol=1e-12, atol=1e-12)


ADAM_SETTINGS = [
    {"lr": 0.01},
    {"lr": 0.05, "betas": (0.8, 0.99), "eps": 1e-6},
    {"lr": 0.01, "weight_decay": 0.1},
    {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True},
    {"lr": 0.01, "amsgrad": True},
    {"lr": 0.01, "maximize": True},
]


@pytest.mark.parametrize("settings", ADAM_SETTINGS)
def test_adam_matches_the_formula(settings):
    (w, b), (w0, b0), grads = run(lambda ps: Adam(ps, **settings))
    ref = dict(settings)
    ref["decoupled"] = ref.pop("decoupled_weight_decay", False)
    ew, eb = adam_reference(w0, b0, grads, 10, **ref)
    np.testing.assert_allclose(w.detach().numpy(), ew, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(b.detach().numpy(), eb, rtol=1e-10, atol=1e-12)


def test_sgd_reduces_a_loss_and_skips_parameters_without_grad():
    w, b, loss, _ = quadratic_problem(mg.float32)
    frozen = nn.Parameter(mg.ones(2))
    opt = SGD([w, b, frozen], lr=0.1, momentum=0.9)
    first = loss().item()
    for _ in range(50):
        opt.zero_grad()
        loss().backward()
        opt.step()
    assert loss().item() < 0.5 * first
    assert frozen.tolist() == [1.0, 1.0] and frozen not in opt.state
    assert w.dtype == mg.float32 and opt.state[w]["momentum_buffer"].dtype == mg.float32


def test_step_bumps_the_version_so_autograd_notices():
    lin = nn.Linear(2, 1)
    opt = SGD(lin.parameters(), lr=0.1)
    w = lin.weight
    before = w._version
    # the input requires grad, so the weight is saved for its gradient (as in PyTorch, which
    # keeps mat2 of addmm only then: with a plain data batch, the step would be no error)
    out = (lin(mg.randn(3, 2, requires_grad=True)) ** 2).sum()
    out.backward(retain_graph=True)
    opt.step()
    assert w._version == before + 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.backward()


def test_zero_grad_modes():
    w, b, loss, _ = quadratic_problem()
    opt = SGD([w, b], lr=0.1)
    loss().backward()
    grad = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is grad and not grad.numpy().any()
    opt.zero_grad()
    assert w.grad is None and b.grad is None


def test_closure_is_called_with_grad_enabled():
    w, b, loss, _ = quadratic_problem()
    opt = SGD([w, b], lr=0.1)

    def closure():
        opt.zero_grad()
        value = loss()
        value.backward()
        return value

    with mg.no_grad():
        result = opt.step(closure)
    assert result.grad_fn is not None and w.grad is not None
    assert Adam([w, b]).step(closure) is not None


def test_param_groups_and_defaults():
    lin = nn.Linear(2, 1)
    opt = SGD([{"params": [lin.weight]}, {"params": lin.bias, "lr": 0.5}], lr=0.1, momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert list(opt.param_groups[0]) == [
        "params",
        "lr",
        "momentum",
        "dampening",
        "weight_decay",
        "nesterov",
        "maximize",
        "foreach",
        "differentiable",
        "fused",
    ]
    assert opt.defaults["lr"] == 0.1 and SGD(lin.parameters()).defaults["lr"] == 1e-3
    lin(mg.ones(1, 2)).sum().backward()
    opt.step()
    assert lin.bias.item() != 0
    named = SGD(lin.named_parameters(), lr=0.1)
    assert named.param_groups[0]["param_names"] == ["weight", "bias"]
    assert named.state_dict()["param_groups"][0]["params"] == [0, 1]


def test_optimizer_repr():
    lin = nn.Linear(2, 1)
    assert repr(SGD(lin.parameters(), lr=0.1)) == (
        "SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n"
        "    foreach: None\n    fused: None\n    lr: 0.1\n    maximize: False\n"
        "    momentum: 0\n    nesterov: False\n    weight_decay: 0\n)"
    )
    assert repr(Adam(lin.parameters())).startswith(
        "Adam (\nParameter Group 0\n    amsgrad: False\n    betas: (0.9, 0.999)\n"
    )


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda p: SGD(p, lr=-1), ValueError, "Invalid learning rate: -1"),
        (lambda p: SGD(p, lr=0.1, momentum=-1), ValueError, "Invalid momentum value: -1"),
        (lambda p: SGD(p, lr=0.1, weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
        (
            lambda p: SGD(p, lr=0.1, nesterov=True),
            ValueError,
            "Nesterov momentum requires a momentum and zero dampening",
        ),
        (lambda p: Adam(p, lr=-1), ValueError, "Invalid learning rate: -1"),
        (lambda p: Adam(p, betas=(1.0, 0.9)), ValueError, "Invalid beta parameter at index 0: 1.0"),
        (lambda p: Adam(p, betas=(0.9, 1.0)), ValueError, "Invalid beta parameter at index 1: 1.0"),
        (lambda p: Adam(p, eps=-1), ValueError, "Invalid epsilon value: -1"),
        (lambda p: Adam(p, weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
        (lambda p: SGD([], lr=0.1), ValueError, "optimizer got an empty parameter list"),
        (
            lambda p: SGD(mg.ones(2), lr=0.1),
            TypeError,
            "params argument given to the optimizer should be an iterable of Tensors or dicts, but "
            "got minigrad.FloatTensor",
        ),
        (
            lambda p: SGD([1], lr=0.1),
            TypeError,
            "optimizer can only optimize Tensors, but one of the params is int",
        ),
        (
            lambda p: SGD([mg.ones(2, requires_grad=True) * 2], lr=0.1),
            ValueError,
            "can't optimize a non-leaf Tensor",
        ),
        (
            lambda p: SGD([{"params": p[0]}, {"params": p[0]}], lr=0.1),
            ValueError,
            "some parameters appear in more than one parameter group",
        ),
        (
            lambda p: SGD([{"params": {p[0]}}], lr=0.1),
            TypeError,
            "organized in ordered collections",
        ),
        (
            lambda p: SGD([("a", p[0]), p[1]], lr=0.1),
            ValueError,
            "all optimizer params should be with/without names",
        ),
    ],
)
def test_constructor_errors(make, error, message):
    params = list(nn.Linear(2, 1).parameters())
    with pytest.raises(error) as info:
        make(params)
    assert message in str(info.value)


def test_duplicate_parameters_warn():
    p = nn.Parameter(mg.ones(1))
    with pytest.warns(
        UserWarning, match="optimizer contains a parameter group with duplicate parameters"
    ):
        SGD([p, p], lr=0.1)


def test_required_defaults_and_add_param_group():
    from minigrad.optim.optimizer import required

    class NeedsLr(Optimizer):
        def __init__(self, params):
            super().__init__(params, {"lr": required})

    with pytest.raises(
        ValueError,
        match="parameter group didn't specify a value of required optimization parameter lr",
    ):
        NeedsLr([nn.Parameter(mg.ones(1))])
    opt = SGD([nn.Parameter(mg.ones(1))], lr=0.1)
    with pytest.raises(TypeError, match="param_group must be a dict, but got <class 'list'>"):
        opt.add_param_group([nn.Parameter(mg.ones(1))])
    opt.add_param_group({"params": nn.Parameter(mg.ones(1)), "momentum": 0.5})
    assert opt.param_groups[1]["momentum"] == 0.5 and opt.param_groups[1]["lr"] == 0.1


# -- state_dict ---------------------------------------------------------------------------------


def test_sgd_state_dict_structure():
    lin = nn.Linear(2, 1)
    opt = SGD(lin.parameters(), lr=0.1, momentum=0.9)
    assert opt.state_dict() == {
        "state": {},
        "param_groups": [
            {
                "lr": 0.1,
                "momentum": 0.9,
                "dampening": 0,
                "weight_decay": 0,
                "nesterov": False,
                "maximize": False,
                "foreach": None,
                "differentiable": False,
                "fused": None,
                "params": [0, 1],
            }
        ],
    }
    lin(mg.ones(3, 2)).sum().backward()
    opt.step()
    state = opt.state_dict()["state"]
    assert list(state) == [0, 1] and list(state[0]) == ["momentum_buffer"]
    assert state[0]["momentum_buffer"].tolist() == [[3.0, 3.0]]


def test_adam_state_dict_structure():
    lin = nn.Linear(2, 1)
    opt = Adam(lin.parameters())
    lin(mg.ones(3, 2)).sum().backward()
    opt.step()
    sd = opt.state_dict()
    assert list(sd["param_groups"][0]) == [
        "lr",
        "betas",
        "eps",
        "weight_decay",
        "amsgrad",
        "maximize",
        "foreach",
        "capturable",
        "differentiable",
        "fused",
        "decoupled_weight_decay",
        "params",
    ]
    assert list(sd["state"][0]) == ["step", "exp_avg", "exp_avg_sq"]
    step = sd["state"][0]["step"]
    assert repr(step) == "tensor(1.)" and step.dtype == mg.float32
    assert repr(sd["state"][1]["exp_avg"]) == "tensor([0.3000])"


@pytest.mark.parametrize(
    "make", [lambda p: SGD(p, lr=0.05, momentum=0.9), lambda p: Adam(p, lr=0.05, amsgrad=True)]
)
def test_load_state_dict_resumes_exactly(make, tmp_path):
    """Train 3 steps, save model + optimizer, resume in fresh objects: same as 6 steps."""

    def train(model, opt, steps, x, y):
        for _ in range(steps):
            opt.zero_grad()
            nn.functional.mse_loss(model(x), y).backward()
            opt.step()

    mg.manual_seed(0)
    x, y = mg.randn(8, 2), mg.randn(8, 1)
    model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
    start = model.state_dict()
    start = {k: v.clone() for k, v in start.items()}
    opt = make(model.parameters())
    train(model, opt, 3, x, y)
    path = tmp_path / "checkpoint.safetensors"
    mg.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 3}, path)
    train(model, opt, 3, x, y)

    checkpoint = mg.load(path)
    assert checkpoint["epoch"] == 3
    fresh = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
    fresh.load_state_dict(checkpoint["model"])
    fresh_opt = make(fresh.parameters())
    fresh_opt.load_state_dict(checkpoint["optimizer"])
    assert fresh_opt.state_dict()["param_groups"] == opt.state_dict()["param_groups"]
    train(fresh, fresh_opt, 3, x, y)
    for (k, a), b in zip(model.state_dict().items(), fresh.state_dict().values(), strict=True):
        assert mg.equal(a, b), k
    restarted = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
    restarted.load_state_dict(start)
    assert not mg.equal(restarted[0].weight, model[0].weight)


def test_load_state_dict_copies_and_casts_state():
    lin = nn.Linear(2, 1)
    opt = SGD(lin.parameters(), lr=0.1, momentum=0.9)
    lin(mg.ones(3, 2)).sum().backward()
    opt.step()
    sd = opt.state_dict()
    sd["state"][0]["momentum_buffer"] = sd["state"][0]["momentum_buffer"].double()
    other = SGD(lin.parameters(), lr=0.5, momentum=0.1)
    other.load_state_dict(sd)
    buf = other.state[lin.weight]["momentum_buffer"]
    assert (
        buf.dtype == mg.float32 and buf.data_ptr() != sd["state"][0]["momentum_buffer"].data_ptr()
    )
    assert other.param_groups[0]["lr"] == 0.1 and other.param_groups[0]["params"][0] is lin.weight
    sd["param_groups"][0]["lr"] = 9.0
    assert other.param_groups[0]["lr"] == 0.1  # the groups were copied, not shared


def test_load_state_dict_errors():
    lin = nn.Linear(2, 1)
    opt = SGD(lin.parameters(), lr=0.1)
    with pytest.raises(
        ValueError,
        match="loaded state dict contains a parameter group that "
        "doesn't match the size of optimizer's group",
    ):
        opt.load_state_dict(SGD([lin.weight], lr=0.1).state_dict())
    two = SGD([{"params": [lin.weight]}, {"params": [lin.bias]}], lr=0.1)
    with pytest.raises(
        ValueError, match="loaded state dict has a different number of parameter groups"
    ):
        opt.load_state_dict(two.state_dict())


def test_unsupported_modes_are_refused():
    p = [nn.Parameter(mg.ones(1))]
    with pytest.raises(NotImplementedError, match="differentiable"):
        SGD(p, lr=0.1, differentiable=True)
    with pytest.raises(NotImplementedError, match="capturable"):
        Adam(p, capturable=True)


def test_adam_step_count_and_bias_correction_on_first_step():
    p = nn.Parameter(mg.tensor([1.0, -1.0]))
    opt = Adam([p], lr=0.1)
    p.grad = mg.tensor([0.5, -2.0])
    opt.step()
    # after one step the bias-corrected moments are g and g^2: a step of lr * sign(g)
    np.testing.assert_allclose(p.detach().numpy(), [0.9, -0.9], rtol=1e-6)
    assert opt.state[p]["step"].item() == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
    assert math.isclose(opt.state[p]["step"].item(), 2.0)
