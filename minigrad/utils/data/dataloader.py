"""``DataLoader``: a dataset in (shuffled) mini-batches, as ``torch.utils.data.DataLoader``.

Each ``for batch in loader`` is one pass over the data (an epoch): the sampler gives the
order of the indices (a new permutation each pass with ``shuffle=True``), ``BatchSampler``
groups them, ``dataset[i]`` fetches each sample and ``collate_fn`` (``default_collate``)
stacks them. The arguments and their checks are PyTorch's. Everything runs in this process:
``num_workers`` is accepted and checked but no worker processes start (the batches are the
same; a learner's datasets are small). ``shuffle=True`` draws from minigrad's random numbers
(``minigrad.manual_seed``), so the order repeats from run to run but is not PyTorch's.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader"]

_FIXED = {"batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers"}


class DataLoader:
    """Batches of ``dataset``: ``batch_size`` samples each (the last one shorter unless
    ``drop_last``), in order or shuffled, stacked by ``collate_fn``; ``len(loader)`` is the
    number of batches."""

    def __init__(
        self,
        dataset: Any,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Sampler | Any = None,
        batch_sampler: Sampler | Any = None,
        num_workers: int = 0,
        collate_fn: Callable[[list[Any]], Any] | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Callable[[int], None] | None = None,
        multiprocessing_context: Any = None,
        generator: np.random.Generator | None = None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        if num_workers < 0:
            raise ValueError(
                "num_workers option should be non-negative; "
                "use num_workers=0 to disable multiprocessing."
            )
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError(
                "prefetch_factor option could only be specified in multiprocessing."
                "let num_workers > 0 to enable multiprocessing, otherwise set "
                "prefetch_factor to None."
            )
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        self.persistent_workers = persistent_workers

        self._iterable = isinstance(dataset, IterableDataset)
        self._IterableDataset_len_called: int | None = None
        if self._iterable:  # a stream has no indices: no sampler, no shuffle
            if shuffle not in {False, None}:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified shuffle option, "
                    f"but got shuffle={shuffle}"
                )
            if sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified sampler option, "
                    f"but got sampler={sampler}"
                )
            if batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified batch_sampler option, "
                    f"but got batch_sampler={batch_sampler}"
                )
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                    "sampler, and drop_last"
                )
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive "
                "with drop_last"
            )
        if sampler is None and self._iterable:
            sampler = itertools.repeat(None)  # PyTorch's _InfiniteConstantSampler
        elif sampler is None:
            if shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self._initialized = True

    def __setattr__(self, attr: str, value: Any) -> None:
        """The batching is built once from these: PyTorch refuses to change them afterwards
        (``loader.batch_size = 64`` would otherwise change nothing, silently)."""
        if attr in _FIXED and getattr(self, "_initialized", False):
            raise ValueError(
                f"{attr} attribute should not be set after {type(self).__name__} is initialized"
            )
        super().__setattr__(attr, value)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self) -> Any:
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self) -> Iterator[Any]:
        """One pass: every batch of the dataset, collated (a fresh order if shuffled)."""
        if self._iterable:  # what len(loader) reported so far, read now as PyTorch's iterator
            return self._iterate_stream(self._IterableDataset_len_called)
        return self._iterate_indices()

    def _iterate_indices(self) -> Iterator[Any]:
        if self._auto_collation:
            for indices in self.batch_sampler:
                fetch = getattr(self.dataset, "__getitems__", None)
                samples = fetch(indices) if fetch else [self.dataset[i] for i in indices]
                yield self.collate_fn(samples)
        else:
            for index in self.sampler:
                yield self.collate_fn(self.dataset[index])

    def _iterate_stream(self, reported: int | None) -> Iterator[Any]:
        """An IterableDataset's samples in order, ``batch_size`` at a time; PyTorch warns when a
        stream gives more batches than the ``len(loader)`` it ``reported``."""
        stream = iter(self.dataset)
        for yielded in itertools.count(1):
            if self._auto_collation:
                batch = list(itertools.islice(stream, self.batch_size))
                if not batch or (self.drop_last and len(batch) < self.batch_size):
                    return
                data = self.collate_fn(batch)
            else:
                try:
                    data = self.collate_fn(next(stream))
                except StopIteration:
                    return
            if reported is not None and yielded > reported:
                warnings.warn(
                    f"Length of IterableDataset {self.dataset} was reported to be {reported}"
                    f"(when accessing len(dataloader)), but {yielded} samples have been fetched. ",
                    stacklevel=2,
                )
            yield data

    def __len__(self) -> int:
        if self._iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = (
                    length // self.batch_size if self.drop_last else -(-length // self.batch_size)
                )
            return length
        return len(self._index_sampler)
