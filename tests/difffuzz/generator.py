"""Seeded random programs over minigrad's public API, checked against PyTorch as they grow.

A program starts with one or two inputs, then chains 1-8 entries of the feature table
(``table.py``), each working mostly on the latest result; then, when the result takes part in
autograd, an epilogue: ``backward()`` in one of its forms (``gradient=``, ``retain_graph``,
``autograd.grad``, hooks, ``retain_grad``) or one of the usual mistakes (backward twice, a
non-scalar output, in-place on a leaf, a saved tensor changed in place). Every result is shown,
the graph of the last one is drawn, and every leaf's ``.grad`` is shown at the end.

PyTorch is the oracle while generating: each candidate statement is run in torch at once, so
the generator knows every variable's shape and dtype and can choose dimensions, indices and
partners that fit. A statement that torch refuses is tried again with another entry, except in
a program chosen to be wrong on purpose (about one in ten), which keeps it and ends there: its
error is then compared too. The same seed and the same torch give the same program.
"""

from __future__ import annotations

import random
import re
import warnings

from . import inputs as I
from .program import Program, Ref, Stmt
from .runner import namespace
from .table import Op, available

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_SCALARS = (2, 3, -1, 0, 0.5, -2.5, 1.5, 2.0, True)
_SPECIAL_SCALARS = ("nan", "inf", "-0.0", "0.0", "1e30", "2**31", "-(2**40)")  # ints wrap
_DTYPES = ("T.float32", "T.float64", "T.int64", "T.int32", "T.bool")
_UNARY_INPLACE = (
    *("exp_", "relu_", "sigmoid_", "tanh_", "sqrt_", "abs_", "neg_", "log_", "sin_"),
    *("floor_", "ceil_", "trunc_", "frac_", "reciprocal_", "rsqrt_", "log1p_", "expm1_"),
    *("log2_", "log10_", "exp2_", "cos_", "sign_", "sgn_", "square_", "negative_", "round_"),
)


class _Retry(Exception):
    """The entry does not fit the chosen tensor: try another."""


