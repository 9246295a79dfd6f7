"""Unit tests for minigrad.nn: Parameter, Module, state_dict, layers, losses, init.

These run without PyTorch; the same behaviours are compared with real PyTorch in
tests/test_nn_parity.py.
"""

from __future__ import annotations

import copy
import math
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn as nn
import minigrad.nn.functional as F
from minigrad.autograd import gradcheck
from minigrad.nn import init

ACC = "minigrad::autograd::AccumulateGrad"  # name() of a leaf's node, as in PyTorch


class Net(nn.Module):
    def __init__(self, hidden: int = 3) -> None:
        super().__init__()
        self.fc1 = nn.Linear(4, hidden)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(hidden, 2)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def names(fn) -> list:
    """The node names of a graph, depth first (for structure checks)."""
    out = []
    stack = [(fn, 0)]
    while stack:
        node, depth = stack.pop()
        out.append((depth, None if node is None else node.name()))
        if node is not None:
            stack.extend((f, depth + 1) for f, _ in reversed(node.next_functions))
    return out


# -- Parameter ----------------------------------------------------------------------------------


def test_parameter_repr_and_type():
    p = nn.Parameter(mg.ones(2, 2))
    assert repr(p) == (
        "Parameter containing:\ntensor([[1., 1.],\n        [1., 1.]], requires_grad=True)"
    )
    assert str(p) == repr(p)
    assert isinstance(p, mg.Tensor) and isinstance(p, nn.Parameter)
    assert p.requires_grad and p.is_leaf and p.grad_fn is None
    frozen = nn.Parameter(mg.ones(2), requires_grad=False)
    assert repr(frozen) == "Parameter containing:\ntensor([1., 1.])"
    assert repr(nn.Parameter()) == "Parameter containing:\ntensor([], requires_grad=True)"


def test_parameter_shares_storage_and_version_with_its_tensor():
    t = mg.ones(3)
    p = nn.Parameter(t)
    t.add_(1)
    assert p._version == t._version == 1
    assert p.tolist() == [2.0, 2.0, 2.0]
    computed = mg.ones(2, requires_grad=True) * 2
    q = nn.Parameter(computed)
    assert q.is_leaf and q.grad_fn is None


def test_parameter_results_are_plain_tensors():
    p = nn.Parameter(mg.ones(2))
    for t in (p * 2, p.detach(), p.data, p.clone()):
        assert type(t) is mg.Tensor
    q = copy.deepcopy(p)
    assert type(q) is nn.Parameter and q.requires_grad and q is not p


def test_parameter_errors():
    with pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        nn.Parameter(mg.tensor([1, 2]))
    assert nn.Parameter(mg.tensor([1, 2]), requires_grad=False).dtype == mg.int64
    with pytest.raises(AttributeError, match="'list' object has no attribute 'detach'"):
        nn.Parameter([1.0, 2.0])


# -- Module: registration ---------------------------------------------------------------------


def test_attribute_assignment_registers_parameters_modules_and_buffers():
    m = Net()
    m.scale = nn.Parameter(mg.ones(1))
    m.register_buffer("running", mg.zeros(2))
    m.register_buffer("tmp", mg.ones(1), persistent=False)
    m.plain = 3
    assert list(m._parameters) == ["scale"]
    assert list(m._modules) == ["fc1", "act", "fc2"]
    assert list(m._buffers) == ["running", "tmp"]
    assert m.plain == 3 and "plain" in m.__dict__
    assert [k for k, _ in m.named_parameters()] == [
        "scale",
        "fc1.weight",
        "fc1.bias",
        "fc2.weight",
        "fc2.bias",
    ]
    assert [k for k, _ in m.named_buffers()] == ["running", "tmp"]
    assert list(m.state_dict()) == [
        "scale",
        "running",
        "fc1.weight",
        "fc1.bias",
        "fc2.weight",
        "fc2.bias",
    ]
    assert "scale" in dir(m) and "fc1" in dir(m) and "running" in dir(m)


def test_reassignment_rules():
    m = Net()
    with pytest.raises(
        TypeError,
        match=r"cannot assign 'int' as child module 'fc1' "
        r"\(minigrad.nn.Module or None expected\)",
    ):
        m.fc1 = 3
    m.w = nn.Parameter(mg.ones(1))
    with pytest.raises(TypeError, match=r"cannot assign 'minigrad.FloatTensor' as parameter 'w'"):
        m.w = mg.ones(1)
    m.register_buffer("b", mg.ones(1))
    with pytest.raises(TypeError, match=r"cannot assign 'list' as buffer 'b'"):
        m.b = [1]
    m.b = mg.zeros(2)
    assert m.b.tolist() == [0.0, 0.0]
    m.w = None
    assert m.w is None and "w" not in m.state_dict()
    m.fc2 = None
    assert "fc2.weight" not in m.state_dict() and "(fc2): None" in repr(m)
    m.fc2 = nn.Linear(3, 1)  # a module may replace a parameter or a plain attribute
    m.plain = 1
    m.plain = nn.Linear(1, 1)
    assert "plain" not in m.__dict__ and m._modules["plain"] is m.plain


