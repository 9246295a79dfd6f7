"""A program: a list of statements over named variables, printable as a Python snippet.

The generator builds it, the runner executes its text with ``T = torch`` and with
``T = minigrad``, and the minimiser edits it. A statement keeps its variable references
as ``Ref`` objects (not baked into text), so the minimiser can drop a statement and let the
statements after it read that statement's main input instead (``rename``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Ref:
    """A reference to a variable of the program, by name."""

    name: str


@dataclass(frozen=True)
class Stmt:
    """One statement: ``op`` (the generator's entry name, ``input``, ``show`` or ``graph``),
    its code as text pieces and ``Ref``s, the names it defines and the variable that stands in
    for its result when the minimiser drops it (``primary``)."""

    op: str
    parts: tuple
    defines: tuple = ()
    primary: str | None = None

    def refs(self) -> set[str]:
        return {p.name for p in self.parts if isinstance(p, Ref)}

    def code(self) -> str:
        return "".join(p.name if isinstance(p, Ref) else p for p in self.parts)

    def rename(self, old: str, new: str) -> Stmt:
        parts = tuple(Ref(new) if isinstance(p, Ref) and p.name == old else p for p in self.parts)
        primary = new if self.primary == old else self.primary
        return replace(self, parts=parts, primary=primary)


@dataclass
class Program:
    """A seeded program; ``code()`` is what both engines execute."""

    seed: int
    stmts: list[Stmt] = field(default_factory=list)

    def code(self) -> str:
        return "\n".join(s.code() for s in self.stmts) + "\n"

    def ops(self) -> list[str]:
        return [s.op for s in self.stmts if s.op not in ("input", "show", "graph")]

    def reproducer(self, engine: str = "minigrad") -> str:
        """A runnable snippet: ``show`` prints, ``graph`` prints the node names."""
        module = "torch" if engine == "torch" else "minigrad"
        return (
            f"# difffuzz program {self.seed}; python -m tests.difffuzz --replay {self.seed}\n"
            f"import {module} as T\nimport {module}.nn.functional as F\n"
            "import numpy as np\nfrom math import inf, nan\nshow = print\n"
            "def graph(t):\n"
            "    fn = t.grad_fn\n"
            "    print(fn, fn and [(f and f.name(), i) for f, i in fn.next_functions])\n"
            "\n" + self.code()
        )
