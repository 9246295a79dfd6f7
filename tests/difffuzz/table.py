"""The feature table: every operation the generator may use, one line each.

``Op(name, template)``: ``template`` is code with placeholders (see ``generator.PLACEHOLDERS``):
``{x}`` the tensor the op works on (the latest result, most of the time), ``{y}`` a tensor that
broadcasts with it, ``{s}`` a Python number, ``{dim}`` a dimension of ``{x}``, ``{idx}`` an
index of ``{x}``, ``{mm}`` a matrix-product partner, ... A template without ``{out} =`` is an
expression whose value becomes the next variable. ``x=`` narrows ``{x}`` to ``"float"``,
``"num"`` (no bool), ``"int"`` or ``"bool"`` tensors; ``w=`` is the weight of the entry.

The minigrad names a template uses (``T.cumsum``, ``F.huber_loss``, ``{x}.narrow(``) are read
from the template itself: an entry whose names minigrad lacks is left out of the programs
(``missing()`` lists them), so an entry can be added before the op lands and switches itself on
when it does. Adding an op to minigrad: add its line here, then run
``python -m tests.difffuzz --n 3000 --seed 0`` and close what it finds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Op:
    name: str
    template: str
    x: str = "any"
    w: float = 1.0


OPS: tuple[Op, ...] = (
    # -- arithmetic, with broadcasting, scalars and type promotion ------------------------------
    Op("add", "{x} + {y}", w=3),
    Op("add_scalar", "{x} + {s}"),
    Op("radd", "{s} + {x}"),
    Op("sub", "{x} - {y}", w=2),
    Op("rsub", "{s} - {x}"),
    Op("mul", "{x} * {y}", w=3),
    Op("mul_scalar", "{x} * {s}", w=2),
    Op("rmul", "{s} * {x}"),
    Op("div", "{x} / {y}", w=2),
    Op("rdiv", "{s} / {x}"),
    Op("pow_scalar", "{x} ** {p}"),
    Op("pow", "{x} ** {y}"),
    Op("rpow", "{s} ** {x}"),
    Op("add_alpha", "T.add({x}, {y}, alpha={s})", w=0.5),  # half of it to lerp
    Op("lerp", "T.lerp({x}, {same}, {sf})", w=0.25),
    Op("lerp_tensor", "{x}.lerp({y}, {y})", w=0.125),
    Op("lerp_", "{out} = {x} * 1\n{out}.lerp_({same}, {sf})", w=0.125),
    Op("sub_alpha", "T.sub({x}, {y}, alpha={s})"),
    Op("sub_number", "T.sub({s}, {x})"),
    Op("div_number", "T.div({s}, {x})"),
    Op("mul_fn", "T.mul({x}, {y})"),
    Op("div_floor", "T.div({x}, {y}, rounding_mode='floor')"),
    Op("div_trunc", "T.div({x}, {y}, rounding_mode='trunc')"),
    Op("floordiv", "{x} // {y}"),
    # fmod (_functions/two_operand.py) with half of remainder's weight: the seed-0 programs
    # that drew neither keep their draws
    Op("remainder", "{x} % {y}", w=0.5),
    Op("fmod", "T.fmod({x}, {y})", w=0.25),
    Op("fmod_scalar", "{x}.fmod({s})", w=0.125),
    Op("fmod_", "{out} = {x} * 1\n{out}.fmod_({y})", w=0.125),
    Op("floor_divide", "T.floor_divide({x}, {s})"),
    Op("maximum", "T.maximum({x}, {y})"),
    Op("minimum", "T.minimum({x}, {y})"),
    Op("and", "{x} & {y}"),
    Op("or", "{x} | {y}"),
    Op("xor", "{x} ^ {y}"),
    Op("invert", "~{x}"),
    Op("neg", "-{x}"),
    Op("compare", "{x} > {y}"),
    Op("compare_eq", "{x} == {s}"),
    Op("compare_le", "T.le({x}, {y})", w=0.5),
    Op("isnan_isinf", "T.isnan({x}) | {x}.isinf() | ~T.isfinite({x})", w=0.5),  # split
    # -- elementwise functions ------------------------------------------------------------------
    Op("exp", "{x}.exp()", w=2),
    Op("exp_fn", "T.exp({x})", w=0.5),  # half of it to out= (minigrad/_out.py)
    Op("exp_out", "T.exp({x}, out=T.empty(0, dtype={dtype}))", w=0.25),
    Op("mul_out", "T.mul({x}, {y}, out=T.zeros(2, dtype={dtype}))", w=0.25),
    Op("log", "{x}.log()", w=2),
    Op("sqrt", "{x}.sqrt()"),
    Op("abs", "{x}.abs()"),
    Op("abs_fn", "abs({x})"),
    Op("sin", "{x}.sin()", w=0.5),  # half of it to erf, erfc and erfinv
    Op("erf", "T.erf({x})", w=0.25),
    Op("erfc", "{x}.erfc()", w=0.125),
    Op("erfinv", "T.erfinv({x} / 4)", w=0.125),  # (not of tanh: it amplifies its last bit)
    Op("cos", "T.cos({x})", w=0.5),  # half of it to atan2
    Op("atan2", "T.atan2({x}, {y})", w=0.25),
    Op("arctan2_method", "{x}.arctan2({y})", w=0.125),
    Op("atan2_", "{out} = {x} * 1\n{out}.atan2_({y})", w=0.125),
    Op("tanh", "{x}.tanh()", w=2),
    Op("sigmoid", "{x}.sigmoid()", w=2),
    Op("sigmoid_fn", "T.sigmoid({x})"),
    Op("relu", "{x}.relu()", w=2),
    Op("relu_fn", "F.relu({x})"),
    Op("clamp", "{x}.clamp({s}, {s2})"),
    Op("clamp_min", "{x}.clamp(min={s})"),
    Op("clamp_max", "T.clamp({x}, max={s})"),
    Op("clamp_min_fn", "{x}.clamp_min({s})"),
    Op("clamp_max_fn", "T.clamp_max({x}, {s})"),
    Op("clamp_min_tensor", "T.clamp_min({x}, {y})"),
    Op("clamp_max_tensor", "{x}.clamp_max({y})"),
    Op("square", "{x}.square()"),
    Op("round", "{x}.round()"),
    Op("floor", "{x}.floor()"),
    Op("ceil", "{x}.ceil()"),
    Op("sign", "{x}.sign()"),
    Op("reciprocal", "{x}.reciprocal()"),
    Op("rsqrt", "{x}.rsqrt()"),
    Op("log1p", "{x}.log1p()"),
    Op("expm1", "{x}.expm1()"),
    Op("log2", "{x}.log2()"),
    Op("log10", "T.log10({x})"),
    Op("exp2", "{x}.exp2()"),
    Op("trunc", "T.trunc({x})"),
    Op("frac", "{x}.frac()"),
    Op("floor_fn", "T.floor({x})"),
    Op("reciprocal_fn", "T.reciprocal({x})"),
    Op("log1p_fn", "T.log1p({x})"),
    Op("compare_fns", "T.ge({x}, {s}) | T.lt({x}, {y})"),
    Op("leaky_relu", "F.leaky_relu({x}, {sf})"),
    Op("gelu", "F.gelu({x})"),
    Op("softplus", "F.softplus({x})"),
    Op("silu", "F.silu({x})"),
    Op("elu", "F.elu({x})"),
    Op("gelu_tanh", "F.gelu({x}, approximate='tanh')"),
    Op("softplus_beta", "F.softplus({x}, beta={s}, threshold={s2})"),
    Op("elu_alpha", "F.elu({x}, alpha={sf})"),
    Op("activation_modules", "T.nn.Sequential(T.nn.GELU(), T.nn.SiLU(), T.nn.ELU())({x})"),
    Op("softplus_module", "T.nn.Softplus(2)({x})"),
    Op("elu_inplace", "{out} = {x} * 1\nF.elu({out}, inplace=True)"),
    Op("silu_inplace", "{out} = {x} * 1\nF.silu({out}, inplace=True)"),
    Op("cosh", "{x}.cosh()"),
    Op("tanh_F", "F.tanh({x})"),
    Op("sigmoid_F", "F.sigmoid({x})"),
    # -- reductions -----------------------------------------------------------------------------
    Op("sum", "{x}.sum()", w=2),
    Op("sum_dim", "{x}.sum({dim}, keepdim={kd})", w=2),
    Op("sum_dims", "{x}.sum(dim={dims})"),
    Op("sum_dtype", "{x}.sum(dtype={dtype})"),
    Op("sum_axis", "{x}.sum(axis={dim})", w=0.5),
    Op("mean_keepdims", "{x}.mean(axis={dim}, keepdims={kd})", w=0.5),  # split off sum_axis
    Op("sum_fn", "T.sum({x}, {dim})"),
    Op("mean", "{x}.mean()", w=2),
    Op("mean_dim", "{x}.mean({dim}, keepdim={kd})", w=2),
    Op("mean_dims", "T.mean({x}, dim={dims}, keepdim={kd})"),
    Op("mean_dtype", "{x}.mean(dtype={fdtype})"),
    Op("max", "{x}.max()"),
    Op("max_dim", "{x}.max({dim}, keepdim={kd})[0]"),
    Op("max_indices", "{x}.max({dim}).indices"),
    Op("min", "{x}.min()"),
    Op("min_dim", "T.min({x}, {dim})[0]"),
    Op("argmax", "{x}.argmax()"),
    Op("argmax_dim", "{x}.argmax({dim}, keepdim={kd})"),
    Op("argmin_dim", "T.argmin({x}, dim={dim})"),
    Op("var", "{x}.var()"),
    Op("var_dim", "{x}.var({dim}, keepdim={kd})"),
    Op("var_unbiased", "{x}.var(unbiased=False)"),
    Op("var_correction", "T.var({x}, {dim}, correction={n})"),
    Op("std", "{x}.std()"),
    Op("std_dim", "{x}.std({dim})"),
    Op("prod", "{x}.prod()"),
    Op("prod_dim", "{x}.prod({dim})"),
    # the two scans share cumsum's former weight: adding cumprod changed no other program
    Op("cumsum", "{x}.cumsum({dim})", w=0.5),
    Op("cumprod", "{x}.cumprod({dim})", w=0.5),
    Op("amax", "{x}.amax({dim})"),
    Op("amin", "T.amin({x}, {dim}, keepdim={kd})"),
    Op("logsumexp", "{x}.logsumexp({dim})"),
    Op("logsumexp_dims", "T.logsumexp({x}, dim={dims}, keepdim={kd})"),
    Op("norm", "{x}.norm()"),
    Op("norm_fn", "T.norm({x})"),
    Op("vector_norm", "T.linalg.vector_norm({x}, {p})", w=0.5),
    # composites of the norm: vector_norm's weight split three ways, right after it
    Op("normalize", "F.normalize({x}, {p}, {dim})", w=0.25),
    Op("cosine_similarity", "F.cosine_similarity({x}, {y}, {dim})", w=0.25),
    Op("all", "{x}.all()"),
    Op("any_dim", "{x}.any({dim})"),
    # -- matrix products at every rank ----------------------------------------------------------
    Op("matmul", "{x} @ {mm}", w=4),
    Op("matmul_fn", "T.matmul({x}, {mm})", w=1.75),
    Op("matmul_out", "T.matmul({x}, {mm}, out=T.empty(0, dtype={dtype}))", w=0.25),
    Op("mm", "T.mm({x}, {mm})"),
    Op("mv", "{x}.mv({vec})"),
    Op("dot", "T.dot({x}, {vec})", w=0.5),  # half of it to outer
    Op("outer", "T.outer({x}, {vec})", w=0.25),  # not 1-d: PyTorch's error
    Op("outer_flat", "{x}.flatten().outer({vec})", w=0.125),
    Op("ger", "T.ger({vec}, {x}.flatten())", w=0.125),
    Op("bmm", "T.bmm({x}, {mm})"),
    Op("addmm", "T.addmm({bias}, {x}, {mm})"),
    Op("linear", "F.linear({x}, {weight})"),
    Op("linear_bias", "F.linear({x}, {weight}, {bias})"),
    # -- shapes and views -----------------------------------------------------------------------
    Op("view", "{x}.view({shape})"),
    Op("reshape", "{x}.reshape({shape})", w=1.5),
    # unflatten: reshape's weight split three ways, right after it (no other program changes);
    # of a 0-d tensor PyTorch's error carries its C++ backtrace, so the tensor gets a dim first
    Op("unflatten", "{x}.unsqueeze(0).unflatten({dim}, ({n}, -1))", w=0.25),
    Op(
        "unflatten_module",
        "T.nn.Unflatten(0, [1, -1, {n}])(T.unflatten({x}.unsqueeze(-1), -1, (-1, 1)))",
        w=0.25,
    ),
    Op("reshape_fn", "T.reshape({x}, {shape_tuple})"),
    Op("flatten", "{x}.flatten()"),
    Op("flatten_dim", "T.flatten({x}, {dim})"),
    Op("squeeze", "{x}.squeeze()"),
    Op("squeeze_dim", "{x}.squeeze({dim})"),
    Op("unsqueeze", "{x}.unsqueeze({dim1})", w=2),
    Op("transpose", "{x}.transpose({dim}, {dim2})", w=2),
    Op("t", "{x}.t()"),
    Op("T", "{x}.T"),
    Op("mT", "{x}.mT"),
    Op("permute", "{x}.permute({perm})"),
    Op("permute_fn", "T.permute({x}, {perm_tuple})"),
    Op("expand", "{x}.expand({expand})"),
    Op("expand_as", "{x}.expand_as({y})"),
    Op("contiguous", "{x}.contiguous()"),
    Op("clone", "{x}.clone()"),
    Op("chunk", "{x}.chunk({n}, {dim})", w=0.5),  # half of it to tensor_split
    Op("tensor_split", "{x}.tensor_split({n}, {dim})[-1]", w=0.25),
    Op("tensor_split_indices", "T.cat(T.tensor_split({x}, [1, -1], {dim})[::-1], {dim})", w=0.25),
    Op("split", "{x}.split({n}, {dim})"),
    Op("narrow", "{x}.narrow({dim}, 0, 1)"),
    Op("repeat", "{x}.repeat({repeat})"),
    Op("flip", "{x}.flip({dim})"),
    Op("roll", "{x}.roll(1, {dim})"),
    Op("flip_dims", "T.flip({x}, {dims})"),
    Op("roll_flat", "{x}.roll({n})"),
    Op("roll_dims", "T.roll({x}, ({n}, -1), ({dim}, 0))", w=0.5),
    # the weight of roll_dims split: tril and triu (an error below 2 dims, as in PyTorch)
    Op("tril", "{x}.tril({n})", w=0.25),
    Op("triu", "T.triu({x}, -{n})", w=0.25),
    Op("mH", "{x}.mH"),
    Op("squeeze_dims", "{x}.squeeze({dims})"),
    Op("inplace_mT", "{out} = {x} * 1\n{out}.mT.mul_({s})"),
    Op("inplace_squeeze_dims", "{out} = {x} * 1\n{out}.unsqueeze(0).squeeze((0, -1))[0] = {s}"),
    # -- sorting --------------------------------------------------------------------------------
    Op("sort", "{x}.sort({dim})[0]", w=2),
    Op("sort_desc", "{x}.sort({dim}, descending=True).values"),
    Op("sort_stable", "T.sort({x}, stable=True, dim={dim}).values"),
    Op("sort_indices", "{x}.sort({dim}).indices"),
    Op("sort_both", "_r = {x}.sort({dim})\n{out} = _r.values * _r.indices"),
    Op("sort_result", "{x}.sort()"),
    Op("argsort", "{x}.argsort({dim}, descending={kd})"),
    Op("msort", "T.msort({x})"),
    Op("topk", "{x}.topk({n}, {dim})[0]", w=2),
    Op("topk_smallest", "T.topk({x}, 1, largest=False).values"),
    Op("topk_unsorted", "{x}.topk({n}, sorted=False)[1]"),
    Op("topk_result", "{x}.topk(1)"),
    # -- indexing -------------------------------------------------------------------------------
    Op("index", "{x}[{idx}]", w=4),
    Op("index_mask", "{x}[{x} > 0]"),
    Op("index_0d", "{x}[T.tensor(0)]"),
    Op("index_range", "{x}[range(1)]"),
    Op("index_rows", "{x}[{rows}]", w=0.5),  # an embedding lookup, C[X]: the take fast path
    # F.embedding, the same lookup as a layer, and F.one_hot: index_rows' weight split seven
    # ways, right after it, so that no program of a seed that drew another entry changes
    Op("embedding", "F.embedding({rows}.abs(), {x}.reshape({x}.shape[0], -1))", w=0.25),
    Op(
        "embedding_options",
        "F.embedding({rows}.abs(), {x}.reshape(len({x}), -1), padding_idx=-1, "
        "scale_grad_by_freq={kd})",
        w=0.25,
    ),
    # indices from C[X]'s rows, made non-negative (-d becomes d: one too far, an error)
    # max_norm renormalises the rows in place: of x itself when the reshape is a view
    Op(
        "embedding_max_norm",
        "F.embedding({rows}.abs(), {x}, max_norm={sf}, norm_type={p})",
        w=0.125,
    ),
    Op(
        "embedding_max_norm_view",
        "F.embedding({rows}.abs(), {x}.reshape(len({x}), -1), max_norm={sf}, norm_type={p})",
        w=0.125,
    ),
    Op(
        "embedding_module",
        "T.nn.Embedding.from_pretrained({x}.reshape(len({x}), -1), freeze={bool})({rows}.abs())",
        w=0.25,
    ),
    Op("one_hot", "F.one_hot({x})", x="int", w=0.25),
    Op("one_hot_classes", "F.one_hot({x}.long().clamp(0, 3), num_classes={n} + 3)", w=0.25),
    Op("gather", "{x}.gather({dim}, {x}.argmax({dim}, keepdim=True))"),
    Op("masked_fill", "{x}.masked_fill({cond}, {s})"),
    # -- joining and selecting ------------------------------------------------------------------
    Op("cat", "T.cat([{x}, {same}], {dim})", w=1.5),
    # F.pad (constant): cat's weight split three ways, right after it; negative pads crop
    Op("pad", "F.pad({x}, ({n}, 1))", w=0.25),
    Op("pad_crop_value", "F.pad({x}, (-1, {n}, 0, 1), value={s})", w=0.25),
    Op("cat_self", "T.cat(({x}, {x}))"),
    Op("stack", "T.stack([{x}, {same}], {dim1})"),
    Op("where", "T.where({cond}, {x}, {y})", w=2),
    Op("where_scalar", "T.where({cond}, {x}, {s})"),
    Op("where_method", "{x}.where({cond}, {y})"),
    Op("unbind", "{x}.unbind({dim})"),
    Op("unbind_first", "T.unbind({x})[0]"),
    Op("iter", "list({x})"),
    # -- multi-output nodes: one node, an output number per output, hooks on siblings -----------
    Op("unbind_two", "_u = {x}.unbind({dim})\n{out} = _u[-1] * 2 + _u[0]", w=2),
    Op("split_two", "_s = {x}.split({n}, {dim})\n{out} = _s[-1].sum() * _s[0]", w=2),
    Op("chunk_last", "{x}.chunk({n}, {dim})[-1]"),
    Op("split_sizes", "{x}.split([1, {x}.shape[-1] - 1], -1)[1]"),
    Op("output_nr", "{x}.split(1, {dim})[-1].output_nr"),
    Op(
        "sibling_hook",
        "_u = {x}.unbind({dim})\n_h = _u[-1].register_hook(lambda g: show(g))\n{out} = _u[0] * 2",
        x="float",
    ),
    Op(
        "sibling_hook_scales",
        "_s = {x}.split(1, -1)\n_h = _s[0].register_hook(lambda g: g * 3)\n"
        "{out} = T.cat(_s[::-1], -1)",
        x="float",
    ),
    Op(
        "node_prehook",
        "_u = {x}.unbind({dim})\n_h = _u[0].grad_fn.register_prehook(lambda gs: show(gs))\n"
        "{out} = _u[-1] * 1",
        x="float",
    ),
    Op("multi_view_inplace", "{out} = {x} * 1\n{out}.unbind({dim})[0].mul_({s})"),
    Op("max_dim_both", "_m = {x}.max({dim})\n{out} = _m.values * _m.indices"),
    Op(
        "function_two_outputs",
        "class _Two(T.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, a):\n"
        "        ctx.save_for_backward(a)\n"
        "        return a * 2, a * a\n"
        "    @staticmethod\n"
        "    def backward(ctx, ga, gb):\n"
        "        (a,) = ctx.saved_tensors\n"
        "        return ga * 2 + gb * 2 * a\n"
        "_p, _q = _Two.apply({x})\n{out} = _q",
        x="float",
    ),
    # -- softmax and losses ---------------------------------------------------------------------
    Op("softmax", "{x}.softmax({dim})", w=2),
    Op("softmax_F", "F.softmax({x}, dim={dim})"),
    Op("softmax_dtype", "T.softmax({x}, {dim}, dtype={fdtype})"),
    Op("log_softmax", "{x}.log_softmax({dim})"),
    Op("log_softmax_F", "F.log_softmax({x}, {dim})"),
    Op("mse", "F.mse_loss({x}, {target})", w=2),
    Op("mse_sum", "F.mse_loss({x}, {target}, reduction={reduction})"),
    Op("mse_module", "T.nn.MSELoss()({x}, {target})"),
    Op("l1", "F.l1_loss({x}, {target}, reduction={reduction})"),
    Op("cross_entropy", "F.cross_entropy({x}, {cls})", w=2),
    Op("cross_entropy_red", "F.cross_entropy({x}, {cls}, reduction={reduction})"),
    Op("cross_entropy_probs", "F.cross_entropy({x}, {x}.softmax(-1).detach())"),
    Op("cross_entropy_module", "T.nn.CrossEntropyLoss()({x}, {cls})"),
    Op("nll", "F.nll_loss({x}, {cls})"),
    Op("bce", "F.binary_cross_entropy({x}.sigmoid(), {prob})"),
    Op("bce_module", "T.nn.BCELoss(reduction={reduction})({x}.sigmoid(), {prob})"),
    Op("bce_logits", "F.binary_cross_entropy_with_logits({x}, {prob})"),
    Op("smooth_l1", "F.smooth_l1_loss({x}, {target})"),
    Op("huber", "F.huber_loss({x}, {target})"),
    # -- dtypes ---------------------------------------------------------------------------------
    Op("float", "{x}.float()"),
    Op("double", "{x}.double()"),
    Op("long", "{x}.long()"),
    Op("int", "{x}.int()"),
    Op("bool", "{x}.bool()"),
    Op("to_dtype", "{x}.to({dtype})"),
    Op("type_dtype", "{x}.type({dtype})", w=0.5),
    Op("type_as", "{x}.type_as({y})", w=0.5),  # weight split off type_dtype
    # -- in-place, on views and through .data ---------------------------------------------------
    Op("iadd", "{out} = {x}.add_({y})", w=2),
    Op("imul_scalar", "{out} = {x}.mul_({s})"),
    Op("iop", "{out} = {x} * 1\n{out} += {y}"),
    Op("ifloordiv", "{out} = {x} * 1\n{out} //= {s}"),
    Op("imod", "{out} = {x} * 1\n{out} %= {y}"),
    Op("inplace_unary", "{out} = {x}.clone().{unary_}()"),
    Op("inplace_view", "{out} = {x} * 1\n{out}[{idx}] = {s}", w=2),
    Op("inplace_view_op", "{out} = {x} * 1\n{out}.transpose(0, -1).mul_({s})"),
    Op("inplace_select", "{out} = {x} * 1\n{out}[0].add_({s})"),
    Op("inplace_data", "{x}.data.mul_({s})\n{out} = {x} * 1"),
    Op("inplace_no_grad", "with T.no_grad():\n    {x}.add_({s})\n{out} = {x}", w=0.5),
    # a view made under no_grad, changed in place outside it (weight split off the line above)
    Op("inplace_no_grad_view", "with T.no_grad():\n    {out} = {x}[...]\n{out}.mul_({s})", w=0.5),
    Op("inplace_leaf", "{out} = {x}.sub_({s})"),
    Op("zero_", "{out} = {x}.clone().zero_()", w=0.5),
    # a tensor's new_* factories (the weight of zero_ split three ways)
    Op("new_zeros", "{x}.new_zeros({x}.shape)", w=0.25),
    Op("new_tensor", "{x}.new_tensor({x}.tolist())", w=0.25),
    Op("fill_", "{out} = {x}.clone().fill_({s})", w=0.5),
    # numbers checked against a dtype's range (the weight of fill_ split three ways, so that
    # no program of a seed that drew another entry changes)
    Op("full_like", "T.full_like({x}, {s})", w=0.25),
    Op("tensor_of_list_dtype", "T.tensor({x}.tolist(), dtype={dtype})", w=0.25),
    Op("copy_", "{out} = {x}.clone().copy_({y})"),
    Op("clamp_", "{out} = {x}.clone().clamp_(min={s})"),
    Op("clamp_min_", "{out} = {x}.clone().clamp_min_({s})"),
    Op("clamp_max_", "{out} = {x}.clone().clamp_max_({y})"),
    Op("setitem_tensor", "{out} = {x}.clone()\n{out}[{idx}] = {y}"),
    # -- autograd inside the chain --------------------------------------------------------------
    Op("detach", "{x}.detach()"),
    Op("detach_rg", "{x}.detach().requires_grad_()"),
    Op("no_grad", "with T.no_grad():\n    {out} = {x} * 2"),
    Op("enable_grad", "with T.no_grad():\n    with T.enable_grad():\n        {out} = {x} * 2"),
    Op("set_grad", "with T.set_grad_enabled(False):\n    {out} = {x} + 1"),
    Op("inference_mode", "with T.inference_mode():\n    {out} = {x} * 2"),
    Op("inference_flag", "{x}.is_inference()"),
    Op("inference_clone", "with T.inference_mode():\n    _i = {x} * 2\n{out} = _i.clone()"),
    Op("inference_saved", "with T.inference_mode():\n    _i = {x} + 1\n{out} = {x} * _i"),
    Op("inference_inplace", "with T.inference_mode():\n    _i = {x} + 1\n{out} = _i.add_(1)"),
    Op("hook", "{out} = {x} * 1\n_h = {out}.register_hook(lambda g: g * 2)", x="float"),
    Op("retain_grad", "{out} = {x} * 1\n{out}.retain_grad()", x="float"),
    Op("requires_grad_", "{x}.requires_grad_()"),
    Op("set_requires_grad", "{out} = {x}.clone()\n{out}.requires_grad = {bool}"),
    Op("data_assign", "{x}.data = {same}\n{out} = {x} * 1"),
    Op("version", "{x}._version"),
    # -- what a learner prints or reads ---------------------------------------------------------
    Op("item", "{x}.item()"),
    Op("tolist", "{x}.tolist()"),
    Op("float_py", "float({x})"),
    Op("int_py", "int({x})"),
    Op("bool_py", "bool({x})"),
    Op("len", "len({x})"),
    Op("size", "{x}.size({dim})"),
    Op("shape", "{x}.shape"),
    Op("numel", "{x}.numel()"),
    Op("str", "str({x})"),
    Op("format", "format({x}, '.4f')"),
    Op("numpy", "{x}.numpy()"),
    Op("is_leaf", "{x}.is_leaf"),
    Op("grad_of_nonleaf", "{x}.grad"),
)

_NAMES = re.compile(r"\b(T|F)\.([A-Za-z_][\w.]*[\w])|\}\.([A-Za-z_]\w*)")


def needs(template: str) -> list[str]:
    """The minigrad names ``template`` uses: ``T.x.y``, ``F.x`` and ``Tensor.method``."""
    out = []
    for module, path, method in _NAMES.findall(template):
        if method:
            out.append("Tensor." + method)
        else:
            out.append(("nn.functional." if module == "F" else "") + path)
    return out


def has(module, dotted: str) -> bool:
    obj = module.Tensor if dotted.startswith("Tensor.") else module
    for part in dotted.removeprefix("Tensor.").split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def available(module) -> tuple[Op, ...]:
    """The entries whose names ``module`` (minigrad) has."""
    return tuple(op for op in OPS if all(has(module, n) for n in needs(op.template)))


def missing(module) -> dict[str, list[str]]:
    """Entry name -> the names ``module`` lacks (the entries left out of the programs)."""
    out = {}
    for op in OPS:
        lack = [n for n in needs(op.template) if not has(module, n)]
        if lack:
            out[op.name] = lack
    return out
