"""``minigrad.utils.data``: datasets, samplers, collation and the DataLoader.

The parity tests run the same code with ``lib = torch`` and ``lib = minigrad`` and compare
results, printed text, errors and warnings (``same_outcome`` of tests/test_nn_parity.py);
shuffled orders are minigrad's own, so those are checked for what they promise instead.
"""

from __future__ import annotations

import importlib
from collections import namedtuple

import numpy as np
import pytest
from test_nn_parity import same_outcome

import minigrad as mg
from minigrad.utils.data import DataLoader, TensorDataset, random_split

Pair = namedtuple("Pair", "a b")


def test_both_import_forms_give_the_module():
    import minigrad.utils.data as data
    from minigrad.utils import data as same

    assert data is same is mg.utils.data
    assert importlib.import_module("minigrad.utils.data").DataLoader is DataLoader


def _stream(lib):
    """An IterableDataset class of ``lib``: ``n`` (x, x * x) pairs; ``len`` says ``reported``."""

    class Squares(lib.utils.data.IterableDataset):
        def __init__(self, n, reported=-1):
            self.n, self.reported = n, n if reported == -1 else reported

        def __iter__(self):
            return ((lib.tensor(float(i)), i * i) for i in range(self.n))

        def __len__(self):
            if self.reported is None:
                raise TypeError("Squares has no len()")
            return self.reported

        def __repr__(self):
            return f"Squares({self.n})"

    return Squares


def _dataset(lib):
    return lib.utils.data.TensorDataset(lib.arange(12.0).reshape(6, 2), lib.arange(6))


