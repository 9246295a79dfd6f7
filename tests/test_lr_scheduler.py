"""``minigrad.optim.lr_scheduler``: the learning rates, state_dicts and warnings of StepLR,
MultiStepLR, ExponentialLR, CosineAnnealingLR and LambdaLR against PyTorch's, and against
their formulas."""

from __future__ import annotations

import math
import warnings

import pytest
from test_nn_parity import outcome

import minigrad as mg
from minigrad.optim import SGD, Adam
from minigrad.optim.lr_scheduler import CosineAnnealingLR, LambdaLR, MultiStepLR, StepLR


def same_outcome(fn, torch) -> None:
    """tests/test_nn_parity.py's comparison; its ``torch.`` -> ``minigrad.`` must not reach
    the pytorch.org address that the warnings print."""
    expected = repr(outcome(fn, torch)).replace("pyminigrad.org", "pytorch.org")
    assert repr(outcome(fn, mg)) == expected


def _schedulers(lib):
    return lib.optim.lr_scheduler


MAKERS = [
    lambda lib, o: _schedulers(lib).StepLR(o, 3),
    lambda lib, o: _schedulers(lib).StepLR(o, step_size=2, gamma=0.5),
    lambda lib, o: _schedulers(lib).MultiStepLR(o, [2, 5, 5, 9], gamma=0.3),
    lambda lib, o: _schedulers(lib).ExponentialLR(o, 0.9),
    lambda lib, o: _schedulers(lib).CosineAnnealingLR(o, 5),
    lambda lib, o: _schedulers(lib).CosineAnnealingLR(o, T_max=4, eta_min=0.01),
    lambda lib, o: _schedulers(lib).LambdaLR(o, lambda e: 0.95**e),
    lambda lib, o: _schedulers(lib).LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: 0.5]),
]


def _run(lib, make, steps=12, optimizer_first=True, epoch=None):
    """Two parameter groups, ``steps`` epochs: every lr, then the state_dicts."""
    p, q = lib.nn.Parameter(lib.ones(1)), lib.nn.Parameter(lib.ones(1))
    opt = lib.optim.SGD([{"params": [p]}, {"params": [q], "lr": 0.5}], lr=0.1, momentum=0.9)
    scheduler = make(lib, opt)
    out = [scheduler.get_last_lr()]
    for _ in range(steps):
        if optimizer_first:
            opt.step()
        scheduler.step() if epoch is None else scheduler.step(epoch)
        out.append(scheduler.get_last_lr())
    return out, scheduler.state_dict(), opt.state_dict()["param_groups"]


@pytest.mark.parity
@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize(
    "how",
    [{}, {"optimizer_first": False, "steps": 3}, {"epoch": 4, "steps": 2}],
    ids=["epochs", "scheduler-first", "epoch-argument"],
)
def test_same_rates_state_and_warnings_as_pytorch(make, how, torch):
    same_outcome(lambda lib: _run(lib, make, **how), torch)


def _one_param_sgd(lib):
    return lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1)


@pytest.mark.parity
@pytest.mark.parametrize(
    "fn",
    [
        lambda lib: _schedulers(lib).StepLR(object(), 3),
        lambda lib: _schedulers(lib).StepLR(_one_param_sgd(lib), 3, last_epoch=2),
        lambda lib: _schedulers(lib).LambdaLR(_one_param_sgd(lib), [lambda e: 1, lambda e: 2]),
        lambda lib: _schedulers(lib).StepLR(_one_param_sgd(lib), 3).get_lr(),
        lambda lib: _schedulers(lib).ExponentialLR(_one_param_sgd(lib), 0.5).state_dict(),
    ],
)
def test_messages(fn, torch):
    same_outcome(fn, torch)


def test_cosine_follows_its_closed_form():
    opt = SGD([mg.nn.Parameter(mg.ones(1))], lr=1.0)
    scheduler = CosineAnnealingLR(opt, T_max=10, eta_min=0.1)
    for epoch in range(1, 25):
        opt.step()
        scheduler.step()
        expected = 0.1 + 0.9 * (1 + math.cos(math.pi * epoch / 10)) / 2
        assert scheduler.get_last_lr()[0] == pytest.approx(expected, rel=1e-12, abs=1e-12)
        assert opt.param_groups[0]["lr"] == scheduler.get_last_lr()[0]


def test_a_saved_scheduler_resumes_the_schedule():
    def fresh():
        opt = Adam([mg.nn.Parameter(mg.ones(1))], lr=0.1)
        return opt, StepLR(opt, step_size=2, gamma=0.5)

    opt, scheduler = fresh()
    for _ in range(3):
        opt.step()
        scheduler.step()
    saved_opt, saved = opt.state_dict(), scheduler.state_dict()
    opt2, scheduler2 = fresh()
    opt2.load_state_dict(saved_opt)
    scheduler2.load_state_dict(saved)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            opt.step()
            opt2.step()
            scheduler.step()
            scheduler2.step()
    assert scheduler2.get_last_lr() == scheduler.get_last_lr() == [0.1 * 0.5**3]


def test_lambda_state_dict_keeps_a_callable_objects_attributes():
    class Warmup:
        def __init__(self, steps):
            self.steps = steps

        def __call__(self, epoch):
            return min(1.0, (epoch + 1) / self.steps)

    opt = SGD([mg.nn.Parameter(mg.ones(1))], lr=1.0)
    scheduler = LambdaLR(opt, Warmup(4))
    saved = scheduler.state_dict()
    assert saved["lr_lambdas"] == [{"steps": 4}]
    other = LambdaLR(SGD([mg.nn.Parameter(mg.ones(1))], lr=1.0), Warmup(10))
    other.load_state_dict(saved)
    assert other.lr_lambdas[0].steps == 4 and "lr_lambdas" in saved


def test_scheduler_step_before_optimizer_step_warns_once():
    opt = SGD([mg.nn.Parameter(mg.ones(1))], lr=1.0)
    scheduler = StepLR(opt, 1)
    with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`"):
        scheduler.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scheduler.step()
        opt.step()


def test_a_checkpoint_file_keeps_a_multistep_schedule(tmp_path):
    def fresh():
        opt = SGD([mg.nn.Parameter(mg.ones(1))], lr=1.0)
        return opt, MultiStepLR(opt, [2, 4, 4])

    opt, scheduler = fresh()
    for _ in range(3):
        opt.step()
        scheduler.step()
    mg.save({"scheduler": scheduler.state_dict()}, tmp_path / "ckpt.safetensors")
    opt2, scheduler2 = fresh()
    scheduler2.load_state_dict(mg.load(tmp_path / "ckpt.safetensors")["scheduler"])
    assert scheduler2.milestones == scheduler.milestones
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the deprecated step(epoch), its closed form
        scheduler2.step(5)
    assert scheduler2.get_last_lr() == pytest.approx([1e-3])