def test_assigning_before_init_fails():
    class Broken(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(mg.ones(1))

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__"):
        Broken()

    class Broken2(nn.Module):
        def __init__(self):
            self.l = nn.Linear(1, 1)

    with pytest.raises(AttributeError, match=r"cannot assign module before Module.__init__"):
        Broken2()


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda m: m.register_parameter("a.b", None), KeyError, 'name can.*t contain "\\."'),
        (lambda m: m.register_parameter("", None), KeyError, "be empty string"),
        (lambda m: m.register_parameter(1, None), TypeError, "should be a string. Got int"),
        (lambda m: m.register_parameter("fc1", None), KeyError, "attribute 'fc1' already exists"),
        (
            lambda m: m.register_parameter("q", mg.ones(1)),
            TypeError,
            r"cannot assign 'minigrad.FloatTensor' object to parameter 'q'",
        ),
        (lambda m: m.register_buffer("r", [1]), TypeError, "cannot assign 'list' object to buffer"),
        (lambda m: m.add_module("a.b", None), KeyError, "got: a.b"),
        (lambda m: m.add_module("z", 3), TypeError, "int is not a Module subclass"),
    ],
)
def test_registration_errors(call, error, message):
    with pytest.raises(error, match=message):
        call(Net())


def test_non_leaf_parameter_is_refused():
    m = Net()
    p = nn.Parameter(mg.ones(1))
    p._grad_fn = (mg.ones(1, requires_grad=True) * 2).grad_fn
    with pytest.raises(ValueError, match="Cannot assign non-leaf Tensor to parameter 'p'"):
        m.register_parameter("p", p)


def test_getattr_delattr_and_missing_forward():
    m = Net()
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'nothing'"):
        m.nothing  # noqa: B018
    del m.fc1
    assert not hasattr(m, "fc1") and "fc1.weight" not in m.state_dict()
    with pytest.raises(
        NotImplementedError,
        match=r"Module \[Module\] is missing the required "
        r'"forward" function',
    ):
        nn.Module()(1)
    assert m.get_submodule("fc2") is m.fc2 and m.get_submodule("") is m
    with pytest.raises(AttributeError, match="Net has no attribute `fc1`"):
        m.get_submodule("fc1")


