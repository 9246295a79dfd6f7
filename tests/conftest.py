"""Shared test plumbing: optional parts skip on a laptop but are required in CI.

A learner's machine may lack PyTorch, Chromium or Graphviz's ``dot``; tests that
need them skip there. CI sets ``MINIGRAD_REQUIRE_ALL=1`` (``make test-ci``), and
then a missing part is a failure, never a silent skip.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys

import pytest

REQUIRE_ALL = os.environ.get("MINIGRAD_REQUIRE_ALL") == "1"


def require(ok: bool, what: str) -> None:
    """Skip the calling test when ``ok`` is false, or fail in CI."""
    if ok:
        return
    if REQUIRE_ALL:
        pytest.fail(f"{what} is required in CI (MINIGRAD_REQUIRE_ALL=1) but is missing")
    pytest.skip(f"{what} is not installed")


def require_module(name: str):
    """Import and return ``name``; skip (or fail in CI) when it is missing."""
    try:
        return importlib.import_module(name)
    except ImportError:
        require(False, f"the Python package {name!r}")


def require_program(name: str) -> str:
    """The path of the program ``name``; skip (or fail in CI) when it is missing.

    The test environment's own scripts (``.venv/bin``) count even when that
    environment is not activated, as under ``.venv/bin/python -m pytest``.
    """
    search = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])
    path = shutil.which(name, path=search)
    require(path is not None, f"the program {name!r}")
    return path


@pytest.fixture(scope="session")
def torch():
    """Real PyTorch, for parity tests."""
    return require_module("torch")
