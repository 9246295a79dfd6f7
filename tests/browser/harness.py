"""Run notebooks in a real JupyterLab or Notebook 7, in headless Chromium, driven by Playwright.

Reusable by every browser test (the graph view's, the lessons'). The facts it
rests on are in shared/notes/browser-testing.md; in short:

- ``JupyterLab(folder)`` copies ``folder`` to a temporary directory and starts
  an isolated JupyterLab on it (its own config, runtime, settings and workspace
  dirs, a random token, a free port), with this working tree on the kernel's
  ``PYTHONPATH``. Its settings defaults are the project's own
  (``.jupyterlab-settings/overrides.json``: no news, no update checks, as
  ``make lab`` and Binder have them) plus ``windowingMode: none``: every cell
  is attached and rendered when the notebook opens, not when the browser
  finds idle time, which comes late on a loaded machine. A context manager; it stops the
  server and removes the copy on exit. ``JupyterNotebook(folder)`` does the
  same with Notebook 7 (``jupyter notebook``: the same jupyter_server, the
  notebook app, a notebook at ``/notebooks/PATH``). Both are a
  ``JupyterServer``; a test written against one runs against the other.
- ``server.open("name.ipynb")`` launches Debian's Chromium (never a downloaded
  one) and returns a ``NotebookPage``, also a context manager: on exit it fails
  the test on any uncaught page error, and when the test failed it saves a
  screenshot, the page's HTML, the page errors and the server log into
  ``test-artifacts/``. The one exception: a front-end bug the server class
  lists in ``known_page_errors`` (matched on message *and* stack, kept in
  ``NotebookPage.known_errors`` and in the artifacts), such as Notebook 7.6's
  start-up race in its keyboard-shortcuts plugin.
- ``NotebookPage.wait_for_kernel()`` polls ``/api/sessions`` until the
  notebook's kernel exists, is idle and has a connection: the toolbar says
  "idle" too early, and Run All at that moment opens a "Select Kernel" dialog
  that hangs the test.
- ``run_all()`` uses the menu (Run > Run All Cells, the same in both apps; the
  item is clicked once it is enabled, matched by its whole label, not by
  "Restart Kernel and Run All Cells…"); ``wait_until_executed()`` waits until
  every code cell has an execution number; ``run_cell(i)`` runs one cell
  (Shift+Enter) and waits for it. No sleeps: Playwright's auto-wait.

Usage::

    from harness import JupyterLab, JupyterNotebook, require_browser

    def test_lesson():
        require_browser()                      # require_browser(JupyterNotebook) for Notebook 7
        with JupyterLab(LESSONS) as lab, lab.open("01_eggs.ipynb") as nb:
            nb.run_all()
            nb.wait_until_executed()
            expect(nb.page.locator(".jp-OutputArea-output").first).to_be_visible()
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import Any, ClassVar

from conftest import require_module, require_program

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PROJECT_SETTINGS = ROOT / ".jupyterlab-settings" / "overrides.json"
# what the test servers add to the project's settings defaults (see the module docstring)
TEST_OVERRIDES = {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}
# Sized for a 2-core machine with one core busy elsewhere: a failing wait costs its
# timeout once, a passing one returns as soon as its condition holds.
SERVER_TIMEOUT = 120.0  # seconds: server start, kernel start
CELL_TIMEOUT = 120_000  # milliseconds: one cell, or Run All; the page's default timeout
EXPECT_TIMEOUT = 60_000  # milliseconds: every expect(...), instead of Playwright's 5 s


def require_browser(server: type[JupyterServer] | None = None) -> str:
    """Chromium's path, with Playwright and the server's app importable; else skip (fail in CI).

    ``server`` is the class the test starts: ``JupyterLab`` (the default) or
    ``JupyterNotebook``.
    """
    playwright = require_module("playwright.sync_api")
    playwright.expect.set_options(timeout=EXPECT_TIMEOUT)
    require_module((server or JupyterLab).package)
    return require_program("chromium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read().decode())


def poll(check, what: str, timeout: float = SERVER_TIMEOUT, interval: float = 0.1) -> Any:
    """Call ``check()`` until it returns something truthy; a poll, not a sleep-and-hope."""
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        try:
            result = check()
            if result:
                return result
        except Exception as error:  # a transient 500 while the kernel starts, a refused port
            last_error = error
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what} ({last_error!r})")


@dataclass(frozen=True)
class KnownPageError:
    """An uncaught error of the Jupyter front end itself, not of the page under test.

    It is tolerated only when ``message`` is the error's whole message and
    ``stack`` (a regular expression) is found in its stack trace.
    """

    message: str
    stack: str
    why: str

    def matches(self, message: str, stack: str) -> bool:
        return message == self.message and re.search(self.stack, stack) is not None


class JupyterServer:
    """An isolated Jupyter server serving a temporary copy of ``folder``.

    Subclasses say which app (``jupyter <app>``), where a notebook opens, and
    which of the app's own page errors are known; the isolation is shared.
    """

    app: ClassVar[str]  # the ``jupyter`` subcommand
    package: ClassVar[str]  # the Python package that provides it
    title: ClassVar[str]  # for messages
    known_page_errors: ClassVar[tuple[KnownPageError, ...]] = ()

    def __init__(self, folder: Path | str, *, extra_env: dict[str, str] | None = None) -> None:
        self.source = Path(folder)
        self.extra_env = extra_env or {}
        self.token = secrets.token_hex(16)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.tmp: Path | None = None
        self.root: Path | None = None
        self.process: subprocess.Popen | None = None
        self.log_path: Path | None = None
        self.started = 0.0

    # -- server ----------------------------------------------------------------------

    def __enter__(self) -> JupyterServer:
        self.started = time.perf_counter()
        self.tmp = Path(tempfile.mkdtemp(prefix=f"minigrad-{self.app}-"))
        self.root = self.tmp / "root"
        shutil.copytree(self.source, self.root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        env = self._env()
        self.log_path = self.tmp / "server.log"
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "jupyter", self.app, *self._args()],
                env=env,
                cwd=self.root,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # its own process group: stop() ends it and its kernels
            )
        try:
            poll(self._status_ok, f"{self.title} to answer /api/status")
            self._check_overrides()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        for name in ("config", "runtime", "settings", "workspaces", "data", "app-settings"):
            (self.tmp / name).mkdir()
        env["JUPYTER_CONFIG_DIR"] = str(self.tmp / "config")
        env["JUPYTER_RUNTIME_DIR"] = str(self.tmp / "runtime")
        env["JUPYTERLAB_SETTINGS_DIR"] = str(self.tmp / "settings")
        env["JUPYTERLAB_WORKSPACES_DIR"] = str(self.tmp / "workspaces")
        env["IPYTHONDIR"] = str(self.tmp / "ipython")
        overrides = json.loads(PROJECT_SETTINGS.read_text())
        for plugin, values in TEST_OVERRIDES.items():
            overrides.setdefault(plugin, {}).update(values)
        (self.tmp / "app-settings" / "overrides.json").write_text(json.dumps(overrides))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
        env.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
        env.update(self.extra_env)
        return env

    def _args(self) -> list[str]:
        return [
            "--no-browser",
            "--allow-root",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            # both apps read settings defaults from their own app_settings_dir; `jupyter
            # notebook` loads the jupyterlab extension as well, whose /lab/api/settings wins
            f"--LabApp.app_settings_dir={self.tmp / 'app-settings'}",
            f"--JupyterNotebookApp.app_settings_dir={self.tmp / 'app-settings'}",
            # the jupyterlab server extension is loaded by `jupyter notebook` too: no news,
            # no update checks on the server's side either, in either app
            "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]

    def _check_overrides(self) -> None:
        """The app took the settings defaults: a misspelt option would be ignored silently."""
        tracker = self.settings_schema("@jupyterlab/notebook-extension:tracker")
        mode = tracker["properties"]["windowingMode"]["default"]
        if mode != "none":
            raise RuntimeError(f"{self.title} ignored the test overrides: windowingMode={mode}")

    def _status_ok(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"{self.title} exited with {self.process.returncode}:\n{self.log()}")
        return bool(get_json(self.api("status")))

    def api(self, path: str) -> str:
        return f"{self.base}/api/{path}?token={self.token}"

    def url(self, notebook: str) -> str:
        """Where the app opens ``notebook`` (a path inside the folder)."""
        raise NotImplementedError

    def known_page_error(self, message: str, stack: str) -> KnownPageError | None:
        """The entry of ``known_page_errors`` this page error is, if any."""
        return next((k for k in self.known_page_errors if k.matches(message, stack)), None)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path else ""

    def settings_schema(self, plugin: str) -> dict[str, Any]:
        """A plugin's settings schema as the server hands it to the page (overrides applied)."""
        return get_json(f"{self.base}/lab/api/settings/{plugin}?token={self.token}")["schema"]

    def kernels(self) -> list[dict[str, Any]]:
        return get_json(self.api("kernels"))

    def sessions(self) -> list[dict[str, Any]]:
        """The open notebooks' sessions: ``path`` (inside the folder) and ``kernel``."""
        return get_json(self.api("sessions"))

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait(timeout=15)
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)

    # -- notebooks --------------------------------------------------------------------

    def open(self, notebook: str, name: str | None = None, scale: float = 1) -> NotebookPage:
        """A browser page on ``notebook`` (a path inside the folder).

        ``name`` labels the artifacts; ``scale`` is the device pixel ratio (2 for
        sharp screenshots).
        """
        return NotebookPage(self, notebook, name or Path(notebook).stem, scale)


