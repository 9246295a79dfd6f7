"""Differences the fuzzer finds that are known and not fixed yet (see FINDINGS.md).

Each entry matches ``campaign.cause()`` text by a regular expression and names its finding
in FINDINGS.md. The CI test tolerates these and fails when one no longer occurs, so that the
list shrinks as the findings are fixed: whoever fixes one deletes its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Open:
    finding: str
    pattern: str


OPEN: tuple[Open, ...] = (
    # left (FINDINGS.md): the create_graph endings' gradient graphs, and memory layouts that
    # numpy chooses otherwise (binary ops of operands laid out differently, expand's size-1 strides)
    # (and the gradient's grad_fn in those endings: a float32 leaf whose gradient passes a
    # float64 op, cast at each node in PyTorch and at the leaf here, FINDINGS.md N1)
    # (and layouts seen through reshape's node: a binary op of operands laid out differently,
    # an advanced index's result)
    Open(
        "G1 graph structure",
        r"^graph @|^grad_fn @ (create_graph\w*|flatten|reshape\w*)|^raises @ matmul\w*: ",
    ),
    Open("V1 -0.0, nan and rounding in values and printed text", r"^(repr|values) @"),
)


def open_finding(cause: str) -> Open | None:
    for entry in OPEN:
        if re.search(entry.pattern, cause):
            return entry
    return None
