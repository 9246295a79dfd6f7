"""Differences the fuzzer accepts: C++ details of PyTorch that no learner can see.

At most ten entries, each a regular expression over ``Difference.line()`` (``field: torch
... | minigrad ...``) with the reason it is allowed. Anything a learner can see (a value,
printed text, a grad_fn name, an error message, a warning) is never allowed here: it is fixed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Allowed:
    pattern: str
    reason: str


ALLOWED: tuple[Allowed, ...] = (
    Allowed(
        r"torch \('raises', 'RuntimeError', '[^']*INTERNAL ASSERT FAILED",
        "a bug inside PyTorch (``True ** x`` with a hook asserts in c10/core/Scalar.cpp; "
        "retain_grad on an integer result of div(rounding_mode=) asserts isDifferentiableType "
        "in engine.cpp; 'please report a bug to PyTorch'); minigrad computes the gradient "
        "instead of copying the crash",
    ),
    Allowed(
        r"^(missing-)?warning: torch .* \| minigrad \('warning', 'UserWarning', "
        r"'(Tensor\.(T|mT|mH|H) is deprecated|The use of `x\.T`)",
        "PyTorch warns about .T (.mT, .mH, .H) once per process (TORCH_WARN_ONCE), and so does "
        "minigrad; the generator's own PyTorch run uses up PyTorch's one warning, so only "
        "minigrad's shows (where PyTorch shows none, or its next warning).",
    ),
    Allowed(
        r"^missing-warning: torch (None|\('warning', 'UserWarning', 'Using backward\(\) with "
        r"create_graph=True.*) \| minigrad (None|\('warning', 'UserWarning', 'Using backward)",
        "backward(create_graph=True) warns once per process in both (TORCH_WARN_ONCE); which "
        "program shows it first depends on what else ran in the process before (a test, the "
        "generator), so one side's only warning can fall in a program the other did not warn in.",
    ),
    Allowed(
        r"^raises: torch \('raises', 'RuntimeError', '(grad_input must be contiguous'\)"
        r"|ZeroTensors are immutable)",
        "a bug inside PyTorch: a gradient that PyTorch knows to be zero (an 'efficient zero "
        "tensor', from `loss * False` or sgn's gradient) reaches nll_loss2d's backward, whose "
        "kernel refuses its strides, or becomes a leaf's .grad, which then refuses the next "
        "gradient added into it (`x.sgn().sum().backward()`, then any other backward, "
        "`x.grad.zero_()` or an SGD step); minigrad backpropagates and adds the zeros.",
    ),
    Allowed(
        r"^missing-warning: torch \('warning', 'UserWarning', 'grad and param do not obey the "
        r"gradient layout contract",
        "a performance hint about the C++ strides of ``.grad`` (TORCH_WARN_ONCE in "
        "AccumulateGrad): a grad whose dim of size 1 has stride 0 is accumulated into a second "
        "time. Reached only through a parameter that is an expanded tensor of no elements "
        "(``.grad`` copies its zero strides); minigrad's ``.grad`` has no layout contract.",
    ),
    Allowed(
        r"^(values|repr): .* \[torch: this leaf's \.grad shares its memory with another leaf's\]$",
        "an aliasing accident of PyTorch's AccumulateGrad: it keeps a gradient it receives "
        "without copying it, so two views of one buffer (the gradient of stack([a, c]).sum(), "
        "one number expanded) become a.grad and c.grad, and a second backward adds into the "
        "shared memory twice (3 where the sum of the passes is 2); the runner notes the shared "
        "memory on PyTorch's side (runner._shares_grad_memory), and minigrad keeps each "
        "leaf's .grad its own, as the gradients' sum says",
    ),
)

assert len(ALLOWED) <= 10, "the allow-list is for a few invisible details, not a backlog"


def allowed(line: str) -> Allowed | None:
    """The entry that allows the difference described by ``line``, if any."""
    for entry in ALLOWED:
        if re.search(entry.pattern, line):
            return entry
    return None
