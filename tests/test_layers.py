"""The layers point one way: lessons -> widgets -> minigrad -> numpy.

A learner who only wants the engine installs numpy and nothing else, so
importing minigrad (all of it: nn, optim, save/load) must not pull in any
notebook or plotting library, nor PyTorch.
"""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = ("widgets", "ipywidgets", "anywidget", "graphviz", "matplotlib", "IPython", "torch")


def test_minigrad_imports_only_numpy_and_the_standard_library():
    code = (
        "import json, sys\n"
        "import minigrad, minigrad.nn, minigrad.optim, minigrad.autograd.graph\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert not loaded & set(FORBIDDEN), loaded & set(FORBIDDEN)
    third_party = {m for m in loaded - set(sys.stdlib_module_names) if not m.startswith("_")}
    assert third_party <= {"minigrad", "numpy", "cython_runtime"}, third_party  # numpy loads it