def test_walking_the_tree_and_shared_parameters():
    shared = nn.Linear(2, 2)
    seq = nn.Sequential(shared, nn.ReLU(), shared)
    assert len(list(seq.parameters())) == 2
    assert [k for k, _ in seq.named_parameters()] == ["0.weight", "0.bias"]
    assert len(list(seq.named_parameters(remove_duplicate=False))) == 4
    assert list(seq.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert [k for k, _ in seq.named_modules()] == ["", "0", "1"]
    assert len(list(seq.children())) == 2 and len(list(seq.modules())) == 3
    assert [k for k, _ in Net().named_children()] == ["fc1", "act", "fc2"]
    assert list(Net().parameters(recurse=False)) == []
    seen = []
    Net().apply(lambda mod: seen.append(type(mod).__name__))
    assert seen == ["Linear", "ReLU", "Linear", "Net"]


# -- Module: modes, grads, dtype ----------------------------------------------------------------


def test_train_eval_requires_grad_and_zero_grad():
    m = Net()
    assert m.training and m.fc1.training
    assert m.eval() is m and not m.training and not m.fc2.training
    assert m.train().fc1.training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        m.train(1)
    m(mg.randn(5, 4)).sum().backward()
    assert all(p.grad is not None for p in m.parameters())
    m.zero_grad(set_to_none=False)
    assert all(p.grad is not None and float(p.grad.abs().sum()) == 0.0 for p in m.parameters())
    m.zero_grad()
    assert all(p.grad is None for p in m.parameters())
    assert m.requires_grad_(False) is m
    assert not any(p.requires_grad for p in m.parameters())
    assert m(mg.randn(2, 4)).grad_fn is None


def test_to_double_and_float_keep_parameter_identity():
    m = Net()
    w = m.fc1.weight
    m.double()
    assert m.fc1.weight is w and w.dtype == mg.float64
    assert m(mg.randn(2, 4, dtype=mg.float64)).dtype == mg.float64
    m.to(mg.float32)
    assert w.dtype == mg.float32
    assert m.to("cpu") is m and m.cpu() is m
    with pytest.raises(TypeError, match="only accepts floating point"):
        m.to(mg.int64)


# -- state_dict and load_state_dict ---------------------------------------------------------------


def test_state_dict_is_an_ordered_dict_of_detached_tensors_sharing_memory():
    m = Net()
    sd = m.state_dict()
    assert type(sd) is OrderedDict
    assert list(sd) == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    params = dict(m.named_parameters())
    for key, value in sd.items():
        assert type(value) is mg.Tensor and not value.requires_grad
        assert value.data_ptr() == params[key].data_ptr()
    kept = m.state_dict(keep_vars=True)
    assert kept["fc1.weight"] is m.fc1.weight
    assert list(m.fc1.state_dict(prefix="x.")) == ["x.weight", "x.bias"]


def test_load_state_dict_copies_in_place_and_keeps_identity():
    source, target = Net(), Net()
    w = target.fc1.weight
    version = w._version
    opt = mg.optim.SGD(target.parameters(), lr=0.1)
    result = target.load_state_dict(source.state_dict())
    assert repr(result) == str(result) == "<All keys matched successfully>"
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert target.fc1.weight is w and w._version == version + 1 and w.requires_grad
    x = mg.randn(3, 4)
    assert mg.equal(target(x), source(x))
    target(x).sum().backward()
    opt.step()  # the optimizer built before loading updates the loaded parameters
    assert not mg.equal(target(x), source(x))


def test_load_state_dict_missing_and_unexpected_keys():
    m = Net()
    sd = m.state_dict()
    del sd["fc2.bias"]
    sd["extra"] = mg.ones(1)
    sd["fc9.weight"] = mg.ones(1)
    sd["fc1.foo"] = mg.ones(1)
    with pytest.raises(RuntimeError) as info:
        m.load_state_dict(sd)
    assert str(info.value) == (
        'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "fc2.bias". '
        '\n\tUnexpected key(s) in state_dict: "extra", "fc9.weight", "fc1.foo". '
    )
    result = m.load_state_dict(sd, strict=False)
    assert result == (["fc2.bias"], ["extra", "fc9.weight", "fc1.foo"])
    assert repr(result) == (
        "_IncompatibleKeys(missing_keys=['fc2.bias'], "
        "unexpected_keys=['extra', 'fc9.weight', 'fc1.foo'])"
    )


def test_size_mismatch_raises_even_when_not_strict():
    m = Net()
    bigger = Net(5).state_dict()
    before = m.fc2.bias.tolist()
    for strict in (True, False):
        with pytest.raises(RuntimeError) as info:
            m.load_state_dict(bigger, strict=strict)
        assert str(info.value) == (
            "Error(s) in loading state_dict for Net:\n\t"
            "size mismatch for fc1.weight: copying a param with shape minigrad.Size([5, 4]) from "
            "checkpoint, the shape in current model is minigrad.Size([3, 4]).\n\t"
            "size mismatch for fc1.bias: copying a param with shape minigrad.Size([5]) from "
            "checkpoint, the shape in current model is minigrad.Size([3]).\n\t"
            "size mismatch for fc2.weight: copying a param with shape minigrad.Size([2, 5]) from "
            "checkpoint, the shape in current model is minigrad.Size([2, 3])."
        )
    assert m.fc2.bias.tolist() == bigger["fc2.bias"].tolist() != before  # copied, like PyTorch
    del bigger["fc2.bias"]
    with pytest.raises(
        RuntimeError,
        match=r"^Error\(s\) in loading state_dict for Net:\n\t"
        r'Missing key\(s\) in state_dict: "fc2.bias". \n\t'
        r"size mismatch for fc1.weight",
    ):
        m.load_state_dict(bigger)


def test_load_state_dict_bad_values():
    m = Net()
    sd = m.state_dict()
    sd["fc1.bias"] = [1, 2, 3]
    with pytest.raises(
        RuntimeError,
        match=r'While copying the parameter named "fc1.bias", '
        r"expected minigrad.Tensor or Tensor-like object from "
        r"checkpoint but received <class 'list'>",
    ):
        m.load_state_dict(sd)
    with pytest.raises(TypeError, match=r"Expected state_dict to be dict-like, got <class 'list'>"):
        m.load_state_dict([1])


def test_load_state_dict_casts_dtype_and_assign_replaces():
    m = Net()
    sd = {k: v.double() + 1 for k, v in Net().state_dict().items()}
    m.load_state_dict(sd)
    assert m.fc1.weight.dtype == mg.float32
    np.testing.assert_allclose(m.fc1.weight.detach().numpy(), sd["fc1.weight"].numpy(), 1e-6)
    sd2 = Net().state_dict()
    m.load_state_dict(sd2, assign=True)
    assert type(m.fc1.weight) is nn.Parameter and m.fc1.weight.requires_grad
    assert m.fc1.weight.data_ptr() == sd2["fc1.weight"].data_ptr()


def test_buffers_round_trip_and_non_persistent_buffers_are_not_saved():
    class WithBuffers(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mean", mg.zeros(2))
            self.register_buffer("cache", mg.zeros(2), persistent=False)

    a, b = WithBuffers(), WithBuffers()
    a.mean.add_(3)
    assert list(a.state_dict()) == ["mean"]
    assert repr(b.load_state_dict(a.state_dict())) == "<All keys matched successfully>"
    assert b.mean.tolist() == [3.0, 3.0]


# -- printing ---------------------------------------------------------------------------------


def test_module_reprs():
    assert repr(Net()) == (
        "Net(\n  (fc1): Linear(in_features=4, out_features=3, bias=True)\n  (act): ReLU()\n"
        "  (fc2): Linear(in_features=3, out_features=2, bias=True)\n)"
    )
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 1)))
    assert repr(seq) == (
        "Sequential(\n  (0): Linear(in_features=2, out_features=3, bias=True)\n  (1): ReLU()\n"
        "  (2): Sequential(\n    (0): Linear(in_features=3, out_features=1, bias=True)\n  )\n)"
    )
    assert repr(nn.Sequential()) == "Sequential()"
    assert repr(nn.Linear(3, 2, bias=False)) == "Linear(in_features=3, out_features=2, bias=False)"
    assert [
        repr(m)
        for m in (
            nn.ReLU(),
            nn.ReLU(inplace=True),
            nn.Tanh(),
            nn.Sigmoid(),
            nn.Softmax(dim=1),
            nn.Softmax(),
            nn.LogSoftmax(1),
            nn.Flatten(),
            nn.MSELoss(),
            nn.L1Loss(),
            nn.CrossEntropyLoss(),
            nn.BCELoss(),
            nn.BCEWithLogitsLoss(),
            nn.NLLLoss(),
        )
    ] == [
        "ReLU()",
        "ReLU(inplace=True)",
        "Tanh()",
        "Sigmoid()",
        "Softmax(dim=1)",
        "Softmax(dim=None)",
        "LogSoftmax(dim=1)",
        "Flatten(start_dim=1, end_dim=-1)",
        "MSELoss()",
        "L1Loss()",
        "CrossEntropyLoss()",
        "BCELoss()",
        "BCEWithLogitsLoss()",
        "NLLLoss()",
    ]

    class Custom(nn.Module):
        def extra_repr(self):
            return "a=1\nb=2"

    assert repr(Custom()) == "Custom(\n  a=1\n  b=2\n)"


