"""``minigrad.utils.data``: datasets and the loader that batches them, as ``torch.utils.data``.

A ``Dataset`` answers ``len(ds)`` and ``ds[i]``; a ``DataLoader`` walks it in (shuffled)
batches and stacks each batch's samples into tensors. The files follow PyTorch's:

- ``dataset.py``: ``Dataset``, ``IterableDataset``, ``ChainDataset``, ``TensorDataset``,
  ``ConcatDataset``, ``Subset``, ``random_split``;
- ``sampler.py``: the orders of the indices, ``SequentialSampler``, ``RandomSampler``, and
  ``BatchSampler`` that groups them;
- ``collate.py``: ``default_collate``, a list of samples into one batch;
- ``dataloader.py``: ``DataLoader``.

Pure Python and numpy: ``pip install minigrad`` needs nothing else for its data loading.
"""

from .collate import default_collate, default_convert
from .dataloader import DataLoader
from .dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = [
    "BatchSampler",
    "ChainDataset",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "Subset",
    "TensorDataset",
    "default_collate",
    "default_convert",
    "random_split",
]
