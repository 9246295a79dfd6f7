# minigrad lessons: the only commands a person types.
#   make lab    JupyterLab on this repository, lesson 0 open (creates .venv on first use)
#   make test   lint, then every test (optional parts skip unless MINIGRAD_REQUIRE_ALL=1)
#   make bench  minigrad beside numpy and PyTorch (where installed)
#   make fuzz   the differential fuzzer: random programs in minigrad and PyTorch (N=20000)

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
LESSON ?= lessons/00_start_here.ipynb
# Jupyter refuses to run as root unless told; containers often are root.
ROOT_OK := $(if $(filter 0,$(shell id -u)),--allow-root)
# The repository is Jupyter's root, so docs/ and minigrad/ are a click away from the lessons;
# the browser opens $(LESSON). JupyterLab takes its settings defaults from the project
# (.jupyterlab-settings/overrides.json: no news pop-up, no update check; Binder installs the
# same file, see binder/postBuild); a learner's own settings still win, and nothing is written
# to the home folder. tests/test_make_lab.py starts this very command.
LAB_ARGS = --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/$(LESSON) \
	--LabApp.app_settings_dir="$(CURDIR)/.jupyterlab-settings"

.PHONY: lab test bench fuzz lint format clean

# One virtual environment, reused; each extra is installed once (a stamp file remembers).
$(BIN)/python:
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); echo "Python's venv module is missing." \
	  "On Debian/Ubuntu: sudo apt-get install python3-venv"; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.lab: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[lab]"
	@touch $@

$(VENV)/.dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[dev]"
	@touch $(VENV)/.lab $@

lab: $(VENV)/.lab
	@command -v dot >/dev/null || echo "note: Graphviz's 'dot' is missing, graphs show as text." \
	  "Install it: sudo apt-get install graphviz (Debian/Ubuntu), brew install graphviz (macOS)."
	$(BIN)/jupyter lab $(ROOT_OK) $(LAB_ARGS)

lint: $(VENV)/.dev
	$(BIN)/ruff check minigrad widgets tests bench
	$(BIN)/ruff format --check minigrad widgets tests bench

test: lint
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q

bench: $(VENV)/.dev
	$(BIN)/python bench/run.py

N ?= 20000
fuzz: $(VENV)/.dev
	$(BIN)/python -m tests.difffuzz --n $(N) --seed 0

format: $(VENV)/.dev
	$(BIN)/ruff format minigrad widgets tests bench
	$(BIN)/ruff check --fix minigrad widgets tests bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis test-artifacts
