"""Binder: the binder/ folder builds the environment the lessons run in.

- The files say what repo2docker needs: pinned requirements ending in the
  repository itself with the ``lab`` extra, Graphviz from apt, Python 3.11;
  the pins satisfy pyproject's loose ranges.
- ``repo2docker --no-build --no-run --debug .`` finds that configuration (no
  Docker needed: it only prints the Dockerfile it would build).
- As Binder would: a fresh virtual environment gets ``pip install -r
  binder/requirements.txt`` run from a copy of the repository's root, and every
  lesson runs there, in a fresh kernel from that environment, with the
  installed minigrad (not the working tree). This needs PyPI: it skips without
  a network on a laptop and fails in CI (MINIGRAD_REQUIRE_ALL=1).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import require, require_program

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb")) + sorted(
    (ROOT / "lessons").glob("zh-CN/[0-9][0-9]_*.ipynb")
)  # both editions

pytestmark = pytest.mark.binder


def requirement_lines() -> list[str]:
    lines = []
    for raw in (BINDER / "requirements.txt").read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def test_binder_files_say_what_repo2docker_needs():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"
    assert "graphviz" in (BINDER / "apt.txt").read_text().split()
    lines = requirement_lines()
    assert lines[-1] == ".[lab]", "the last line installs the repository with the lab extra"
    for line in lines[:-1]:
        assert "==" in line, f"binder/requirements.txt: {line!r} is not pinned"
    assert not (BINDER / "environment.yml").exists(), "environment.yml would win over pip"


def test_pins_satisfy_pyproject_ranges():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    ranges = {
        canonicalize_name(r.name): r.specifier
        for r in map(Requirement, project["dependencies"] + project["optional-dependencies"]["lab"])
    }
    pins = {}
    for line in requirement_lines()[:-1]:
        req = Requirement(line)
        (spec,) = req.specifier
        pins[canonicalize_name(req.name)] = spec.version
    missing = set(ranges) - set(pins)
    assert not missing, f"pin these in binder/requirements.txt too: {sorted(missing)}"
    for name, version in pins.items():
        if name in ranges:
            assert ranges[name].contains(version), f"{name}=={version} is outside {ranges[name]}"


def test_repo2docker_finds_the_configuration():
    repo2docker = require_program("repo2docker")
    result = subprocess.run(
        [repo2docker, "--no-build", "--no-run", "--debug", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "python=3.11" in out, out
    assert "install --yes --no-install-recommends graphviz" in out, out
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in out, out


def pypi_reachable() -> bool:
    try:
        with socket.create_connection(("pypi.org", 443), timeout=5):
            return True
    except OSError:
        return False


IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "*.egg-info", ".pytest_cache", ".ruff_cache",
    ".hypothesis", "test-artifacts", "build", "dist", ".ipynb_checkpoints",
    "*.safetensors", "*.pkl",
)  # fmt: skip

RUNNER = r"""
import json, os, sys
import nbformat
from nbclient import NotebookClient
import minigrad
report = {"minigrad": minigrad.__file__, "lessons": {}}
for path in sys.argv[1:]:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": os.path.dirname(path) or "."}}).execute()
    problems = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        tagged = "raises-exception" in cell.metadata.get("tags", [])
        errors = [o for o in cell.outputs if o.output_type == "error"]
        if bool(errors) != tagged:
            problems.append((i, [f"{e.ename}: {e.evalue}" for e in errors]))
    report["lessons"][path] = problems
print(json.dumps(report))
"""


def test_every_lesson_runs_in_a_fresh_binder_environment(tmp_path):
    require(pypi_reachable(), "network access to PyPI (to install binder/requirements.txt)")
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=IGNORE)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    install = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"],
        cwd=repo,  # as repo2docker does: '.' is the repository's root
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]

    lessons = repo / "lessons"
    run = subprocess.run(
        [python, "-c", RUNNER, *[p.relative_to(ROOT / "lessons").as_posix() for p in LESSONS]],
        cwd=lessons,  # where Jupyter starts the kernel
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert str(venv) in report["minigrad"], f"minigrad came from {report['minigrad']}"
    assert "site-packages" in report["minigrad"], report["minigrad"]
    assert len(report["lessons"]) == len(LESSONS)
    failures = {name: p for name, p in report["lessons"].items() if p}
    assert not failures, f"cells whose errors do not match their raises-exception tag: {failures}"
