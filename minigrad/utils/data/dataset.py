"""``Dataset``, ``TensorDataset``, ``Subset``, ``random_split`` ..., as ``torch.utils.data``.

A dataset is anything with ``__getitem__`` (and usually ``__len__``): a list of pairs will
do. ``TensorDataset(X, y)`` is the one d2l's linear regression starts with: sample ``i`` is
``(X[i], y[i])``, rows of the tensors, which the ``DataLoader`` stacks back into batches.
"""

from __future__ import annotations

import bisect
import math
import warnings
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate
from typing import Any

import numpy as np

from ..._random import default_generator
from ...tensor import Tensor

__all__ = [
    "Dataset",
    "IterableDataset",
    "ChainDataset",
    "TensorDataset",
    "ConcatDataset",
    "Subset",
    "random_split",
]


class Dataset:
    """Base class of map-style datasets: subclasses define ``__getitem__`` and ``__len__``."""

    def __getitem__(self, index: Any) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Any) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset, Iterable):
    """A stream of samples: subclasses define ``__iter__`` (a reader of lines, a generator);
    a ``DataLoader`` takes them in order and batches them, with no sampler and no shuffle.
    ``__iter__`` is abstract (``collections.abc.Iterable``'s), so the class itself cannot be
    instantiated, as PyTorch's cannot. ``stream1 + stream2`` is a ``ChainDataset``."""

    def __add__(self, other: Any) -> ChainDataset:
        return ChainDataset([self, other])


class ChainDataset(IterableDataset):
    """Streams one after the other; every part must be an ``IterableDataset``, which is
    checked as the chain reaches it (PyTorch's ``assert``), as its length asks each part's."""

    def __init__(self, datasets: Iterable[Any]) -> None:
        self.datasets = datasets

    def __iter__(self) -> Iterator[Any]:
        for d in self.datasets:
            _check_iterable(d)
            yield from d

    def __len__(self) -> int:
        total = 0
        for d in self.datasets:
            _check_iterable(d)
            total += len(d)
        return total


def _check_iterable(d: Any) -> None:
    if not isinstance(d, IterableDataset):
        raise AssertionError("ChainDataset only supports IterableDataset")


class TensorDataset(Dataset):
    """Sample ``i`` is ``tuple(t[i] for t in tensors)``; the first dims must agree."""

    def __init__(self, *tensors: Tensor) -> None:
        if any(tensors[0].size(0) != tensor.size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple[Any, ...]:
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    """Datasets one after the other (``ds1 + ds2``): index ``i`` finds its dataset by the
    running totals of their lengths."""

    def __init__(self, datasets: Iterable[Any]) -> None:
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        dataset_idx = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[dataset_idx - 1] if dataset_idx else 0
        return self.datasets[dataset_idx][idx - start]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order (what ``random_split`` gives)."""

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(
    dataset: Any,
    lengths: Sequence[int | float],
    generator: np.random.Generator | None = None,
) -> list[Subset]:
    """Split ``dataset`` at random into ``Subset``s of the given lengths, or fractions that
    sum to 1 (``[0.8, 0.2]``: each ``floor(frac * n)``, the remainder handed out one by one
    from the first split on, as PyTorch does). The permutation comes from minigrad's random
    numbers (``manual_seed``, or ``generator``: a numpy Generator), so the sizes are
    PyTorch's but which samples land where is not."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths: list[int] = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            subset_lengths.append(math.floor(len(dataset) * frac))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(
                    f"Length of split at index {i} is 0. This might result in an empty dataset.",
                    stacklevel=2,
                )
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    rng = generator if generator is not None else default_generator()
    indices = rng.permutation(int(sum(lengths))).tolist()
    return [
        Subset(dataset, indices[offset - length : offset])
        for offset, length in zip(accumulate(lengths), lengths, strict=True)
    ]
