"""How a program ends: its graph, a backward pass in one of its forms (or a usual mistake),
then every leaf's ``.grad``. The ``create_graph_*`` endings differentiate a gradient again, so
that the graphs of gradients, their values and their errors are compared too.

Each entry of ``ENDINGS`` is code over ``{r}`` (the latest result that requires grad),
``{leaf}`` (a leaf that requires grad), ``{leaves}`` (all of them) and ``{g}`` (a gradient of
``{r}``'s shape); the wrong ones are there so that errors are compared too.
"""

from __future__ import annotations

from .program import Ref, Stmt

_HOOK_EVERY_LEAF = (
    "for _i, _x in enumerate([{leaves}]):\n"
    "    _x.register_hook(lambda g, _i=_i: show(('hook', _i)))"
)

ENDINGS: dict[str, tuple[str, float]] = {
    "backward": ("{rs}.backward()", 6),
    "gradient": ("{r}.backward(gradient={g})", 2),
    "gradient_kw": ("{r}.backward({g}, retain_graph=True)\n{r}.backward({g})", 1),
    "retain_graph": ("_l = {r}.sum()\n_l.backward(retain_graph=True)\n_l.backward()", 2),
    "autograd_grad": (
        "_g = T.autograd.grad({r}.sum(), [{leaves}], allow_unused=True)\nshow(_g)",
        2,
    ),
    "autograd_grad_retain": (
        "_g = T.autograd.grad([{r}.sum()], {leaf}, retain_graph=True)\nshow(_g)\n{rs}.backward()",
        1,
    ),
    "autograd_backward": ("T.autograd.backward([{r}.sum()])", 1),
    "hook_leaf": ("_h = {leaf}.register_hook(lambda g: g * 3)\n{rs}.backward()", 1),
    "hook_removed": ("_h = {leaf}.register_hook(lambda g: g * 3)\n_h.remove()\n{rs}.backward()", 1),
    "hook_result": ("_h = {r}.register_hook(lambda g: g + 1)\n{rs}.backward()", 1),
    # the order of the leaves' hooks: leaves ready together run in the order of PyTorch's
    # heap (minigrad/autograd/ready_order.py), in each of the engine's walks
    "hooks_all_leaves": (f"{_HOOK_EVERY_LEAF}\n{{rs}}.backward()", 1.5),
    "hooks_all_leaves_grad": (
        f"{_HOOK_EVERY_LEAF}\nshow(T.autograd.grad({{rs}}, [{{leaves}}], allow_unused=True))",
        0.7,
    ),
    "hooks_all_leaves_create_graph": (
        f"{_HOOK_EVERY_LEAF}\n{{rs}}.backward(create_graph=True)",
        0.7,
    ),
    "retain_grad": ("{r}.retain_grad()\n{rs}.backward()\nshow({r}.grad)", 1),
    "detach": ("_d = {r}.detach()\nshow(_d)\n{rs}.backward()", 1),
    "no_grad_result": ("with T.no_grad():\n    _n = {r} * 2\nshow(_n)", 1),
    "accumulate": ("({leaf} * 2).sum().backward()\n({leaf} * 3).sum().backward()", 1),
    "zero_between": ("{rs}.backward(retain_graph=True)\n{leaf}.grad = None\n{rs}.backward()", 1),
    # gradients of gradients: the graph of a gradient taken with create_graph=True, then a
    # second (or third) pass through it, and the gradient with respect to grad_outputs
    "create_graph_grad": (
        "(_g,) = T.autograd.grad({rs}, {leaf}, create_graph=True)\nshow(_g)\ngraph(_g)\n"
        "(_h,) = T.autograd.grad((_g * {leaf}).sum(), {leaf})\nshow(_h)",
        1.5,
    ),
    "create_graph_all_leaves": (
        "_g = T.autograd.grad({rs}, [{leaves}], create_graph=True, allow_unused=True)\n"
        "show(_g)\n_s = sum((_x * _x).sum() for _x in _g if _x is not None)\nshow(_s)\n"
        "_s.backward()",
        1,
    ),
    "create_graph_grad_outputs": (
        "_v = T.ones_like({r}).requires_grad_()\n"
        "(_g,) = T.autograd.grad({r}, {leaf}, _v, create_graph=True)\nshow(_g)\ngraph(_g)\n"
        "show(T.autograd.grad(_g.sum(), [_v, {leaf}], allow_unused=True))",
        1.5,
    ),
    "create_graph_backward": (
        "{rs}.backward(create_graph=True)\nshow({leaf}.grad)\ngraph({leaf}.grad)\n"
        "_s = ({leaf}.grad * {leaf}).sum()\n{leaf}.grad = None\n_s.backward()",
        1.5,
    ),
    "create_graph_third": (
        "(_g,) = T.autograd.grad({rs}, {leaf}, create_graph=True)\n"
        "(_h,) = T.autograd.grad((_g * _g).sum(), {leaf}, create_graph=True, allow_unused=True)\n"
        "show(_h)\ngraph(_h)",
        0.7,
    ),
    # wrong on purpose
    "wrong_nonscalar": ("{r}.backward()", 1),
    "wrong_twice": ("_l = {r}.sum()\n_l.backward()\n_l.backward()", 1),
    "wrong_leaf_inplace": ("{leaf}.add_(1)", 1),
    "wrong_version": ("with T.no_grad():\n    {leaf}.mul_(2)\n{rs}.backward()", 1),
    "wrong_version_detach": ("{leaf}.detach().mul_(2)\n{rs}.backward()", 1),
    "wrong_nonleaf_grad": ("show({r}.grad)", 1),
    "wrong_grad_no_input": ("T.autograd.grad({r}.sum(), [])", 0.3),
    "wrong_unused": ("T.autograd.grad({r}.sum(), [T.ones(1, requires_grad=True)])", 0.3),
}