# -- Linear -------------------------------------------------------------------------------------


def test_linear_values_and_graph_on_a_batch():
    lin = nn.Linear(4, 3)
    x = mg.randn(5, 4)
    y = lin(x)
    expected = x.numpy() @ lin.weight.detach().numpy().T + lin.bias.detach().numpy()
    np.testing.assert_allclose(y.detach().numpy(), expected, rtol=1e-6, atol=1e-6)
    assert y.grad_fn.name() == "AddmmBackward0"
    (bias_edge, _), (x_edge, _), (t_edge, _) = y.grad_fn.next_functions
    assert bias_edge.name() == ACC and bias_edge.variable is lin.bias
    assert x_edge is None
    assert t_edge.name() == "TBackward0"
    assert t_edge.next_functions[0][0].variable is lin.weight
    y.sum().backward()
    np.testing.assert_allclose(
        lin.weight.grad.numpy(), np.tile(x.numpy().sum(0), (3, 1)), rtol=1e-5
    )
    np.testing.assert_allclose(lin.bias.grad.numpy(), [5.0, 5.0, 5.0])


@pytest.mark.parametrize(
    "shape, bias, graph",
    [
        (
            (4,),
            True,
            [
                "ViewBackward0",
                "AddmmBackward0",
                ACC,
                "ViewBackward0",
                ACC,
                "TBackward0",
                ACC,
            ],
        ),
        (
            (5, 2, 4),
            True,
            [
                "ViewBackward0",
                "AddmmBackward0",
                ACC,
                "ViewBackward0",
                ACC,
                "TBackward0",
                ACC,
            ],
        ),
        ((5, 4), False, ["MmBackward0", ACC, "TBackward0", ACC]),
        (
            (4,),
            False,
            [
                "SqueezeBackward4",
                "MmBackward0",
                "UnsqueezeBackward0",
                ACC,
                "TBackward0",
                ACC,
            ],
        ),
        (
            (5, 2, 4),
            False,
            [
                "UnsafeViewBackward0",
                "MmBackward0",
                "ViewBackward0",
                ACC,
                "TBackward0",
                ACC,
            ],
        ),
    ],
)
def test_linear_graph_for_other_ranks(shape, bias, graph):
    lin = nn.Linear(4, 3, bias=bias)
    x = mg.randn(*shape, requires_grad=True)
    y = lin(x)
    assert y.shape == shape[:-1] + (3,)
    assert [n for _, n in names(y.grad_fn)] == graph
    y.sum().backward()
    assert x.grad.shape == x.shape


def test_linear_shape_error():
    with pytest.raises(
        RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x5 and 4x3\)"
    ):
        nn.Linear(4, 3)(mg.randn(2, 5))


def test_linear_default_initialisation_bounds():
    mg.manual_seed(0)
    lin = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    w = lin.weight.detach().numpy()
    b = lin.bias.detach().numpy()
    assert w.shape == (300, 400) and w.dtype == np.float32
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.99 * bound
    assert abs(w.mean()) < 0.01 * bound and abs(w.std() - bound / math.sqrt(3)) < 0.01 * bound
    assert np.abs(b).max() <= bound and abs(b.std() - bound / math.sqrt(3)) < 0.1 * bound
    assert lin.weight._version >= 1  # initialised in place
    mg.manual_seed(0)
    again = nn.Linear(400, 300)
    assert mg.equal(again.weight, lin.weight)  # minigrad.manual_seed makes it reproducible


