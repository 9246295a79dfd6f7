"""minigrad: a small numpy autograd engine that behaves like PyTorch 2.x.

Replace ``torch`` with ``minigrad`` in a PyTorch snippet and it prints, computes
and fails the same way. The layers, bottom to top:

- ``_dtypes``, ``_printing``: dtypes, ``Size`` and PyTorch's print format;
- ``tensor``: the Tensor data model (storage, version counter, autograd fields);
- ``autograd``: Function/Node (how ops record themselves), the backward engine;
- ``ops``: one Function per differentiable operation;
- ``_functions``: the functional forms (``minigrad.add``, ``minigrad.sum``, ...) on
  top of the ops, bound with the operators to Tensor methods in ``_tensor_methods``
  (the one place where ops and Tensor meet);
- ``nn``, ``optim``, ``utils.data``, ``serialization``: models, optimizers, datasets and
  their batches, safe save/load.
"""

from . import _out, _tensor_methods, accelerator, autograd, cuda, linalg, nn, optim, utils
from ._dtypes import (
    Size,
    bool,
    device,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    set_default_dtype,
    uint8,
)
from ._factories import (
    arange,
    empty,
    empty_like,
    eye,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from ._functions.arithmetic import (
    abs,
    add,
    clamp,
    clip,
    cos,
    div,
    exp,
    floor_divide,
    log,
    maximum,
    minimum,
    mul,
    neg,
    pow,
    relu,
    remainder,
    rsub,
    sgn,
    sigmoid,
    sign,
    sin,
    sqrt,
    sub,
    tanh,
)
from ._functions.clamp_one_side import clamp_max, clamp_min
from ._functions.comparison import (
    allclose,
    equal,
    is_tensor,
    isclose,
    isfinite,
    isinf,
    isnan,
    isneginf,
    isposinf,
    numel,
)
from ._functions.elementwise import (
    ceil,
    cosh,
    eq,
    erf,
    erfc,
    erfinv,
    exp2,
    expm1,
    fix,
    floor,
    frac,
    ge,
    greater,
    greater_equal,
    gt,
    le,
    less,
    less_equal,
    log1p,
    log2,
    log10,
    lt,
    ne,
    not_equal,
    reciprocal,
    rsqrt,
    sinh,
    trunc,
)
from ._functions.joining import cat, concat, stack, unbind, where
from ._functions.linalg import addmm, dot, ger, matmul, mm, mv, outer
from ._functions.reduction import (
    argmax,
    argmin,
    log_softmax,
    logsumexp,
    max,
    mean,
    min,
    softmax,
    std,
    sum,
    var,
)
from ._functions.reorder import flip, roll
from ._functions.scans import amax, amin, cumprod, cumsum, norm, prod
from ._functions.selection import (
    bmm,
    chunk,
    gather,
    masked_fill,
    narrow,
    normal,
    repeat,
    round,
    split,
    square,
    tensor_split,
    tril,
    triu,
)
from ._functions.shape import (
    clone,
    flatten,
    permute,
    reshape,
    squeeze,
    t,
    transpose,
    unflatten,
    unsqueeze,
)
from ._functions.sorting import argsort, msort, sort, topk
from ._functions.two_operand import arctan2, atan2, fmod, lerp
from ._legacy import BoolTensor, ByteTensor, DoubleTensor, FloatTensor, IntTensor, LongTensor
from ._printing import get_printoptions, set_printoptions
from ._random import manual_seed, rand, rand_like, randint, randn, randn_like
from .autograd import functional as _autograd_functional  # noqa: F401 - above the ops
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .creation import as_tensor, from_numpy, tensor
from .serialization import load, save
from .tensor import Tensor

float = float32  # noqa: A001 - PyTorch's aliases
double = float64
long = int64
int = int32  # noqa: A001
half = float16

multiply = mul
subtract = sub
divide = div
true_divide = div
negative = neg

_out.install(globals())  # torch.mul(a, b, out=c): the functional forms take out= (_out.py)

__version__ = "0.1.0"
