"""``make lab``: the repository is Jupyter's root, lesson 0 opens, no news pop-up.

The test takes the very command the Makefile would run (``make -n lab`` with
this test environment as the venv), adds only what a test needs (no browser,
a free port, a token, empty per-user Jupyter folders so that this machine's
own settings play no part) and asks the running server over HTTP, without a
browser:

- ``/`` redirects to ``/lab/tree/lessons/00_start_here.ipynb``, the page the
  browser opens;
- the docs pages, and every source file a lesson tells the learner to open, are
  reachable through the contents API (with ``lessons/`` as the root they were
  not);
- the notification plugin's settings, as the page receives them, default to
  ``fetchNews: "false"`` and no update check: the project's
  ``.jupyterlab-settings/overrides.json``, which Binder installs too
  (tests/test_binder.py).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest
from browser.harness import SERVER_TIMEOUT, free_port, get_json, poll
from conftest import require_module, require_program

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "lessons").rglob("[0-9][0-9]_*.ipynb"))  # with the zh-CN editions
NOTIFICATION = "@jupyterlab/apputils-extension:notification"
# a path from the repository's root that a lesson's text names: minigrad/autograd/engine.py
SOURCE_PATH = re.compile(r"(?<![\w./-])((?:docs|minigrad|widgets)/[\w./-]*\w\.(?:md|py|png))")


def make_lab_command(*variables: str) -> list[str]:
    """The ``jupyter lab`` command of ``make lab``, with this environment as the venv."""
    make = require_program("make")
    bin_dir = Path(sys.executable).parent
    dry_run = subprocess.run(
        [make, "-n", "--no-print-directory", "lab", f"VENV={sys.prefix}", f"BIN={bin_dir}"]
        + list(variables),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = [line for line in dry_run.splitlines() if line.startswith(f"{bin_dir}/jupyter lab")]
    assert len(lines) == 1, f"no single `jupyter lab` line in `make -n lab`:\n{dry_run}"
    return shlex.split(lines[0])


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A server started as ``make lab`` starts it: (base URL, token)."""
    require_module("jupyterlab")
    command = make_lab_command()
    tmp = tmp_path_factory.mktemp("make-lab")
    env = dict(os.environ)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTERLAB_SETTINGS_DIR"):
        env[name] = str(tmp / name.lower())
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(tmp / "workspaces")
    port, token = free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    extra = ["--no-browser", "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0"]
    extra += [f"--IdentityProvider.token={token}"]
    if "--allow-root" not in command:
        extra.append("--allow-root")  # as root, `make lab` itself adds it (this may be CI's root)
    log = tmp / "server.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [*command, *extra],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:

        def up():
            assert server.poll() is None, f"jupyter lab exited:\n{log.read_text()}"
            return get_json(f"{base}/api/status?token={token}")

        poll(up, "`make lab`'s JupyterLab to answer", timeout=SERVER_TIMEOUT)
        yield base, token
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def test_make_lab_serves_the_repository_and_ignores_file_arguments():
    command = make_lab_command()
    assert any(arg.startswith("--ServerApp.root_dir=") for arg in command), command
    root = next(arg.split("=", 1)[1] for arg in command if arg.startswith("--ServerApp.root_dir="))
    assert Path(root).resolve() == ROOT
    # a notebook path as an argument would make its folder (lessons/) the root again
    assert not [arg for arg in command[2:] if not arg.startswith("--")], command


def test_the_chinese_edition_opens_with_lesson():
    """README.zh-CN.md's ``make lab LESSON=lessons/zh-CN/00_start_here.ipynb``."""
    lesson = "lessons/zh-CN/00_start_here.ipynb"
    assert (ROOT / lesson).exists()
    command = make_lab_command(f"LESSON={lesson}")
    assert f"--LabApp.default_url=/lab/tree/{lesson}" in command, command
    assert f"--ServerApp.root_dir={ROOT}" in command, command  # still the repository


def test_lesson_0_opens_first(lab):
    base, token = lab

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as redirect:
        opener.open(f"{base}/?token={token}", timeout=30)
    assert redirect.value.code in (301, 302)
    location = redirect.value.headers["Location"]
    assert location.split("?")[0] == "/lab/tree/lessons/00_start_here.ipynb"
    notebook = get_json(f"{base}/api/contents/lessons/00_start_here.ipynb?content=0&token={token}")
    assert notebook["type"] == "notebook"


def test_docs_and_sources_are_reachable(lab):
    base, token = lab
    docs = get_json(f"{base}/api/contents/docs?token={token}")
    assert docs["type"] == "directory"
    assert {"lessons.md", "widgets.md"} <= {item["name"] for item in docs["content"]}
    named = {
        path
        for lesson in LESSONS
        for cell in nbformat.read(lesson, as_version=4).cells
        if cell.cell_type == "markdown"
        for path in SOURCE_PATH.findall(cell.source)
    }
    assert "minigrad/autograd/engine.py" in named, "lesson 6 names the engine's source"
    for path in sorted(named):
        model = get_json(f"{base}/api/contents/{path}?content=0&token={token}")
        assert model["path"] == path


def test_no_news_pop_up_and_no_update_check(lab):
    base, token = lab
    reply = get_json(f"{base}/lab/api/settings/{NOTIFICATION}?token={token}")
    defaults = {k: v.get("default") for k, v in reply["schema"]["properties"].items()}
    assert defaults["fetchNews"] == "false"
    assert defaults["checkForUpdates"] is False
    assert reply["raw"] in ("", "{}"), "the user's own settings are empty here"
    overrides = json.loads((ROOT / ".jupyterlab-settings/overrides.json").read_text())
    assert overrides[NOTIFICATION] == {"fetchNews": "false", "checkForUpdates": False}
