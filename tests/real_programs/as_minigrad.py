"""Run a PyTorch program with ``import torch`` meaning minigrad: ``python as_minigrad.py prog.py``.

The learner's promise, done literally: the program is not edited; ``torch`` and its submodules
are minigrad's in ``sys.modules`` before it runs."""

import importlib
import runpy
import sys

import minigrad

sys.modules["torch"] = minigrad
for name in ("nn", "nn.functional", "nn.init", "optim", "autograd", "linalg", "cuda", "utils"):
    sys.modules[f"torch.{name}"] = importlib.import_module(f"minigrad.{name}")
sys.modules["torch.utils.data"] = importlib.import_module("minigrad.utils.data")
runpy.run_path(sys.argv[1], run_name="__main__")
