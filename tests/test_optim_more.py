"""RMSprop, AdamW and Adagrad: formulas, reprs, state_dicts, messages, and the rounding of
the in-place kernels (``minigrad/optim/_kernels.py``) against PyTorch's.

Trajectories against PyTorch on two small models are rows of ``OPTIMIZERS`` in
tests/test_nn_parity.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_nn_parity import same_outcome
from test_optim import quadratic_problem, run

import minigrad as mg
from minigrad.optim import Adagrad, AdamW, RMSprop
from minigrad.optim import _kernels as kernels


def rmsprop_reference(w0, b0, grads, steps, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0,
                      momentum=0.0, centered=False, maximize=False):  # fmt: skip
    params = [w0.copy(), b0.copy()]
    sq = [np.zeros_like(p) for p in params]
    gavg = [np.zeros_like(p) for p in params]
    buf = [np.zeros_like(p) for p in params]
    for _ in range(steps):
        for i, g in enumerate(grads(*params)):
            g = (-g if maximize else g) + weight_decay * params[i]
            sq[i] = alpha * sq[i] + (1 - alpha) * g * g
            var = sq[i]
            if centered:
                gavg[i] = alpha * gavg[i] + (1 - alpha) * g
                var = sq[i] - gavg[i] ** 2
            scaled = g / (np.sqrt(var) + eps)
            if momentum:
                buf[i] = momentum * buf[i] + scaled
                scaled = buf[i]
            params[i] = params[i] - lr * scaled
    return params


def adagrad_reference(w0, b0, grads, steps, lr=1e-2, lr_decay=0.0, weight_decay=0.0,
                      initial_accumulator_value=0.0, eps=1e-10, maximize=False):  # fmt: skip
    params = [w0.copy(), b0.copy()]
    total = [np.full_like(p, initial_accumulator_value) for p in params]
    for t in range(1, steps + 1):
        for i, g in enumerate(grads(*params)):
            g = (-g if maximize else g) + weight_decay * params[i]
            total[i] = total[i] + g * g
            clr = lr / (1 + (t - 1) * lr_decay)
            params[i] = params[i] - clr * g / (np.sqrt(total[i]) + eps)
    return params


RMSPROP_SETTINGS = [
    {},
    {"lr": 0.005, "alpha": 0.9, "eps": 1e-6},
    {"lr": 0.005, "momentum": 0.9},
    {"lr": 0.005, "centered": True},
    {"lr": 0.005, "centered": True, "momentum": 0.5, "weight_decay": 0.1, "maximize": True},
]


@pytest.mark.parametrize("settings", RMSPROP_SETTINGS)
def test_rmsprop_matches_the_formula(settings):
    (w, b), (w0, b0), grads = run(lambda ps: RMSprop(ps, **settings))
    ew, eb = rmsprop_reference(w0, b0, grads, 10, **settings)
    np.testing.assert_allclose(w.detach().numpy(), ew, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(b.detach().numpy(), eb, rtol=1e-10, atol=1e-12)


ADAGRAD_SETTINGS = [
    {},
    {"lr": 0.1, "lr_decay": 0.05},
    {"lr": 0.1, "weight_decay": 0.1, "initial_accumulator_value": 0.5, "maximize": True},
]


@pytest.mark.parametrize("settings", ADAGRAD_SETTINGS)
def test_adagrad_matches_the_formula(settings):
    (w, b), (w0, b0), grads = run(lambda ps: Adagrad(ps, **settings))
    ew, eb = adagrad_reference(w0, b0, grads, 10, **settings)
    np.testing.assert_allclose(w.detach().numpy(), ew, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(b.detach().numpy(), eb, rtol=1e-10, atol=1e-12)


def test_adamw_is_adam_with_decoupled_decay():
    (w, b), _, _ = run(lambda ps: AdamW(ps, lr=0.01))
    (w2, b2), _, _ = run(
        lambda ps: mg.optim.Adam(ps, lr=0.01, weight_decay=1e-2, decoupled_weight_decay=True)
    )
    assert np.array_equal(w.detach().numpy(), w2.detach().numpy())
    assert np.array_equal(b.detach().numpy(), b2.detach().numpy())
    opt = AdamW([w], lr=0.01)
    saved = opt.state_dict()
    saved["param_groups"][0]["decoupled_weight_decay"] = False
    opt.load_state_dict(saved)
    assert opt.param_groups[0]["decoupled_weight_decay"] is True


@pytest.mark.parametrize(
    "make",
    [
        lambda ps: RMSprop(ps, lr=0.01, momentum=0.9, centered=True),
        lambda ps: AdamW(ps, lr=0.01, amsgrad=True),
        lambda ps: Adagrad(ps, lr=0.1, lr_decay=0.01),
    ],
)
def test_state_dict_resumes_the_same_trajectory(make):
    """Ten steps straight equal five steps, save, load into a new optimizer, five more."""
    w, b, loss, _ = quadratic_problem(mg.float32)
    start = [w.detach().clone(), b.detach().clone()]
    opt = make([w, b])
    for _ in range(10):
        opt.zero_grad()
        loss().backward()
        opt.step()
    straight = [w.detach().clone(), b.detach().clone()]
    with mg.no_grad():
        w.copy_(start[0])
        b.copy_(start[1])
    opt = make([w, b])
    for _ in range(5):
        opt.zero_grad()
        loss().backward()
        opt.step()
    saved = opt.state_dict()
    opt = make([w, b])
    opt.load_state_dict(saved)
    assert opt.state[w]["step"].item() == 5
    for _ in range(5):
        opt.zero_grad()
        loss().backward()
        opt.step()
    assert mg.equal(w, straight[0]) and mg.equal(b, straight[1])


def test_adagrad_makes_its_state_at_construction_and_skips_params_without_grad():
    w = mg.nn.Parameter(mg.ones(3))
    b = mg.nn.Parameter(mg.zeros(2))
    opt = Adagrad([w, b], initial_accumulator_value=0.25)
    assert list(opt.state_dict()["state"]) == [0, 1]
    assert opt.state[b]["sum"].tolist() == [0.25, 0.25]
    (w * 2).sum().backward()
    opt.step()
    assert opt.state[w]["step"].item() == 1 and opt.state[b]["step"].item() == 0
    assert mg.equal(b, mg.zeros(2))


@pytest.mark.parametrize("opt", [RMSprop, AdamW, Adagrad])
def test_steps_bump_parameter_versions(opt):
    """autograd must notice the in-place update: a graph that saved the old value fails."""
    w = mg.nn.Parameter(mg.ones(3))
    o = opt([w], lr=0.1)
    y = (w * w).sum()
    (w * 3).sum().backward()
    o.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_unsupported_graph_options_are_named():
    w = mg.nn.Parameter(mg.ones(1))
    with pytest.raises(NotImplementedError, match="differentiable=True"):
        RMSprop([w], differentiable=True)
    with pytest.raises(NotImplementedError, match="fused=True"):
        Adagrad([w], fused=True)


# -- against PyTorch ---------------------------------------------------------------------

PROBES = [
    ("RMSprop", {}),
    ("RMSprop", {"lr": 0.1, "momentum": 0.5, "centered": True, "weight_decay": 0.1}),
    ("AdamW", {}),
    ("AdamW", {"lr": 0.1, "amsgrad": True, "maximize": True}),
    ("Adagrad", {}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.5, "initial_accumulator_value": 1.0}),
]


@pytest.mark.parity
@pytest.mark.parametrize("name, settings", PROBES)
def test_reprs_and_state_dict_text(name, settings, torch):
    def probe(lib):
        lin = lib.nn.Linear(2, 1)
        with lib.no_grad():
            lin.weight.copy_(lib.tensor([[0.5, -0.25]]))
            lin.bias.fill_(0.1)
        opt = getattr(lib.optim, name)(lin.parameters(), **settings)
        for _ in range(2):
            opt.zero_grad()
            lin(lib.ones(3, 2)).sum().backward()
            opt.step()
        return repr(opt) + "\n" + repr(opt.state_dict()) + "\n" + repr(lin.weight)

    same_outcome(probe, torch)


def _params(lib):
    return lib.nn.Linear(2, 1).parameters()


@pytest.mark.parity
@pytest.mark.parametrize(
    "fn",
    [
        lambda lib: lib.optim.RMSprop(_params(lib), lr=-1),
        lambda lib: lib.optim.RMSprop(_params(lib), eps=-1e-3, momentum=-1),
        lambda lib: lib.optim.RMSprop(_params(lib), momentum=-0.5, weight_decay=-1),
        lambda lib: lib.optim.RMSprop(_params(lib), weight_decay=-1, alpha=-1),
        lambda lib: lib.optim.RMSprop(_params(lib), alpha=-0.5),
        lambda lib: lib.optim.AdamW(_params(lib), lr=-1),
        lambda lib: lib.optim.AdamW(_params(lib), betas=(0.9, 1.0)),
        lambda lib: lib.optim.AdamW(_params(lib), weight_decay=-0.1),
        lambda lib: lib.optim.Adagrad(_params(lib), lr=-0.1),
        lambda lib: lib.optim.Adagrad(_params(lib), lr_decay=-1, weight_decay=-1),
        lambda lib: lib.optim.Adagrad(_params(lib), weight_decay=-1),
        lambda lib: lib.optim.Adagrad(_params(lib), initial_accumulator_value=-1),
        lambda lib: lib.optim.Adagrad(_params(lib), eps=-1),
        lambda lib: lib.optim.Adagrad([], lr=0.1),
        lambda lib: lib.optim.RMSprop(lib.ones(2)),
        lambda lib: lib.optim.AdamW([lib.ones(2, requires_grad=True) * 2]),
    ],
)
def test_optimizer_messages(fn, torch):
    same_outcome(fn, torch)


@pytest.mark.parity
@pytest.mark.bit_exact
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [7, 100, 1000])
def test_kernels_round_as_pytorch(dtype, n, torch):
    rng = np.random.default_rng(n)
    a, b = (rng.normal(size=n).astype(dtype) for _ in range(2))
    c = (np.abs(rng.normal(size=n)) + 0.1).astype(dtype)
    ta, tb, tc = (torch.tensor(x) for x in (a, b, c))
    cases = [
        (kernels.add_(a.copy(), b, -0.0123), ta.clone().add_(tb, alpha=-0.0123)),
        (kernels.addcmul_(a.copy(), b, c, 0.01), ta.clone().addcmul_(tb, tc, value=0.01)),
        (kernels.addcdiv_(a.copy(), b, c, -0.03), ta.clone().addcdiv_(tb, tc, value=-0.03)),
        (kernels.lerp_(a.copy(), b, 0.1), ta.clone().lerp_(tb, 0.1)),
        (kernels.lerp_(a.copy(), b, 0.9), ta.clone().lerp_(tb, 0.9)),
    ]
    for ours, theirs in cases:
        assert ours.dtype == theirs.numpy().dtype
        np.testing.assert_array_equal(ours, theirs.numpy())


BIT_EXACT = [
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.1, "momentum": 0.5, "dampening": 0.3, "maximize": True}),
    ("Adam", {}),
    ("Adam", {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True}),
    ("AdamW", {}),
    ("AdamW", {"lr": 0.01, "amsgrad": True, "maximize": True}),
    ("RMSprop", {}),
    ("RMSprop", {"lr": 1e-3, "momentum": 0.9, "centered": True, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 1e-3, "alpha": 0.3, "centered": True, "maximize": True}),
    ("Adagrad", {}),
    ("Adagrad", {"lr_decay": 0.1, "weight_decay": 0.2, "initial_accumulator_value": 0.5}),
]


@pytest.mark.parity
@pytest.mark.bit_exact
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name, settings", BIT_EXACT)
def test_thirty_steps_are_pytorchs_to_the_bit_given_its_sqrt(
    name, settings, dtype, torch, monkeypatch
):
    """The same gradients (a function of the parameters, computed in numpy) into both
    optimizers: with PyTorch's MKL square root swapped in, every bit of the parameters and
    of the state agrees after 30 steps, so every other operation is PyTorch's, in its order."""
    import minigrad.optim.adagrad
    import minigrad.optim.adam
    import minigrad.optim.rmsprop

    def torch_sqrt(a):
        return torch.sqrt(torch.from_numpy(np.ascontiguousarray(a))).numpy()

    for module in (minigrad.optim.adam, minigrad.optim.rmsprop, minigrad.optim.adagrad):
        monkeypatch.setattr(module, "sqrt", torch_sqrt)
    start = np.random.default_rng(3).normal(size=(7, 37)).astype(dtype)
    results = []
    for lib in (mg, torch):
        w = lib.tensor(start.copy(), requires_grad=True)
        opt = getattr(lib.optim, name)([w], **settings)
        for _ in range(30):
            w.grad = lib.tensor(np.sin(3 * w.detach().numpy()) + 0.1)
            opt.step()
        state = {k: v.numpy() for k, v in opt.state_dict()["state"][0].items()}
        results.append((w.detach().numpy(), state))
    (ours, our_state), (theirs, their_state) = results
    np.testing.assert_array_equal(ours, theirs)
    assert list(our_state) == list(their_state)
    for key, value in our_state.items():
        np.testing.assert_array_equal(value, their_state[key], err_msg=key)


@pytest.mark.parametrize("make", [RMSprop, AdamW, Adagrad])
def test_state_dict_saves_and_loads(make, tmp_path):
    w = mg.nn.Parameter(mg.ones(3))
    opt = make([w], lr=0.1)
    (w * w).sum().backward()
    opt.step()
    mg.save({"optimizer": opt.state_dict()}, tmp_path / "ckpt.safetensors")
    loaded = mg.load(tmp_path / "ckpt.safetensors")["optimizer"]
    again = make([w], lr=0.5)
    again.load_state_dict(loaded)
    assert again.param_groups[0]["lr"] == 0.1
    for key, value in opt.state[w].items():
        assert mg.equal(again.state[w][key], value), key