# -- Sequential ---------------------------------------------------------------------------------


def test_sequential_indexing_and_editing():
    seq = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 1))
    assert len(seq) == 3 and isinstance(seq[0], nn.Linear) and seq[-1] is seq[2]
    tail = seq[1:]
    assert type(tail) is nn.Sequential and list(tail._modules) == ["1", "2"]
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]
    with pytest.raises(IndexError, match="index -4 is out of range"):
        seq[-4]
    with pytest.raises(TypeError):
        seq["a"]
    assert list(seq) == [seq[0], seq[1], seq[2]]
    seq.append(nn.Sigmoid())
    del seq[1]
    assert list(seq._modules) == ["0", "1", "2"] and isinstance(seq[2], nn.Sigmoid)
    seq[0] = nn.Tanh()
    assert isinstance(seq[0], nn.Tanh)
    named = nn.Sequential(OrderedDict([("a", nn.ReLU()), ("b", nn.Tanh())]))
    assert isinstance(named.b, nn.Tanh) and named[1] is named.b
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        nn.Sequential(1)


def test_sequential_forward_chains_modules():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1), nn.Sigmoid())
    x = mg.randn(4, 2)
    expected = seq[3](seq[2](seq[1](seq[0](x))))
    assert mg.equal(seq(x), expected)


# -- activations ----------------------------------------------------------------------------------


