"""save/load behave as ``torch.save``/``torch.load`` do (issue 8), each checked against torch 2.13.

The same checkpoint goes through ``torch.save``/``torch.load`` and through minigrad's pair, and
what comes back is compared: types, ``requires_grad``, ``is_leaf``, dtypes, sizes, devices.
Where PyTorch's text names torch (``torch.float16``, ``torch.cuda``), minigrad's names minigrad.
"""

from __future__ import annotations

import os
from collections import OrderedDict

import numpy as np
import pytest

import minigrad

pytestmark = pytest.mark.parity


def _both(torch, tmp_path, make):
    """``make(lib)`` built in each library, saved and loaded by it: (torch's, minigrad's)."""
    torch.save(make(torch), tmp_path / "t.pt")
    minigrad.save(make(minigrad), tmp_path / "m.safetensors")
    return torch.load(tmp_path / "t.pt"), minigrad.load(tmp_path / "m.safetensors")


def _describe(value) -> object:
    """What a learner can see of a loaded value, with the library's name taken out."""
    if hasattr(value, "requires_grad"):
        return (
            type(value).__name__,
            value.requires_grad,
            value.is_leaf,
            value.grad_fn is None,
            str(value.dtype).split(".")[-1],
            tuple(value.shape),
            np.asarray(value.detach().numpy()).tolist(),
        )
    if isinstance(value, dict):
        return (type(value).__name__, {k: _describe(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_describe(v) for v in value])
    return (type(value).__name__, repr(value).replace("torch.", "").replace("minigrad.", ""))


def test_requires_grad_survives_save_and_load(torch, tmp_path):
    def make(lib):
        w = lib.ones(2, 3, requires_grad=True)
        return {"w": w, "y": w * 2, "plain": lib.zeros(2), "int": lib.arange(3)}

    theirs, ours = _both(torch, tmp_path, make)
    assert _describe(ours) == _describe(theirs)
    assert ours["w"].requires_grad and ours["y"].is_leaf and ours["y"].grad_fn is None


def test_a_parameter_loads_as_a_parameter(torch, tmp_path):
    def make(lib):
        frozen = lib.nn.Parameter(lib.ones(2), requires_grad=False)
        return {"p": lib.nn.Parameter(lib.zeros(3)), "frozen": frozen}

    theirs, ours = _both(torch, tmp_path, make)
    assert _describe(ours) == _describe(theirs)
    assert type(ours["p"]) is minigrad.nn.Parameter and ours["p"].requires_grad
    assert repr(ours["p"]) == repr(theirs["p"]).replace("torch", "minigrad")


def test_a_state_dict_with_keep_vars_keeps_its_parameters(torch, tmp_path):
    def make(lib):
        lib.manual_seed(0)
        return lib.nn.Linear(2, 3).state_dict(keep_vars=True)

    theirs, ours = _both(torch, tmp_path, make)
    assert [(k, type(v).__name__, v.requires_grad) for k, v in ours.items()] == [
        (k, type(v).__name__, v.requires_grad) for k, v in theirs.items()
    ]
    assert type(ours) is type(theirs) is OrderedDict


def test_dtypes_sizes_and_devices_inside_a_checkpoint(torch, tmp_path):
    def make(lib):
        return {
            "dtypes": [lib.float16, lib.float32, lib.float64, lib.int64, lib.bool, lib.uint8],
            "shape": lib.Size([2, 3]),
            "empty": lib.Size([]),
            "shapes": (lib.ones(4, 1).shape, lib.zeros(0).shape),
            "device": lib.device("cpu"),
        }

    theirs, ours = _both(torch, tmp_path, make)
    assert _describe(ours) == _describe(theirs)
    assert ours["dtypes"][0] is minigrad.float16
    assert repr(ours["shape"]) == "minigrad.Size([2, 3])"
    assert repr(ours["device"]) == repr(theirs["device"])


def test_a_whole_model_checkpoint_round_trips_as_in_pytorch(torch, tmp_path):
    def make(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU(), lib.nn.Linear(3, 1))
        opt = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        model(lib.ones(4, 2)).sum().backward()
        opt.step()
        return {"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 3}

    theirs, ours = _both(torch, tmp_path, make)
    assert list(ours["model"]) == list(theirs["model"])
    assert ours["optimizer"]["param_groups"][0]["params"] == [0, 1, 2, 3]
    assert set(ours["optimizer"]["state"]) == set(theirs["optimizer"]["state"])
    assert type(ours["model"]) is OrderedDict and ours["epoch"] == theirs["epoch"] == 3


@pytest.mark.parametrize(
    "where",
    ["cpu", "device('cpu')", "{'cuda:0': 'cpu'}", "lambda storage, location: storage", "None"],
)
def test_map_location_that_means_cpu_is_accepted(torch, tmp_path, where):
    torch.save({"w": torch.ones(2)}, tmp_path / "t.pt")
    minigrad.save({"w": minigrad.ones(2)}, tmp_path / "m")
    theirs = torch.load(tmp_path / "t.pt", map_location=_place(torch, where))
    ours = minigrad.load(tmp_path / "m", map_location=_place(minigrad, where))
    assert _describe(ours) == _describe(theirs)


def _place(lib, where: str):
    if where == "cpu":
        return "cpu"
    return eval(where, {"device": lib.device})  # noqa: S307 - our own constant strings


@pytest.mark.parametrize("where", ["cuda", "cuda:0"])
def test_map_location_cuda_raises_pytorchs_error(torch, tmp_path, where):
    torch.save({"w": torch.ones(2)}, tmp_path / "t.pt")
    minigrad.save({"w": minigrad.ones(2)}, tmp_path / "m")
    with pytest.raises(RuntimeError) as theirs:
        torch.load(tmp_path / "t.pt", map_location=where)
    with pytest.raises(RuntimeError) as ours:
        minigrad.load(tmp_path / "m", map_location=where)
    assert str(ours.value) == str(theirs.value).replace("torch", "minigrad")


@pytest.mark.parametrize("weights_only", [True, False, None])
def test_weights_only_is_accepted(torch, tmp_path, weights_only):
    minigrad.save({"w": minigrad.ones(2)}, tmp_path / "m")
    assert minigrad.load(tmp_path / "m", weights_only=weights_only)["w"].tolist() == [1.0, 1.0]


@pytest.mark.parametrize("relative", [False, True])
def test_saving_into_a_missing_folder_raises_pytorchs_error(torch, tmp_path, relative, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = "no/such" if relative else str(tmp_path / "no" / "such")
    with pytest.raises(RuntimeError) as theirs:
        torch.save({}, os.path.join(folder, "m.pt"))
    with pytest.raises(RuntimeError) as ours:
        minigrad.save({}, os.path.join(folder, "m.pt"))
    assert str(ours.value) == str(theirs.value) == f"Parent directory {folder} does not exist."
    assert os.listdir(tmp_path) == []


def test_saving_a_whole_module_is_refused_with_the_way_to_do_it(tmp_path):
    model = minigrad.nn.Sequential(minigrad.nn.Linear(2, 3))
    for obj, where in [(model, "obj"), ({"model": model, "epoch": 1}, "obj['model']")]:
        with pytest.raises(TypeError) as info:
            minigrad.save(obj, tmp_path / "whole.bin")
        message = str(info.value)
        assert message.startswith(f"cannot save {where}: minigrad.nn.container.Sequential is a ")
        assert "Save model.state_dict() instead: minigrad.save(model.state_dict(), path)" in message
    assert os.listdir(tmp_path) == []
    optimizer = minigrad.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(TypeError, match=r"save optimizer.state_dict\(\) instead"):
        minigrad.save({"opt": optimizer}, tmp_path / "opt.bin")


def test_the_state_dict_of_that_model_is_what_pytorch_reads(torch, tmp_path):
    storch = pytest.importorskip("safetensors.torch")
    model = minigrad.nn.Sequential(minigrad.nn.Linear(2, 3))
    minigrad.save(model.state_dict(), tmp_path / "m.safetensors")
    twin = torch.nn.Sequential(torch.nn.Linear(2, 3))
    assert str(twin.load_state_dict(storch.load_file(str(tmp_path / "m.safetensors")))) == (
        "<All keys matched successfully>"
    )