class JupyterLab(JupyterServer):
    """An isolated JupyterLab 4 serving a temporary copy of ``folder``."""

    app = "lab"
    package = "jupyterlab"
    title = "JupyterLab"

    def url(self, notebook: str) -> str:
        return f"{self.base}/lab/tree/{notebook}?reset&token={self.token}"


class JupyterNotebook(JupyterServer):
    """An isolated Notebook 7 (``jupyter notebook``) serving a temporary copy of ``folder``.

    The same server, kernels and ``/api``, one notebook a page at
    ``/notebooks/PATH``, the same menu bar (Run > Run All Cells) and cell DOM
    (``.jp-CodeCell``, ``.jp-InputArea-prompt``, ``.jp-OutputArea-output``).
    """

    app = "notebook"
    package = "notebook"
    title = "Notebook 7"
    known_page_errors = (
        KnownPageError(
            message="Cannot read properties of undefined (reading 'schema')",
            # thrown in Notebook's own bundle, from a pluginChanged handler called by
            # SettingRegistry.load
            stack=r"^TypeError: .*\n\s+at \S*/static/notebook/notebook_core\.[0-9a-f]+\.js"
            r"(?s:.*)\bat \S*\.load \(\S*/static/notebook/notebook_core\.",
            why=(
                "Notebook 7.6 start-up race, on every page load and with no notebook widget "
                "at all: @jupyterlab/docmanager-extension force-reloads its settings (its "
                "document registry changed) before @jupyterlab/shortcuts-extension has loaded "
                "its own, and the shortcuts plugin's pluginChanged handler reads "
                "registry.plugins['@jupyterlab/shortcuts-extension:shortcuts'].schema, still "
                "undefined. The shortcuts load right after; keyboard shortcuts work."
            ),
        ),
    )

    def url(self, notebook: str) -> str:
        return f"{self.base}/notebooks/{notebook}?token={self.token}"