def test_activation_values():
    x = mg.tensor([[-1.0, 0.0, 2.0], [3.0, -4.0, 0.5]])
    a = x.numpy()
    np.testing.assert_allclose(nn.ReLU()(x).numpy(), np.maximum(a, 0))
    np.testing.assert_allclose(nn.Tanh()(x).numpy(), np.tanh(a), rtol=1e-6)
    np.testing.assert_allclose(nn.Sigmoid()(x).numpy(), 1 / (1 + np.exp(-a)), rtol=1e-6)
    e = np.exp(a - a.max(1, keepdims=True))
    np.testing.assert_allclose(nn.Softmax(dim=1)(x).numpy(), e / e.sum(1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(
        nn.LogSoftmax(dim=1)(x).numpy(), np.log(e / e.sum(1, keepdims=True)), rtol=1e-5
    )
    assert nn.Flatten()(mg.ones(2, 3, 4)).shape == (2, 12)
    assert nn.Flatten(0, 1)(mg.ones(2, 3, 4)).shape == (6, 4)
    y = x.clone()
    assert nn.ReLU(inplace=True)(y) is y and y.tolist()[0] == [0.0, 0.0, 2.0]


def test_softmax_without_dim_warns_and_guesses():
    x = mg.randn(2, 3)
    with pytest.warns(
        UserWarning,
        match="Implicit dimension choice for softmax has been "
        "deprecated. Change the call to include dim=X",
    ):
        y = F.softmax(x)
    np.testing.assert_allclose(y.sum(1).numpy(), [1, 1], rtol=1e-6)
    with pytest.warns(UserWarning, match="log_softmax"):
        nn.LogSoftmax()(mg.randn(3))


# -- losses -------------------------------------------------------------------------------------


def _x64(*shape, low=-2.0, high=2.0, seed=0, requires_grad=True):
    rng = np.random.default_rng(seed)
    return mg.tensor(rng.uniform(low, high, shape), dtype=mg.float64, requires_grad=requires_grad)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_and_l1_values(reduction):
    x, t = _x64(3, 4), _x64(3, 4, seed=1, requires_grad=False)
    d = x.detach().numpy() - t.numpy()
    red = {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction]
    np.testing.assert_allclose(F.mse_loss(x, t, reduction=reduction).detach().numpy(), red(d * d))
    np.testing.assert_allclose(
        nn.L1Loss(reduction=reduction)(x, t).detach().numpy(), red(np.abs(d))
    )
    assert gradcheck(lambda a, b: F.mse_loss(a, b, reduction=reduction), (x, _x64(3, 4, seed=1)))


def test_loss_graph_names():
    x = mg.randn(3, 2, requires_grad=True)
    t = mg.randn(3, 2)
    assert names(F.mse_loss(x, t).grad_fn) == [
        (0, "MseLossBackward0"),
        (1, ACC),
        (1, None),
    ]
    assert [n for _, n in names(F.l1_loss(x, t).grad_fn)] == [
        "MeanBackward0",
        "AbsBackward0",
        "SubBackward0",
        ACC,
        None,
    ]
    assert F.l1_loss(x, t, reduction="sum").grad_fn.name() == "SumBackward0"
    logits = mg.randn(3, 4, requires_grad=True)
    ce = F.cross_entropy(logits, mg.tensor([0, 3, 1]))
    assert names(ce.grad_fn) == [
        (0, "NllLossBackward0"),
        (1, "LogSoftmaxBackward0"),
        (2, ACC),
    ]
    p = mg.sigmoid(mg.randn(3, requires_grad=True))
    bce = F.binary_cross_entropy(p, mg.tensor([0.0, 1.0, 1.0]))
    assert [n for _, n in names(bce.grad_fn)] == [
        "BinaryCrossEntropyBackward0",
        "SigmoidBackward0",
        ACC,
        None,
    ]
    bcel = F.binary_cross_entropy_with_logits(x, t)
    assert [n for _, n in names(bcel.grad_fn)] == [
        "BinaryCrossEntropyWithLogitsBackward0",
        ACC,
        None,
    ]


def test_mse_broadcasting_warns_and_expands():
    x = mg.randn(3, 1, requires_grad=True)
    with pytest.warns(
        UserWarning,
        match=r"Using a target size \(minigrad.Size\(\[3\]\)\) that is "
        r"different to the input size \(minigrad.Size\(\[3, 1\]\)\)",
    ):
        loss = F.mse_loss(x, mg.randn(3))
    assert loss.grad_fn.next_functions[0][0].name() == "ExpandBackward0"
    loss.backward()
    assert x.grad.shape == (3, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(
            RuntimeError,
            match="The size of tensor a \\(4\\) must match the size "
            "of tensor b \\(3\\) at non-singleton dimension 1",
        ):
            F.mse_loss(mg.ones(3, 4), mg.ones(3))


def test_reduction_checks():
    with pytest.raises(ValueError, match="foo is not a valid value for reduction"):
        nn.MSELoss(reduction="foo")(mg.ones(2), mg.ones(2))
    with pytest.warns(
        UserWarning,
        match="size_average and reduce args will be deprecated, "
        "please use reduction='sum' instead.",
    ):
        assert F.mse_loss(mg.ones(3), mg.ones(3) * 2, size_average=False).item() == 3.0
    with pytest.raises(NotImplementedError, match="\"mse_cpu\" not implemented for 'Long'"):
        F.mse_loss(mg.ones(3, dtype=mg.int64), mg.ones(3, dtype=mg.int64))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_values_and_grad(reduction):
    logits = _x64(5, 4)
    target = mg.tensor([0, 3, 1, 2, 3])
    a = logits.detach().numpy()
    logp = a - np.log(np.exp(a).sum(1, keepdims=True))
    picked = -logp[np.arange(5), target.numpy()]
    red = {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction]
    out = F.cross_entropy(logits, target, reduction=reduction)
    np.testing.assert_allclose(out.detach().numpy(), red(picked), rtol=1e-12)
    assert gradcheck(lambda z: F.cross_entropy(z, target, reduction=reduction), (logits,))
    w = mg.tensor([1.0, 2.0, 0.5, 3.0], dtype=mg.float64)
    weighted = F.cross_entropy(logits, target, weight=w, reduction=reduction)
    ww = w.numpy()[target.numpy()]
    expected = {
        "mean": (picked * ww).sum() / ww.sum(),
        "sum": (picked * ww).sum(),
        "none": picked * ww,
    }[reduction]
    np.testing.assert_allclose(weighted.detach().numpy(), expected, rtol=1e-12)
    assert gradcheck(lambda z: F.cross_entropy(z, target, w, reduction=reduction), (logits,))


def test_cross_entropy_ignore_index_unbatched_and_soft_targets():
    logits = _x64(3, 4)
    target = mg.tensor([0, -100, 1])
    full = F.cross_entropy(logits, target, reduction="none").detach().numpy()
    assert full[1] == 0.0
    np.testing.assert_allclose(F.cross_entropy(logits, target).item(), full[[0, 2]].mean())
    assert math.isnan(F.cross_entropy(logits, mg.tensor([-100, -100, -100])).item())
    one = F.cross_entropy(logits[0], mg.tensor(2))
    assert one.shape == () and one.grad_fn.name() == "NllLossBackward0"
    probs = mg.softmax(_x64(3, 4, seed=3, requires_grad=False), 1)
    soft = F.cross_entropy(logits, probs)
    a = logits.detach().numpy()
    logp = a - np.log(np.exp(a).sum(1, keepdims=True))
    np.testing.assert_allclose(soft.item(), -(logp * probs.numpy()).sum() / 3)
    assert [n for _, n in names(soft.grad_fn)] == [
        "DivBackward1",
        "NegBackward0",
        "SumBackward0",
        "MulBackward0",
        "LogSoftmaxBackward0",
        ACC,
        None,
    ]
    assert gradcheck(lambda z: F.cross_entropy(z, probs), (logits,))
    assert F.cross_entropy(logits, probs, reduction="none").grad_fn.name() == "NegBackward0"


def test_cross_entropy_on_images():
    logits = _x64(2, 4, 5, 3)
    target = mg.randint(0, 4, (2, 5, 3))
    out = F.cross_entropy(logits, target)
    assert out.grad_fn.name() == "NllLoss2DBackward0"
    a = np.moveaxis(logits.detach().numpy(), 1, -1)
    logp = a - np.log(np.exp(a).sum(-1, keepdims=True))
    picked = -np.take_along_axis(logp, target.numpy()[..., None], -1)[..., 0]
    np.testing.assert_allclose(out.item(), picked.mean())
    assert gradcheck(lambda z: F.cross_entropy(z, target), (logits,))
    seq = _x64(2, 4, 5)
    per_item = F.cross_entropy(seq, mg.randint(0, 4, (2, 5)), reduction="none")
    assert per_item.shape == (2, 5) and per_item.grad_fn.name() == "ViewBackward0"


def test_cross_entropy_errors():
    x = mg.randn(3, 4)
    with pytest.raises(IndexError, match="Target 5 is out of bounds."):
        F.cross_entropy(x, mg.tensor([0, 5, 1]))
    with pytest.raises(IndexError, match="Target -1 is out of bounds."):
        F.nll_loss(x, mg.tensor([0, -1, 1]))
    with pytest.raises(
        RuntimeError, match="expected target dtype to be Long or Byte, but got Float"
    ):
        F.cross_entropy(x, mg.tensor([0.0, 2.0, 1.0]))
    with pytest.raises(
        ValueError,
        match=r"Expected input batch_size \(3\) to match target "
        r"batch_size \(2\).",
    ):
        F.cross_entropy(x, mg.tensor([0, 2]))
    with pytest.raises(
        RuntimeError, match="0D or 1D target tensor expected, multi-target not supported"
    ):
        F.cross_entropy(x, mg.randn(3, 5))
    with pytest.raises(
        RuntimeError,
        match="weight tensor should be defined either for all 4 "
        r"classes or no classes but got weight tensor of "
        r"shape: \[3\]",
    ):
        F.cross_entropy(x, mg.tensor([1, 2, 3]), weight=mg.ones(3))
    with pytest.raises(NotImplementedError, match="label_smoothing"):
        F.cross_entropy(x, mg.tensor([1, 2, 3]), label_smoothing=0.1)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_bce_values_and_grads(reduction):
    p = _x64(6, low=0.05, high=0.95)
    t = _x64(6, low=0.0, high=1.0, seed=1)
    a, b = p.detach().numpy(), t.detach().numpy()
    red = {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction]
    expected = -(b * np.log(a) + (1 - b) * np.log(1 - a))
    np.testing.assert_allclose(
        F.binary_cross_entropy(p, t, reduction=reduction).detach().numpy(), red(expected)
    )
    assert gradcheck(lambda u, v: F.binary_cross_entropy(u, v, reduction=reduction), (p, t))
    w = _x64(6, low=0.5, high=2.0, seed=2, requires_grad=False)
    assert gradcheck(lambda u, v: F.binary_cross_entropy(u, v, w, reduction=reduction), (p, t))
    z = _x64(6, low=-30, high=30)
    sig = 1 / (1 + np.exp(-z.detach().numpy()))
    logits_expected = -(b * np.log(sig) + (1 - b) * np.log1p(-sig))
    np.testing.assert_allclose(
        F.binary_cross_entropy_with_logits(z, t, reduction=reduction).detach().numpy(),
        red(logits_expected),
        rtol=1e-6,
    )
    pw = _x64(6, low=0.5, high=3.0, seed=4, requires_grad=False)
    zs = _x64(6, low=-3, high=3, seed=5)
    for kwargs in ({}, {"weight": w}, {"pos_weight": pw}, {"weight": w, "pos_weight": pw}):
        assert gradcheck(
            lambda u, v, kw=kwargs: F.binary_cross_entropy_with_logits(
                u, v, reduction=reduction, **kw
            ),
            (zs, t),
        )


def test_bce_clamps_logs_and_checks_inputs():
    assert F.binary_cross_entropy(mg.tensor([0.0, 1.0]), mg.tensor([1.0, 0.0])).item() == 100.0
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(mg.tensor([1.5]), mg.tensor([1.0]))
    with pytest.raises(
        ValueError,
        match=r"Using a target size \(minigrad.Size\(\[3\]\)\) that is "
        r"different to the input size \(minigrad.Size\(\[3, 1\]\)\)"
        r" is deprecated",
    ):
        F.binary_cross_entropy(mg.rand(3, 1), mg.rand(3))
    with pytest.raises(
        ValueError,
        match=r"Target size \(minigrad.Size\(\[3\]\)\) must be the same "
        r"as input size \(minigrad.Size\(\[3, 1\]\)\)",
    ):
        F.binary_cross_entropy_with_logits(mg.rand(3, 1), mg.rand(3))
    with pytest.raises(RuntimeError, match="Found dtype Long but expected Float"):
        F.binary_cross_entropy(mg.rand(3), mg.ones(3, dtype=mg.int64))
    big = F.binary_cross_entropy_with_logits(
        mg.tensor([100.0, -100.0]), mg.tensor([0.0, 1.0]), reduction="none"
    )
    assert big.tolist() == [100.0, 100.0]


def test_loss_modules_keep_weights_as_buffers():
    w = mg.ones(3)
    assert list(nn.CrossEntropyLoss(weight=w).state_dict()) == ["weight"]
    assert list(nn.BCEWithLogitsLoss(pos_weight=w).state_dict()) == ["pos_weight"]
    assert list(nn.MSELoss().state_dict()) == []
    loss = nn.CrossEntropyLoss(reduction="sum", ignore_index=1)
    x = mg.randn(3, 4)
    t = mg.tensor([0, 1, 2])
    assert loss(x, t).item() == F.cross_entropy(x, t, reduction="sum", ignore_index=1).item()
    assert nn.NLLLoss()(mg.log_softmax(x, 1), t).item() == F.cross_entropy(x, t).item()


def test_loss_refuses_in_place_change_of_saved_input():
    x = mg.randn(3, requires_grad=True)
    y = x * 1
    loss = F.mse_loss(y, mg.zeros(3))
    with mg.no_grad():
        y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


# -- init ---------------------------------------------------------------------------------------


def test_calculate_gain():
    assert init.calculate_gain("linear") == 1 and init.calculate_gain("sigmoid") == 1
    assert init.calculate_gain("tanh") == 5.0 / 3
    assert init.calculate_gain("relu") == math.sqrt(2.0)
    assert init.calculate_gain("leaky_relu") == math.sqrt(2.0 / (1 + 0.01**2))
    assert init.calculate_gain("leaky_relu", math.sqrt(5)) == math.sqrt(2.0 / 6)
    assert init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        init.calculate_gain("foo")
    with pytest.raises(ValueError, match="negative_slope True not a valid number"):
        init.calculate_gain("leaky_relu", True)


@pytest.mark.parametrize(
    "fill, std, bound",
    [
        (lambda t: init.uniform_(t, -2.0, 3.0), 5 / math.sqrt(12), (-2.0, 3.0)),
        (lambda t: init.normal_(t, 1.0, 0.5), 0.5, None),
        (lambda t: init.xavier_uniform_(t), math.sqrt(2 / 500), math.sqrt(6 / 500)),
        (lambda t: init.xavier_normal_(t, gain=2.0), 2 * math.sqrt(2 / 500), None),
        (
            lambda t: init.kaiming_uniform_(t, nonlinearity="relu"),
            math.sqrt(2 / 200),
            math.sqrt(6 / 200),
        ),
        (
            lambda t: init.kaiming_normal_(t, mode="fan_out", nonlinearity="relu"),
            math.sqrt(2 / 300),
            None,
        ),
        (
            lambda t: init.kaiming_uniform_(t, a=math.sqrt(5)),
            1 / math.sqrt(3 * 200),
            1 / math.sqrt(200),
        ),
    ],
)
def test_init_statistics(fill, std, bound):
    mg.manual_seed(1)
    t = mg.empty(300, 200)
    assert fill(t) is t and t._version == 1
    a = t.numpy()
    assert abs(a.std() - std) < 0.02 * std
    if bound is not None:
        lo, hi = (-bound, bound) if isinstance(bound, float) else bound
        assert lo <= a.min() < lo + 0.01 * (hi - lo) and hi - 0.01 * (hi - lo) < a.max() <= hi


def test_init_constants_and_errors():
    t = mg.empty(3, 3)
    assert init.zeros_(t).tolist() == [[0.0] * 3] * 3
    assert init.ones_(t).tolist() == [[1.0] * 3] * 3
    assert init.constant_(t, 2.5).tolist() == [[2.5] * 3] * 3
    assert init.eye_(t).tolist() == np.eye(3).tolist()
    p = nn.Parameter(mg.empty(2, 2))
    init.zeros_(p)  # in place on a parameter that requires grad: allowed, as under no_grad
    assert p.requires_grad and p.grad_fn is None
    with pytest.raises(
        ValueError,
        match="Fan in and fan out can not be computed for tensor with fewer than 2 dimensions",
    ):
        init.xavier_uniform_(mg.empty(3))
    with pytest.raises(
        ValueError,
        match=r"Mode fan_mid not supported, please use one of "
        r"\['fan_in', 'fan_out'\]",
    ):
        init.kaiming_uniform_(mg.empty(3, 3), mode="fan_mid")
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.eye_(mg.empty(3))
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        init.kaiming_uniform_(mg.empty(0, 3))


def test_init_uses_minigrad_generator():
    mg.manual_seed(7)
    a = init.normal_(mg.empty(5)).tolist()
    mg.manual_seed(7)
    assert init.normal_(mg.empty(5)).tolist() == a
    g = np.random.default_rng(3)
    b = init.uniform_(mg.empty(5), generator=g).tolist()
    assert b == init.uniform_(mg.empty(5), generator=np.random.default_rng(3)).tolist()