def _parts(text: str, names: dict) -> tuple:
    """Split ``text`` on placeholders; variables become ``Ref``s."""
    out: list = []
    rest = text
    while "{" in rest:
        head, _, tail = rest.partition("{")
        key, _, rest = tail.partition("}")
        out.append(head)
        value = names[key]
        out.extend(value if isinstance(value, list) else [value])
    out.append(rest)
    return tuple(p for p in out if p != "")


def _flags(v, torch) -> tuple[bool, bool] | None:
    """(requires_grad, is_leaf) of a torch tensor, or None when reading them raises (a view
    whose base changed in a way PyTorch refuses to replay)."""
    if not isinstance(v, torch.Tensor):
        return None
    try:
        return v.requires_grad and v.is_floating_point(), v.is_leaf
    except RuntimeError:
        return None


def epilogue(b) -> None:
    """Append the ending of builder ``b``'s program (uses torch's values to choose)."""
    torch, ns, rng = b.torch, b.ns, b.rng
    flags = {n: _flags(ns.get(n), torch) for n in b.tensors}
    grads = [n for n in b.tensors if flags[n] and flags[n][0]]
    last = next((n for n in reversed(b.tensors) if isinstance(ns.get(n), torch.Tensor)), None)
    if last is not None:
        b.program.stmts.append(Stmt("graph", ("graph(", Ref(last), ")")))
    leaves = [n for n in grads if flags[n][1]]
    if grads:
        r = grads[-1]
        rv = ns[r]
        names = {"r": Ref(r), "rs": [Ref(r), ".sum()"] if rv.numel() != 1 else Ref(r)}
        if leaves:
            names["leaf"] = Ref(rng.choice(leaves))
            joined: list = []
            for n in leaves:
                joined += [Ref(n), ", "]
            names["leaves"] = joined[:-1]
        keys = [k for k, (text, _) in ENDINGS.items() if "{leaf" not in text or leaves]
        if "{g}" in "".join(ENDINGS[k][0] for k in keys):
            pass
        key = rng.choices(keys, [ENDINGS[k][1] for k in keys])[0]
        text = ENDINGS[key][0]
        if "{g}" in text:
            names["g"] = Ref(b.new_input(tuple(rv.shape), str(rv.dtype)[6:], requires_grad=False))
            b.program.stmts.extend(b.pending)
            b.pending = []
        b.program.stmts.append(Stmt(key, _parts(text, names), primary=None))
    for n in leaves:
        b.program.stmts.append(Stmt("show", ("show(", Ref(n), ".grad)")))
