"""dtypes and Size: the vocabulary every other module speaks.

A minigrad ``dtype`` is a thin, printable name for a numpy dtype, so that
``x.dtype`` shows ``minigrad.float32`` exactly where PyTorch shows ``torch.float32``.
The mapping to numpy is done once, here; the rest of the engine stores plain
numpy arrays and asks this module for names.
"""

from __future__ import annotations

import builtins

import numpy as np

__all__ = [
    "dtype",
    "float32",
    "float64",
    "int32",
    "int64",
    "bool",
    "Size",
    "device",
    "from_numpy_dtype",
    "to_numpy_dtype",
    "get_default_dtype",
    "set_default_dtype",
]


class dtype:  # noqa: N801 - PyTorch spells it in lower case
    """A tensor element type, printed as ``minigrad.<name>``."""

    __slots__ = ("name", "numpy", "is_floating_point", "itemsize", "legacy_name")

    def __init__(self, name: str, numpy_dtype: np.dtype, legacy_name: str) -> None:
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.is_floating_point = self.numpy.kind == "f"
        self.itemsize = self.numpy.itemsize
        self.legacy_name = legacy_name

    def __repr__(self) -> str:
        return f"minigrad.{self.name}"

    def __reduce__(self) -> str:
        return self.name


float32 = dtype("float32", np.float32, "FloatTensor")
float64 = dtype("float64", np.float64, "DoubleTensor")
float16 = dtype("float16", np.float16, "HalfTensor")
int64 = dtype("int64", np.int64, "LongTensor")
int32 = dtype("int32", np.int32, "IntTensor")
int16 = dtype("int16", np.int16, "ShortTensor")
int8 = dtype("int8", np.int8, "CharTensor")
uint8 = dtype("uint8", np.uint8, "ByteTensor")
bool = dtype("bool", np.bool_, "BoolTensor")  # noqa: A001 - PyTorch's name

_ALL = (float32, float64, float16, int64, int32, int16, int8, uint8, bool)

# The names PyTorch's messages use: legacy ("Float", "Long") and C++ ("float", "long int").
LEGACY_NAMES = {d.numpy: d.legacy_name[: -len("Tensor")] for d in _ALL}
C_NAMES = {
    float32.numpy: "float",
    float64.numpy: "double",
    float16.numpy: "c10::Half",
    int64.numpy: "long int",
    int32.numpy: "int",
    int16.numpy: "short int",
    int8.numpy: "signed char",
    uint8.numpy: "unsigned char",
    bool.numpy: "bool",
}
_BY_NUMPY = {d.numpy: d for d in _ALL}

_default = [float32]


def get_default_dtype() -> dtype:
    """The dtype Python floats become (float32, as in PyTorch)."""
    return _default[0]


def set_default_dtype(d: dtype) -> None:
    if d not in (float32, float64):
        raise TypeError("only floating-point types are supported as the default type")
    _default[0] = d


def from_numpy_dtype(np_dtype: np.dtype) -> dtype:
    """The minigrad dtype of a numpy dtype; TypeError for types minigrad cannot hold."""
    try:
        return _BY_NUMPY[np_dtype]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The only "
            "supported types are: float64, float32, float16, int64, int32, int16, int8, "
            "uint8, and bool."
        ) from None


def to_numpy_dtype(d: dtype | type | str | np.dtype | None) -> np.dtype | None:
    """Accept a minigrad dtype (or a Python/numpy type) and give the numpy dtype."""
    if d is None or isinstance(d, np.dtype):
        return d
    if isinstance(d, dtype):
        return d.numpy
    if d is builtins.float:
        return get_default_dtype().numpy
    if d is builtins.int:
        return int64.numpy
    if d is builtins.bool:
        return bool.numpy
    raise TypeError(f"dtype must be minigrad.dtype, not {type(d).__name__}")


