"""Binder: the binder/ folder builds the environment the lessons run in.

- The files say what repo2docker needs: pinned requirements ending in the
  repository itself with the ``lab`` extra, Graphviz from apt, Python 3.11;
  the pins satisfy pyproject's loose ranges.
- ``repo2docker --no-build --no-run --debug .`` finds that configuration (no
  Docker needed: it only prints the Dockerfile it would build).
- As Binder would: a fresh virtual environment gets ``pip install -r
  binder/requirements.txt`` run from a copy of the repository's root, then
  ``binder/postBuild``; every lesson runs there, in a fresh kernel from that
  environment, with the installed minigrad (not the working tree), and that
  environment's JupyterLab hands the page the project's settings defaults
  (no news pop-up) while postBuild wrote nothing to the home folder. This needs
  PyPI: it skips without a network on a laptop and fails in CI
  (MINIGRAD_REQUIRE_ALL=1).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from browser.harness import SERVER_TIMEOUT, free_port, get_json, poll
from conftest import require, require_program

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb")) + sorted(
    (ROOT / "lessons").glob("zh-CN/[0-9][0-9]_*.ipynb")
)  # both editions

# one worker builds the fresh environment once, for the tests that share it
pytestmark = [pytest.mark.binder, pytest.mark.xdist_group("binder")]


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
    assert "RUN ./binder/postBuild" in out, out


def test_post_build_is_an_executable_script():
    mode = subprocess.run(
        ["git", "ls-files", "--stage", "binder/postBuild"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.split()
    if mode:  # a git checkout (a copy of the tree has no index)
        assert mode[0] == "100755", "git must keep binder/postBuild executable"
    assert os.access(BINDER / "postBuild", os.X_OK)
    assert (BINDER / "postBuild").read_text().startswith("#!/bin/bash\n")


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


@pytest.fixture(scope="session")
def binder_env(tmp_path_factory):
    """A copy of the repository and a fresh venv set up as Binder does: (repo, venv, env, home).

    Session-scoped, built once: under xdist a module-scoped fixture is torn down whenever the
    worker's next test belongs to another module, and this one costs minutes.
    """
    require(pypi_reachable(), "network access to PyPI (to install binder/requirements.txt)")
    tmp = tmp_path_factory.mktemp("binder")
    repo = tmp / "repo"
    shutil.copytree(ROOT, repo, ignore=IGNORE)
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    home = tmp / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    install = subprocess.run(
        [venv / "bin" / "pip", "install", "--quiet", "-r", "binder/requirements.txt"],
        cwd=repo,  # as repo2docker does: '.' is the repository's root
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    post_build = subprocess.run(
        ["./binder/postBuild"],
        cwd=repo,  # as repo2docker does
        env={**env, "HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert post_build.returncode == 0, post_build.stdout + post_build.stderr
    return repo, venv, env, home


def test_every_lesson_runs_in_a_fresh_binder_environment(binder_env):
    repo, venv, env, _ = binder_env
    lessons = repo / "lessons"
    names = [p.relative_to(ROOT / "lessons").as_posix() for p in LESSONS]  # zh-CN/00_...
    run = subprocess.run(
        [venv / "bin" / "python", "-c", RUNNER, *names],
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


@pytest.mark.parametrize("app", ["lab", "notebook"])
def test_binder_jupyter_has_no_news_pop_up(binder_env, tmp_path, app):
    """The image's JupyterLab and Notebook 7, with an empty home, take the project's defaults."""
    repo, venv, env, home = binder_env
    assert not any(home.iterdir()), "postBuild wrote into the home folder"
    port, token = free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    run_env = {**env, "HOME": str(tmp_path)}  # a learner's home with no settings of its own
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTERLAB_SETTINGS_DIR"):
        run_env.pop(name, None)
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [venv / "bin" / "jupyter", app, "--no-browser", "--allow-root", "--ip=127.0.0.1",
             f"--port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}"],
            cwd=repo, env=run_env, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
    try:

        def up():
            assert server.poll() is None, f"jupyter {app} exited:\n{log.read_text()}"
            return get_json(f"{base}/api/status?token={token}")

        poll(up, f"jupyter {app} to answer", timeout=SERVER_TIMEOUT)
        plugin = "@jupyterlab/apputils-extension:notification"
        schema = get_json(f"{base}/lab/api/settings/{plugin}?token={token}")["schema"]
        assert schema["properties"]["fetchNews"]["default"] == "false"
        assert schema["properties"]["checkForUpdates"]["default"] is False
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