class Builder:
    """Grows one program, running each statement in torch to learn shapes and errors."""

    def __init__(self, seed: int, torch, minigrad) -> None:
        self.rng = random.Random(seed)
        self.torch = torch
        self.minigrad = minigrad
        self.program = Program(seed)
        self.ns = namespace(torch)
        self.ns.update(show=lambda *a: None, graph=lambda *a: None)
        self.tensors: list[str] = []  # variables holding tensors, oldest first
        self.leaves: list[str] = []  # inputs that require grad
        self.counter = 0
        self.special = self.rng.random() < 0.25
        self.pending: list[Stmt] = []
        self.ops = available(minigrad)
        self.weights = [op.w for op in self.ops]

    # -- variables ------------------------------------------------------------------------------
    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def value(self, name: str):
        return self.ns[name]

    def is_tensor(self, v) -> bool:
        return isinstance(v, self.torch.Tensor)

    def kind_of(self, v) -> str:
        if v.dtype == self.torch.bool:
            return "bool"
        return "float" if v.is_floating_point() else "int"

    def new_input(self, shape=None, dtype=None, kind="any", requires_grad=None, values=None):
        """A new input variable (emitted before the statement that asked for it)."""
        rng = self.rng
        shape = I.random_shape(rng) if shape is None else tuple(shape)
        dtype = dtype or I.random_dtype(rng, kind)
        floating = dtype.startswith("float")
        if requires_grad is None:
            requires_grad = floating and rng.random() < 0.7
        view = len(shape) >= 1 and rng.random() < 0.2
        code = I.input_code(rng, shape, dtype, requires_grad, self.special, view)
        if values is not None:
            code = values
        name = "abcdefghijklmnopqrstuvwxyz"[self.counter % 26] + (
            str(self.counter // 26) if self.counter >= 26 else ""
        )
        self.counter += 1
        stmt = Stmt("input", (f"{name} = {code}",), (name,))
        self._exec(stmt.code())
        self.pending.append(stmt)
        if requires_grad:
            self.leaves.append(name)
        self.tensors.append(name)
        return name

    def _exec(self, code: str) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, self.ns)

    # -- choosing the tensor an op works on ------------------------------------------------------
    def pick(self, kind: str) -> str:
        def fits(name):
            v = self.ns.get(name)
            if not self.is_tensor(v):
                return False
            k = self.kind_of(v)
            return kind == "any" or k == kind or (kind == "num" and k != "bool")

        names = [n for n in self.tensors if fits(n)]
        if names and self.rng.random() < 0.65 and fits(self.tensors[-1]):
            return self.tensors[-1]
        if names and self.rng.random() < 0.85:
            return self.rng.choice(names)
        return self.new_input(kind=kind)

    # -- placeholders ------------------------------------------------------------------------------
    def resolve(self, key: str, x: str, out: str):
        rng = self.rng
        v = self.ns[x]
        shape, nd = tuple(v.shape), v.dim()
        if key == "out":
            return Ref(out)
        if key == "x":
            return Ref(x)
        if key in ("y", "same", "target", "prob", "cond"):
            return Ref(self.partner(key, v))
        if key in ("s", "s2"):
            if self.special and rng.random() < 0.2:
                return rng.choice(_SPECIAL_SCALARS)
            return repr(rng.choice(_SCALARS))
        if key == "sf":
            return repr(rng.choice((0.01, 0.1, 0.2)))
        if key == "p":
            return repr(rng.choice((2, 3, 0.5, 1, 0, -1, 2.0)))
        if key == "n":
            return str(rng.randint(1, 3))
        if key == "bool" or key == "kd":
            return repr(rng.random() < 0.5)
        if key in ("dim", "dim2"):
            if rng.random() < 0.03:
                return str(nd + 1)  # out of range on purpose
            return str(rng.randint(-max(nd, 1), max(nd, 1) - 1))
        if key == "dim1":
            return str(rng.randint(-nd - 1, nd))
        if key == "dims":
            if nd == 0:
                raise _Retry
            k = rng.randint(1, nd)
            return "(" + ", ".join(map(str, rng.sample(range(nd), k))) + ",)"
        if key == "perm":
            perm = list(range(nd))
            rng.shuffle(perm)
            return ", ".join(map(str, perm)) if perm else "()"
        if key == "shape":
            return self.reshape_target(shape)
        if key in ("shape_tuple", "perm_tuple"):
            inner = self.resolve(key.removesuffix("_tuple"), x, out)
            return "()" if inner == "()" else f"({inner},)"
        if key == "expand":
            target = [rng.choice((2, 3)) if d == 1 and rng.random() < 0.5 else d for d in shape]
            if rng.random() < 0.3:
                target = [2] + target
            if target and rng.random() < 0.3:
                target[rng.randrange(len(target))] = -1
            return ", ".join(map(str, target)) if target else "()"
        if key == "repeat":
            reps = [rng.randint(1, 2) for _ in range(max(nd, 1) + rng.randint(0, 1))]
            return ", ".join(map(str, reps))
        if key == "idx":
            return self.index(shape)
        if key == "rows":
            return self.rows(shape)
        if key in ("mm", "vec", "weight", "bias"):
            return Ref(self.matmul_partner(key, v))
        if key == "cls":
            return Ref(self.classes(v))
        if key == "dtype":
            return rng.choice(_DTYPES)
        if key == "fdtype":
            return rng.choice(_DTYPES[:2])
        if key == "reduction":
            return repr(rng.choice(("mean", "sum", "none")))
        if key == "unary_":
            names = [n for n in _UNARY_INPLACE if hasattr(self.minigrad.Tensor, n)]
            return rng.choice(names)
        raise KeyError(key)

    def partner(self, key: str, v) -> str:
        """A second tensor for ``v``: broadcasting with it (``y``), or of its shape."""
        rng = self.rng
        shape = list(v.shape)
        if key == "y":
            same = [
                n
                for n in self.tensors
                if self.is_tensor(self.ns.get(n)) and tuple(self.ns[n].shape) == tuple(shape)
            ]
            if same and rng.random() < 0.3:
                return rng.choice(same)
            if rng.random() < 0.5:
                shape = [1 if rng.random() < 0.3 else d for d in shape]
                shape = shape[rng.randint(0, len(shape)) :] if rng.random() < 0.3 else shape
            if rng.random() < 0.1:
                shape = [2] + shape
            dtype = None if rng.random() < 0.3 else str(v.dtype).removeprefix("torch.")
            return self.new_input(shape, dtype=dtype)
        if key == "same":
            return self.new_input(shape, dtype=str(v.dtype).removeprefix("torch."))
        if key in ("target", "prob"):
            name = self.new_input(shape, dtype=str(v.dtype).removeprefix("torch."), kind="float")
            if key == "prob":
                name2 = self.fresh("p")
                self._exec(f"{name2} = {name}.detach().sigmoid()")
                self.pending.append(
                    Stmt("input", (f"{name2} = ", Ref(name), ".detach().sigmoid()"), (name2,))
                )
                return name2
            return name
        # cond: a bool tensor that broadcasts with v
        shape = [1 if rng.random() < 0.3 else d for d in shape]
        return self.new_input(shape, dtype="bool")

    def reshape_target(self, shape: tuple) -> str:
        rng = self.rng
        n = 1
        for d in shape:
            n *= d
        dims = [d for d in shape]
        rng.shuffle(dims)
        if n > 1 and rng.random() < 0.5:
            dims = [n] if rng.random() < 0.5 else [d for d in (n // 2, 2) if n % 2 == 0] or [n]
        if dims and rng.random() < 0.4:
            dims[rng.randrange(len(dims))] = -1
        if rng.random() < 0.05:
            dims = dims + [2]  # wrong on purpose
        return ", ".join(map(str, dims)) if dims else "()"

    def index(self, shape: tuple) -> str:
        rng = self.rng
        nd = len(shape)
        if nd == 0:
            return rng.choice(("...", "None", "()", "T.tensor(True)"))
        parts = []
        for d in shape[: rng.randint(1, nd)]:
            r = rng.random()
            if d == 0 or r < 0.35:
                a, b = rng.randint(-d - 1, d), rng.choice((None, rng.randint(-d, d + 1)))
                step = rng.choice(("", "", ":2"))
                parts.append(f"{a}:{'' if b is None else b}{step}")
            elif r < 0.6:
                parts.append(str(rng.randint(-d, d - 1)))
            elif r < 0.7:
                parts.append(f"T.tensor({rng.randint(0, d - 1)})")
            elif r < 0.8:
                parts.append(repr([rng.randint(-d, d - 1) for _ in range(rng.randint(1, 3))]))
            elif r < 0.87:
                parts.append(f"T.tensor({[rng.randint(0, d - 1) for _ in range(2)]})")
            elif r < 0.93:
                parts.append(f"T.tensor({[rng.random() < 0.5 for _ in range(d)]})")
            else:
                parts.append(rng.choice(("None", "...")))
        if rng.random() < 0.03:
            parts.append("0")  # maybe one index too many
        return ", ".join(parts) if len(parts) > 1 else parts[0]

    def rows(self, shape: tuple) -> str:
        """An integer tensor of rows of dimension 0 (repeats, negatives, rarely one too far)."""
        rng = self.rng
        if not shape or shape[0] == 0:
            raise _Retry
        d = shape[0]
        high = d if rng.random() < 0.05 else d - 1
        index_shape = rng.choice(((rng.randint(1, 4),), (rng.randint(1, 3), rng.randint(1, 3))))
        values = [rng.randint(-d, high) for _ in range(_numel(list(index_shape)))]
        dtype = rng.choice(("int64", "int64", "int32"))
        return f"T.tensor(np.array({values}, dtype='{dtype}').reshape({index_shape!r}))"

    def matmul_partner(self, key: str, v) -> str:
        rng = self.rng
        shape = list(v.shape)
        k = shape[-1] if shape else 2
        dtype = str(v.dtype).removeprefix("torch.")
        if rng.random() < 0.1:
            dtype = None
        if key == "vec":
            return self.new_input([k], dtype=dtype)
        if key == "weight":
            return self.new_input([rng.randint(1, 3), k], dtype=dtype)
        if key == "bias":
            return self.new_input(rng.choice(([rng.randint(1, 3)], [1], [])), dtype=dtype)
        n = rng.randint(1, 3)
        r = rng.random()
        if len(shape) <= 1 or r < 0.5:
            other = [k, n] if r < 0.8 or not shape else [k]
        else:
            other = [k, n]
        if r > 0.7:
            other = [rng.choice((1, 2))] * rng.randint(1, 2) + other
        if len(shape) > 2 and rng.random() < 0.5:
            other = list(shape[:-2]) + [k, n]
        return self.new_input(other, dtype=dtype)

    def classes(self, v) -> str:
        shape = list(v.shape)
        if not shape:
            raise _Retry
        c = shape[1] if len(shape) >= 2 else shape[0]
        target = [shape[0]] + shape[2:] if len(shape) >= 2 else []
        values = [self.rng.randint(0, max(c - 1, 0)) for _ in range(_numel(target))]
        code = f"T.tensor(np.array({values}, dtype='int64').reshape({tuple(target)!r}))"
        return self.new_input(target, dtype="int64", requires_grad=False, values=code)

    # -- statements ------------------------------------------------------------------------------
    def instantiate(self, op: Op) -> Stmt:
        x = self.pick(op.x)
        out = self.fresh("t")
        template = op.template if "{out} =" in op.template else "{out} = " + op.template
        parts: list = []
        pos = 0
        for m in _PLACEHOLDER.finditer(template):
            parts.append(template[pos : m.start()])
            parts.append(self.resolve(m.group(1), x, out))
            pos = m.end()
        parts.append(template[pos:])
        return Stmt(op.name, tuple(p for p in parts if p != ""), (out,), primary=x)

    def add(self, stmt: Stmt) -> None:
        self.program.stmts.extend(self.pending)
        self.pending = []
        self.program.stmts.append(stmt)

    def try_statement(self, stmt: Stmt) -> bool:
        if self.traps(stmt):
            return False
        try:
            self._exec(stmt.code())
        except Exception:  # noqa: BLE001 - torch refused it
            return False
        return True

    def traps(self, stmt: Stmt) -> bool:
        """Would torch's integer division crash the process (SIGFPE: the smallest int32/int64
        divided by -1, e.g. after ``.int()`` of nan)? Such a statement is not tried."""
        if not any(k in stmt.code() for k in ("//", "%", "div", "remainder")):
            return False
        torch = self.torch
        for name in stmt.refs():
            v = self.ns.get(name)
            if self.is_tensor(v) and v.dtype in (torch.int32, torch.int64):
                if bool((v == torch.iinfo(v.dtype).min).any()):
                    return True
        return False

    def show(self, name: str) -> None:
        self.program.stmts.append(Stmt("show", ("show(", Ref(name), ")")))

    def build(self) -> Program:
        rng = self.rng
        for _ in range(rng.randint(1, 2)):
            self.new_input(kind="float" if rng.random() < 0.8 else "any")
        self.program.stmts.extend(self.pending)
        self.pending = []
        wrong = rng.random() < 0.1
        for _ in range(rng.randint(1, 8)):
            for _attempt in range(12):
                op = rng.choices(self.ops, self.weights)[0]
                mark = len(self.tensors), len(self.leaves)
                try:
                    stmt = self.instantiate(op)
                except Exception:  # noqa: BLE001 - _Retry, or torch refused to describe a value
                    self._drop_pending(mark)
                    continue
                if self.try_statement(stmt):
                    self.add(stmt)
                    out = stmt.defines[0]
                    self.show(out)
                    if self.is_tensor(self.ns.get(out)):
                        self.tensors.append(out)
                    break
                if wrong:
                    self.add(stmt)
                    return self.program
                self._drop_pending(mark)
        self.epilogue()
        return self.program

    def _drop_pending(self, mark) -> None:
        self.pending = []
        del self.tensors[mark[0] :]
        del self.leaves[mark[1] :]

    def epilogue(self) -> None:
        from .epilogue import epilogue

        try:
            epilogue(self)
        except RuntimeError:  # torch refused to describe a value: the program ends here
            self.pending = []


def _numel(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def generate(seed: int, torch, minigrad) -> Program:
    """The program of ``seed``."""
    return Builder(seed, torch, minigrad).build()
