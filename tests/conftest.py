"""Shared test plumbing: optional parts skip on a laptop but are required in CI.

A learner's machine may lack PyTorch, Chromium or Graphviz's ``dot``; tests that
need them skip there, and the run ends with one line that says how many
skipped, why, and how to include them (not a row of ``s`` per test). CI
(``.ci/run``) sets ``MINIGRAD_REQUIRE_ALL=1``: then every skip, whether it comes
from ``require()`` below, ``pytest.importorskip`` or a ``skip`` marker, is
reported as a failure, never a silent skip.

Tests marked ``bit_exact`` compare minigrad's last bits with PyTorch's AVX-512 kernels
(``minigrad/ops/_cpu_vectors.py``): where PyTorch runs other kernels (an AVX2-only CPU, ARM,
``ATEN_CPU_CAPABILITY=avx2``) its values differ within an ulp, so those tests skip on a
laptop with the reason, and fail in CI with that one message instead of bit differences.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from collections import Counter

import pytest

REQUIRE_ALL = os.environ.get("MINIGRAD_REQUIRE_ALL") == "1"

# What a skip's reason is about -> (what is missing, how to include those tests).
# Matched as substrings of the reason, first match wins; ".ci/run" installs all of them.
MISSING = [
    ("'torch'", "PyTorch not installed (parity)", "install torch==2.13.0"),
    ("'chromium'", "Chromium not installed (browser)", "apt-get install chromium"),
    ("'dot'", "Graphviz's dot not installed", "apt-get install graphviz"),
    ("PyPI", "no network access to PyPI (Binder)", "run with a network"),
    ("'playwright", "Playwright not installed (browser)", "make test installs it"),
    ("'repo2docker'", "repo2docker not installed (Binder)", "make test installs it"),
    # not something to install: the CPU (or ATEN_CPU_CAPABILITY) decides; no "how"
    ("AVX-512", "PyTorch runs no AVX-512 kernels on this CPU (bit-exact tests need them)", ""),
]

#: what ``torch.backends.cpu.get_cpu_capability()`` says where minigrad is PyTorch to the bit
#: (``minigrad/ops/_cpu_vectors.py``'s ``REFERENCE_CAPABILITY``; written here too, so this
#: file runs without minigrad, as ``tests/test_skips.py`` runs it)
REFERENCE_CAPABILITY = "AVX512"


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


def require_reference_cpu() -> None:
    """Skip the calling test (or fail it in CI) unless PyTorch runs its AVX-512 kernels, the
    ones minigrad reproduces bit for bit; used for every test marked ``bit_exact``."""
    torch = require_module("torch")
    capability = torch.backends.cpu.get_cpu_capability()
    if capability == REFERENCE_CAPABILITY:
        return
    why = (
        f"PyTorch runs its {capability} kernels on this machine, not the AVX-512 ones minigrad "
        "reproduces bit for bit (minigrad/ops/_cpu_vectors.py); here the values agree within "
        "an ulp, not to the bit"
    )
    if REQUIRE_ALL:
        pytest.fail(
            f"{why}: CI (MINIGRAD_REQUIRE_ALL=1) needs an x86-64 CPU with AVX-512 "
            "and ATEN_CPU_CAPABILITY unset",
            pytrace=False,
        )
    pytest.skip(why)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "bit_exact: its torch comparisons need PyTorch's AVX-512 CPU kernels"
    )


def pytest_runtest_setup(item):
    """A ``bit_exact`` test that compares with a live PyTorch (the ``torch`` fixture) needs its
    AVX-512 kernels; one that checks minigrad against exact arithmetic runs anywhere."""
    if item.get_closest_marker("bit_exact") and "torch" in getattr(item, "fixturenames", ()):
        require_reference_cpu()


@pytest.fixture(scope="session")
def torch():
    """Real PyTorch, for parity tests, on one thread: its parallel loops raise for whichever
    chunk's thread fails first (``nll_loss(..., reduction="none")`` with two bad targets
    names either), while one thread names the first bad element, as minigrad does."""
    module = require_module("torch")
    module.set_num_threads(1)
    return module


# -- skips: one summary line on a laptop, failures in CI -----------------------------------


def _is_skip(report: pytest.TestReport | pytest.CollectReport) -> bool:
    return report.skipped and not hasattr(report, "wasxfail")


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def _forbid_skip(report: pytest.TestReport | pytest.CollectReport) -> None:
    if REQUIRE_ALL and _is_skip(report):
        report.outcome = "failed"
        report.longrepr = (
            f"skipped ({_skip_reason(report)}), but MINIGRAD_REQUIRE_ALL=1 forbids skips: "
            "install what is missing (.ci/run does)"
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    _forbid_skip(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    report = yield
    _forbid_skip(report)
    return report


def pytest_report_teststatus(report, config):
    """No ``s`` per skipped test in the progress line; ``-v`` still says SKIPPED."""
    if _is_skip(report):
        return "skipped", "", "SKIPPED"
    return None


def skip_summary(reasons: list[str]) -> str:
    """One line: how many skipped, why, and how to include them."""
    groups: Counter[tuple[str, str]] = Counter()
    for reason in reasons:
        what = next(((w, how) for key, w, how in MISSING if key in reason), (reason, ""))
        groups[what] += 1
    total = len(reasons)
    head = f"{total} test{'s' if total != 1 else ''} skipped: "
    if len(groups) == 1:
        ((what, how),) = groups
        return head + what + (f"; {how} or run .ci/run to include them" if how else "")
    largest_first = groups.most_common()
    parts = [f"{n} {what}" + (f" ({how})" if how else "") for (what, how), n in largest_first]
    installable = any(how for _, how in groups)
    return head + "; ".join(parts) + ("; .ci/run installs all of them" if installable else "")


def pytest_terminal_summary(terminalreporter):
    reasons = [_skip_reason(r) for r in terminalreporter.stats.get("skipped", []) if _is_skip(r)]
    if reasons:
        terminalreporter.write_line(skip_summary(reasons), yellow=True)