PROBES = [
    lambda lib: (len(_dataset(lib)), _dataset(lib)[1], _dataset(lib)[1:3]),
    lambda lib: (lambda dl: (len(dl), list(dl), list(dl)))(
        lib.utils.data.DataLoader(_dataset(lib))
    ),
    lambda lib: (lambda dl: (len(dl), list(dl)))(
        lib.utils.data.DataLoader(_dataset(lib), batch_size=4)
    ),
    lambda lib: (lambda dl: (len(dl), list(dl)))(
        lib.utils.data.DataLoader(_dataset(lib), batch_size=4, drop_last=True)
    ),
    lambda lib: (lambda dl: (len(dl), list(dl)))(
        lib.utils.data.DataLoader(_dataset(lib), batch_size=None)
    ),
    lambda lib: list(lib.utils.data.DataLoader([(1.0, 2), (3.0, 4)], batch_size=2)),
    lambda lib: list(
        lib.utils.data.DataLoader(
            [{"x": np.ones(2, np.float32), "s": "a"}, {"x": np.zeros(2, np.float32), "s": "b"}],
            batch_size=2,
        )
    ),
    lambda lib: list(
        lib.utils.data.DataLoader([Pair(np.float32(1), [1, 2]), Pair(2.5, [3, 4])], batch_size=2)
    ),
    lambda lib: list(lib.utils.data.DataLoader([np.int64(1), np.int64(5)], batch_size=2)),
    lambda lib: list(lib.utils.data.DataLoader([True, False, True], batch_size=2)),
    lambda lib: list(lib.utils.data.DataLoader([(np.arange(3), 1)], batch_size=None)),
    lambda lib: list(lib.utils.data.DataLoader(range(4), batch_sampler=[[0, 1], [3]])),
    lambda lib: (lambda dl: (len(dl), dl.batch_size, dl.drop_last, dl.num_workers))(
        lib.utils.data.DataLoader(range(10), batch_size=3, shuffle=True, num_workers=2)
    ),
    lambda lib: (lambda dl: (type(dl.sampler).__name__, type(dl.batch_sampler).__name__))(
        lib.utils.data.DataLoader(range(10), batch_size=3, shuffle=True)
    ),
    lambda lib: [len(s) for s in lib.utils.data.random_split(range(10), [0.33, 0.33, 0.34])],
    lambda lib: [len(s) for s in lib.utils.data.random_split(range(11), [0.5, 0.5])],
    lambda lib: [len(s) for s in lib.utils.data.random_split(range(10), [3, 7])],
    lambda lib: [len(s) for s in lib.utils.data.random_split(range(2), [0.1, 0.1, 0.8])],
    lambda lib: (lambda c: (len(c), c.cumulative_sizes, c[0], c[4], c[-1], c[-7]))(
        lib.utils.data.ConcatDataset([[1, 2, 3], _dataset(lib)[:2], range(2)])
    ),
    lambda lib: (lambda c: (type(c).__name__, len(c), c[6]))(_dataset(lib) + _dataset(lib)),
    lambda lib: (lambda dl: list(dl))(
        lib.utils.data.DataLoader(_dataset(lib) + _dataset(lib), batch_size=5)
    ),
    *[
        lambda lib, kw=kw: (lambda dl: (len(dl), list(dl), list(dl)))(
            lib.utils.data.DataLoader(_stream(lib)(7), **kw)
        )
        for kw in (
            {},
            {"batch_size": 3},
            {"batch_size": 3, "drop_last": True},
            {"batch_size": None},
        )
    ],
    lambda lib: (lambda dl: (len(dl), list(dl)))(
        lib.utils.data.DataLoader(_stream(lib)(7, reported=1), batch_size=3)
    ),
    lambda lib: list(lib.utils.data.DataLoader(_stream(lib)(7, reported=1), batch_size=3)),
    lambda lib: (lambda c: (type(c).__name__, len(c), list(c)))(_stream(lib)(2) + _stream(lib)(3)),
    lambda lib: list(lib.utils.data.DataLoader(_stream(lib)(2) + _stream(lib)(3), batch_size=2)),
    # the mistakes
    lambda lib: list(lib.utils.data.ChainDataset([_stream(lib)(2), range(3)])),
    lambda lib: len(lib.utils.data.ChainDataset([range(3)])),
    *[
        lambda lib, attr=attr: setattr(lib.utils.data.DataLoader(range(4)), attr, 2)
        for attr in ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset")
    ],
    lambda lib: (lambda dl: (setattr(dl, "collate_fn", list), next(iter(dl))))(
        lib.utils.data.DataLoader(range(4), batch_size=2)
    ),
    lambda lib: lib.utils.data.ConcatDataset([]),
    lambda lib: lib.utils.data.ConcatDataset([range(2), _stream(lib)(2)]),
    lambda lib: lib.utils.data.ConcatDataset([range(2), range(3)])[-6],
    lambda lib: lib.utils.data.ConcatDataset([range(2), range(3)])[5],
    lambda lib: lib.utils.data.DataLoader(_stream(lib)(2), shuffle=True),
    lambda lib: lib.utils.data.DataLoader(_stream(lib)(2), sampler=[0, 1]),
    lambda lib: lib.utils.data.DataLoader(_stream(lib)(2), batch_sampler=[[0, 1]]),
    lambda lib: len(lib.utils.data.DataLoader(_stream(lib)(2, reported=None))),
    lambda lib: list(lib.utils.data.IterableDataset()),
    lambda lib: lib.utils.data.TensorDataset(lib.ones(3), lib.ones(2)),
    lambda lib: lib.utils.data.DataLoader(range(3), batch_size=0),
    lambda lib: lib.utils.data.DataLoader(range(3), batch_size=2.0),
    lambda lib: lib.utils.data.DataLoader(range(3), drop_last=1),
    lambda lib: lib.utils.data.DataLoader(range(3), num_workers=-1),
    lambda lib: lib.utils.data.DataLoader(range(3), prefetch_factor=2),
    lambda lib: lib.utils.data.DataLoader(range(3), persistent_workers=True),
    lambda lib: lib.utils.data.DataLoader(range(3), timeout=-1),
    lambda lib: lib.utils.data.DataLoader(range(3), batch_size=None, drop_last=True),
    lambda lib: lib.utils.data.DataLoader(range(3), sampler=[0, 1], shuffle=True),
    lambda lib: lib.utils.data.DataLoader(range(3), batch_sampler=[[0, 1]], batch_size=2),
    lambda lib: list(lib.utils.data.DataLoader([[1, 2], [3]], batch_size=2)),
    lambda lib: list(lib.utils.data.DataLoader([1j, 2j], batch_size=2)),
    lambda lib: list(lib.utils.data.DataLoader([np.array(["a"]), np.array(["b"])], batch_size=2)),
    lambda lib: list(lib.utils.data.DataLoader([lib.ones(2), lib.ones(3)], batch_size=2)),
    lambda lib: lib.utils.data.random_split(range(10), [3, 3]),
    lambda lib: lib.utils.data.random_split(range(10), [1.5, -0.5]),
    lambda lib: lib.utils.data.Dataset()[0],
    lambda lib: lib.utils.data.RandomSampler(range(3), num_samples=0),
    lambda lib: lib.utils.data.RandomSampler(range(3), replacement=1),
]