class NotebookPage:
    """One notebook open in headless Chromium; ``page`` is Playwright's ``Page``."""

    def __init__(self, lab: JupyterServer, notebook: str, name: str, scale: float = 1) -> None:
        self.lab = lab  # the server, JupyterLab or JupyterNotebook (also ``self.server``)
        self.server = lab
        self.scale = scale
        self.notebook = notebook
        self.name = name
        self.errors: list[str] = []
        self.known_errors: list[str] = []  # the server's known_page_errors that happened
        self.console_errors: list[str] = []
        # the page's widget messages to its kernel (Jupyter's comm_msg), in order
        self.comm_messages_sent: list[str | bytes] = []
        self._playwright = None
        self._context = None
        self.page = None

    def __enter__(self) -> NotebookPage:
        from playwright.sync_api import sync_playwright

        self._profile = tempfile.mkdtemp(prefix="minigrad-chromium-")
        self._playwright = sync_playwright().start()
        try:
            self._context = self._playwright.chromium.launch_persistent_context(
                self._profile,
                executable_path=shutil.which("chromium"),
                headless=True,
                args=CHROMIUM_ARGS,
                viewport={"width": 1280, "height": 1000},
                device_scale_factor=self.scale,
            )
            self._context.set_default_timeout(CELL_TIMEOUT)
            self.page = self._context.new_page()
            self.page.on("pageerror", self._page_error)
            self.page.on("websocket", self._websocket)
            self.page.on(
                "console",
                lambda msg: self.console_errors.append(msg.text) if msg.type == "error" else None,
            )
            self.page.goto(self.lab.url(self.notebook))
            self.wait_rendered()
        except BaseException:
            self.__exit__(*sys.exc_info())
            raise
        return self

    def _websocket(self, socket: Any) -> None:
        if "/api/kernels/" in socket.url:
            socket.on("framesent", self._frame_sent)

    def _frame_sent(self, payload: str | bytes) -> None:
        if ("comm_msg" if isinstance(payload, str) else b"comm_msg") in payload:
            self.comm_messages_sent.append(payload)

    def _page_error(self, error: Any) -> None:
        message, stack = str(error), getattr(error, "stack", None) or ""
        known = self.lab.known_page_error(message, stack)
        if known is None:
            self.errors.append(message)
        else:
            self.known_errors.append(f"{message} (known: {known.why})\n{stack}")

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if kind is None and self.errors:
                kind = AssertionError
                self.save_artifacts("page-errors")
                raise AssertionError("errors in the page:\n" + "\n".join(self.errors))
            if kind is not None and self.page is not None:
                self.save_artifacts("failed")
        finally:
            if self._context is not None:
                self._context.close()
            if self._playwright is not None:
                self._playwright.stop()
            shutil.rmtree(self._profile, ignore_errors=True)

    # -- kernel and cells ---------------------------------------------------------------

    def wait_rendered(self) -> None:
        """Until the page shows as many cells as the notebook file has (all attached)."""
        from playwright.sync_api import expect

        assert self.lab.root is not None
        cells = json.loads((self.lab.root / self.notebook).read_text())["cells"]
        expect(self.page.locator(".jp-Notebook .jp-Cell")).to_have_count(len(cells))

    def wait_for_kernel(self) -> dict[str, Any]:
        """Until the notebook's kernel is idle and connected (see the module docstring).

        The kernel is this notebook's, found through its session: with a second
        notebook open on the same server, the first one's kernel, idle and
        still connected, must not let Run All go before this one exists.
        """
        path = PurePosixPath(self.notebook)

        def ready():
            for session in self.lab.sessions():
                kernel = session.get("kernel") or {}
                if (
                    PurePosixPath(session.get("path", "")) == path
                    and kernel.get("execution_state") == "idle"
                    and kernel.get("connections", 0) > 0
                ):
                    return kernel
            return None

        return poll(ready, "the kernel to be idle and connected")

    def menu(self, *path: str) -> None:
        """Click through the menu bar: ``menu("Run", "Run All Cells")``.

        Each label is matched whole ("Run All Cells" is not "Restart Kernel and
        Run All Cells…"), and an item is clicked once it is enabled: a click on a
        disabled Lumino item does nothing, and the test would wait in vain.
        """
        top, *rest = path
        bar = self.page.locator(".lm-MenuBar-item", has=self._label(".lm-MenuBar-itemLabel", top))
        bar.first.click()
        for label in rest:
            item = self.page.locator(".lm-Menu-item:not(.lm-mod-disabled)")
            item.filter(has=self._label(".lm-Menu-itemLabel", label)).first.click()

    def _label(self, selector: str, text: str):
        return self.page.locator(selector, has_text=re.compile(rf"^\s*{re.escape(text)}\s*$"))

    def code_cells(self):
        return self.page.locator(".jp-Notebook .jp-CodeCell")

    def run_all(self) -> None:
        self.wait_for_kernel()
        self.menu("Run", "Run All Cells")

    def wait_until_executed(self, timeout: float = CELL_TIMEOUT) -> None:
        """Until every code cell shows an execution number (none is queued or running)."""
        self.page.wait_for_function(
            """() => {
                const prompts = [...document.querySelectorAll(
                    '.jp-Notebook .jp-CodeCell .jp-InputArea-prompt')];
                return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
            }""",
            timeout=timeout,
        )

    def run_cell(self, index: int, timeout: float = CELL_TIMEOUT) -> None:
        """Run code cell ``index`` (0-based) with Shift+Enter and wait until it finished."""
        self.wait_for_kernel()
        cell = self.code_cells().nth(index)
        prompt = cell.locator(".jp-InputArea-prompt")
        before = prompt.text_content()
        prompt.click()  # selects the cell, in command mode
        self.page.keyboard.press("Shift+Enter")
        self.page.wait_for_function(
            """([cell, before]) => {
                const p = cell.querySelector('.jp-InputArea-prompt').textContent;
                return /\\[\\d+\\]/.test(p) && p !== before;
            }""",
            arg=[cell.element_handle(), before],
            timeout=timeout,
        )

    def outputs(self, index: int):
        """The output area of code cell ``index``."""
        return self.code_cells().nth(index).locator(".jp-OutputArea-output")

    # -- evidence -----------------------------------------------------------------------

    def save_artifacts(self, why: str) -> Path:
        """Screenshot, HTML, page errors and server log into test-artifacts/."""
        ARTIFACTS.mkdir(exist_ok=True)
        stem = ARTIFACTS / f"{self.name}-{why}"
        try:
            self.page.screenshot(path=f"{stem}.png", full_page=True)
            Path(f"{stem}.html").write_text(self.page.content())
        except Exception as error:  # a crashed page: keep what can be kept
            Path(f"{stem}.screenshot-error.txt").write_text(repr(error))
        Path(f"{stem}.errors.txt").write_text(
            "page errors:\n" + "\n".join(self.errors) + "\n\nconsole errors:\n"
            + "\n".join(self.console_errors) + "\n\nknown page errors (tolerated):\n"
            + "\n".join(self.known_errors)
        )  # fmt: skip
        Path(f"{stem}.server.log").write_text(self.lab.log())
        return stem


__all__ = [
    "JupyterLab",
    "JupyterNotebook",
    "JupyterServer",
    "KnownPageError",
    "NotebookPage",
    "require_browser",
    "ARTIFACTS",
    "CELL_TIMEOUT",
    "EXPECT_TIMEOUT",
    "free_port",
    "get_json",
    "poll",
]