class device:  # noqa: N801 - PyTorch spells it in lower case
    """Where a tensor lives: always ``device(type='cpu')`` in minigrad."""

    __slots__ = ("type", "index")

    def __init__(self, type: str | device, index: int | None = None) -> None:  # noqa: A002
        if isinstance(type, device):
            type, index = type.type, type.index
        name, _, number = str(type).partition(":")
        self.type = name
        self.index = int(number) if number else index

    def __repr__(self) -> str:
        index = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = device("cpu")


def check_device(d: object) -> None:
    """minigrad computes on the CPU; a CUDA device gets PyTorch's error on a machine without."""
    if d is None or str(d) == "cpu":
        return
    if str(d).partition(":")[0] == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    raise RuntimeError(f"minigrad only has the 'cpu' device, not {d!r}")


class Size(tuple):
    """The shape of a tensor: a tuple that prints as ``minigrad.Size([2, 2])``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"minigrad.Size({list(self)})"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, index):  # slicing a Size gives a Size, as in PyTorch
        result = tuple.__getitem__(self, index)
        return Size(result) if isinstance(index, slice) else result

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))


for _cls in (dtype, device, Size):  # they print as minigrad.Size, like torch.Size
    _cls.__module__ = "minigrad"


_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2}


def promote_zero_dim(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """PyTorch's rule for a 0-d tensor beside a dimensioned one (numpy has no such rule).

    A 0-d tensor does not raise the dtype of a dimensioned tensor within its category
    (bool < integer < float): ``ones(2) * tensor(2., dtype=float64)`` is float32. Of a higher
    category, its dtype wins: ``ones(2, dtype=int64) * tensor(2.)`` is float32, where numpy
    would say float64. Both operands come back in the result dtype.
    """
    zero, dims = (a, b) if a.ndim == 0 else (b, a)
    if _CATEGORY[zero.dtype.kind] <= _CATEGORY[dims.dtype.kind]:
        zero = zero.astype(dims.dtype)
    else:
        dims = dims.astype(zero.dtype)
    return (zero, dims) if a.ndim == 0 else (dims, zero)


def result_dtype(*arrays: np.ndarray) -> np.dtype:
    """PyTorch's result dtype of several tensors: ``promote_zero_dim``'s rule for any number.

    The 0-d ones count only where their category (bool < integer < float) is above that of
    every dimensioned one: ``clamp(ones(2), min=tensor(0., dtype=float64))`` is float32.
    """
    dims = [a.dtype for a in arrays if a.ndim]
    zero = [a.dtype for a in arrays if not a.ndim]
    if not dims or not zero:
        return _no_wider_float(np.result_type(*(dims or zero)), dims or zero)
    high, low = np.result_type(*zero), np.result_type(*dims)
    if _CATEGORY[high.kind] > _CATEGORY[low.kind]:
        return _no_wider_float(high, zero)
    return _no_wider_float(low, dims)


def _no_wider_float(dtype: np.dtype, given: list) -> np.dtype:
    """A float with integers is that float in PyTorch (float32 and int32: float32), where
    numpy widens it to hold every int32 (float64)."""
    floats = [d for d in given if d.kind == "f"]
    if dtype.kind == "f" and floats and dtype not in floats:
        return max(floats, key=lambda d: d.itemsize)
    return dtype


def promote_pair(a, b) -> tuple:
    """``promote_zero_dim`` where it applies (two arrays of different dtypes, exactly one
    0-d); any other pair (a Python number, equal dtypes, equal ranks) as it is."""
    if (
        type(a) is np.ndarray
        and type(b) is np.ndarray
        and a.dtype is not b.dtype
        and (a.ndim == 0) is not (b.ndim == 0)
    ):
        return promote_zero_dim(a, b)
    return a, b


def as_float(a: np.ndarray) -> np.ndarray:
    """Floating-point functions of bool or integer tensors compute in the default dtype.

    numpy would give float16 for ``exp`` of a bool or int8 array; PyTorch gives float32.
    """
    return a if a.dtype.kind == "f" else a.astype(_default[0].numpy)