@pytest.mark.parity
@pytest.mark.parametrize("fn", PROBES)
def test_same_as_pytorch(fn, torch):
    same_outcome(fn, torch)


def test_shuffle_visits_every_sample_once_in_a_new_order_each_pass():
    mg.manual_seed(0)
    loader = DataLoader(TensorDataset(mg.arange(100)), batch_size=32, shuffle=True)
    passes = [mg.cat([x for (x,) in loader]).tolist() for _ in range(3)]
    assert all(sorted(p) == list(range(100)) for p in passes)
    assert passes[0] != passes[1] != passes[2]
    assert [len(x) for (x,) in loader] == [32, 32, 32, 4]
    mg.manual_seed(0)
    again = [mg.cat([x for (x,) in loader]).tolist() for _ in range(3)]
    assert again == passes, "manual_seed makes the shuffled order repeat"


def test_a_generator_gives_its_own_reproducible_order():
    orders = [
        [b.tolist() for b in DataLoader(range(9), 3, shuffle=True, generator=g)]
        for g in (np.random.default_rng(5), np.random.default_rng(5))
    ]
    assert orders[0] == orders[1]
    splits = [random_split(range(9), [4, 5], np.random.default_rng(1)) for _ in range(2)]
    assert [list(s) for s in splits[0]] == [list(s) for s in splits[1]]
    assert sorted(list(splits[0][0]) + list(splits[0][1])) == list(range(9))


def test_random_sampler_with_more_samples_than_data_and_with_replacement():
    sampler = mg.utils.data.RandomSampler(range(4), num_samples=10)
    drawn = list(sampler)
    assert len(sampler) == 10 and sorted(drawn[:8]) == [0, 0, 1, 1, 2, 2, 3, 3]
    drawn = list(mg.utils.data.RandomSampler(range(4), replacement=True, num_samples=50))
    assert len(drawn) == 50 and set(drawn) <= {0, 1, 2, 3}


def test_d2l_linear_regression_trains_with_the_loader():
    """d2l's concise linear regression, with ``torch`` replaced by ``minigrad``."""
    mg.manual_seed(0)
    true_w, true_b = mg.tensor([2.0, -3.4]), 4.2
    features = mg.randn(1000, 2)
    labels = (features @ true_w + true_b + 0.01 * mg.randn(1000)).reshape(-1, 1)
    data_iter = DataLoader(TensorDataset(features, labels), batch_size=10, shuffle=True)
    net = mg.nn.Sequential(mg.nn.Linear(2, 1))
    loss = mg.nn.MSELoss()
    trainer = mg.optim.SGD(net.parameters(), lr=0.03)
    for _ in range(3):
        for X, y in data_iter:
            trainer.zero_grad()
            loss(net(X), y).backward()
            trainer.step()
    assert loss(net(features), labels).item() < 1e-3
    assert mg.allclose(net[0].weight.data, true_w.reshape(1, 2), atol=0.01)
