"""The differential fuzzer: random programs run in minigrad and in PyTorch, compared.

The README promises that a PyTorch snippet runs the same way with ``minigrad`` in place of
``torch``; hand-picked parity snippets cannot measure that, so a machine writes the cases.

    python -m tests.difffuzz --n 3000 --seed 0          # identical rate, differences by cause
    python -m tests.difffuzz --replay 1000024 --minimise  # one program, shrunk, as a snippet
    make fuzz                                            # the same as the first line

The modules, in the order a program flows through them:

- ``table``: the feature table, one line per operation (``Op("cumsum", "{x}.cumsum({dim})")``);
- ``inputs``: the input tensors (shapes 0-d to 4-d, size-0 dims, non-contiguous views,
  float32/float64/int32/int64/bool, special values) as code both engines run;
- ``generator``: grows a seeded program from the table, with PyTorch as the oracle for shapes;
  ``epilogue``: how it ends (backward in its forms, hooks, ``autograd.grad``, usual mistakes);
- ``program``: the program as data (statements with variable references) and as a snippet;
- ``runner``: runs a program in one engine and records what a learner sees;
- ``compare``: the first difference of two runs (values within a few ulp, the rest exactly);
- ``minimise``: shrinks a program while its difference persists;
- ``campaign``: many programs, differences sorted by cause; ``allowlist``: the few accepted
  differences (C++ details no learner sees); ``open_findings``: the differences known and not
  yet fixed (FINDINGS.md), which the CI test (``tests/test_difffuzz.py``) tolerates until fixed.

Adding an op: one line in ``table.OPS`` (before or after it lands in minigrad: an entry whose
names minigrad lacks is skipped until they exist), then ``python -m tests.difffuzz --n 3000``.
"""
