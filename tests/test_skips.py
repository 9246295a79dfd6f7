"""tests/conftest.py's skips: one summary line on a laptop, failures in CI.

A small suite (this project's conftest.py beside a test file with the kinds of
skip the real suite has) runs in a child pytest, once as on a learner's laptop
and once with ``MINIGRAD_REQUIRE_ALL=1`` as in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent

SUITE = """
import pytest
from conftest import require_module, require_program

@pytest.mark.parametrize("i", range(30))
def test_parity(i):
    pytest.importorskip("torch_is_not_here")  # as test_printing.py's parity rows

def test_browser():
    require_program("no-such-chromium")  # as the browser tests

@pytest.mark.parametrize("i", range(2))
def test_needs_torch(i):
    require_module("torch_is_not_here")  # as the ``torch`` fixture

@pytest.mark.xfail(reason="expected to fail")
def test_known_failure():
    assert False

def test_plain():
    assert True
"""


# as test_sleef_float.py: compares last bits with PyTorch's AVX-512 kernels
BIT_EXACT = """
import pytest

@pytest.mark.bit_exact
@pytest.mark.parametrize("i", range(3))
def test_bits(i, torch):
    assert False, "a bit difference"  # not reached: PyTorch's kernels are not AVX-512's

@pytest.mark.bit_exact
def test_exact_arithmetic():
    pass  # no torch to compare with: runs on any CPU
"""


def run_suite(
    tmp_path: Path, *args: str, suite: str = SUITE, **env: str
) -> subprocess.CompletedProcess:
    shutil.copy(HERE / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_suite.py").write_text(suite.replace("torch_is_not_here", "torch_x"))
    # CI and BUILD_NUMBER tell pytest it runs on CI, and a wide COLUMNS has the same effect:
    # each error's message is printed again, untruncated, in the short summary. The inner
    # run prints as on a learner's 80-column terminal, wherever the outer one runs.
    outer_only = {"MINIGRAD_REQUIRE_ALL", "CI", "BUILD_NUMBER"}
    environ = {k: v for k, v in os.environ.items() if k not in outer_only}
    # only the plugins asked for: Hypothesis's and nbmake's imports would triple the start-up
    environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    environ["COLUMNS"] = "80"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=tmp_path,
        env={**environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_one_line_says_why_and_how(tmp_path):
    result = run_suite(tmp_path)
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    progress = out.splitlines()[0]
    assert progress.startswith(".x") or progress.startswith("x."), out  # no row of `s`
    assert "s" not in progress.split("[")[0], out
    summary = [line for line in out.splitlines() if "skipped:" in line]
    assert summary == [
        "33 tests skipped: 30 could not import 'torch_x': No module named 'torch_x'; "
        "2 the Python package 'torch_x' is not installed; "
        "1 the program 'no-such-chromium' is not installed"
    ], out
    assert out.strip().splitlines()[-1].startswith("1 passed, 33 skipped, 1 xfailed"), out
    assert len(out.splitlines()) <= 4, out  # progress, summary, totals (and a blank line)


def test_summary_of_the_real_reasons():
    from conftest import skip_summary

    torch_rows = ["could not import 'torch': No module named 'torch'"] * 1121
    torch_rows.append("the Python package 'torch' is not installed")
    assert skip_summary(torch_rows) == (
        "1122 tests skipped: PyTorch not installed (parity); "
        "install torch==2.13.0 or run .ci/run to include them"
    )
    mixed = torch_rows[:2] + ["the program 'chromium' is not installed"]
    assert skip_summary(mixed) == (
        "3 tests skipped: 2 PyTorch not installed (parity) (install torch==2.13.0); "
        "1 Chromium not installed (browser) (apt-get install chromium); "
        ".ci/run installs all of them"
    )
    assert skip_summary(["got empty parameter set for (a, b)"] * 2) == (
        "2 tests skipped: got empty parameter set for (a, b)"
    )


@pytest.mark.parametrize("workers", [[], ["-p", "xdist", "-n", "2"]], ids=["serial", "xdist"])
def test_require_all_turns_every_skip_into_a_failure(tmp_path, workers):
    if workers:
        pytest.importorskip("xdist")
    result = run_suite(tmp_path, *workers, MINIGRAD_REQUIRE_ALL="1")
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert out.strip().splitlines()[-1].startswith("33 failed, 1 passed, 1 xfailed"), out
    assert "skipped:" not in out
    assert "MINIGRAD_REQUIRE_ALL=1 forbids skips" in out
    assert "'no-such-chromium' is required in CI" in out


@pytest.mark.parametrize("ci", [False, True], ids=["laptop", "ci"])
def test_bit_exact_tests_say_the_cpu_is_why(tmp_path, torch, ci):
    env = {"ATEN_CPU_CAPABILITY": "avx2"}  # PyTorch's AVX2 kernels, as on a CPU without AVX-512
    if ci:
        env["MINIGRAD_REQUIRE_ALL"] = "1"
    out = run_suite(tmp_path, suite=BIT_EXACT, **env).stdout
    assert "a bit difference" not in out
    if ci:
        assert out.strip().splitlines()[-1].startswith("1 passed, 3 errors"), out  # in setup
        errors = out.split("short test summary info")[0]  # the summary may repeat messages
        assert errors.count("PyTorch runs its AVX2 kernels on this machine, not the AVX-512") == 3
        assert "CI (MINIGRAD_REQUIRE_ALL=1) needs an x86-64 CPU with AVX-512" in out
    else:
        summary = [line for line in out.splitlines() if "skipped:" in line]
        why = "PyTorch runs no AVX-512 kernels on this CPU (bit-exact tests need them)"
        assert summary == [f"3 tests skipped: {why}"], out
        assert out.strip().splitlines()[-1].startswith("1 passed, 3 skipped"), out
