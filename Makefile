# The two commands: `make run` plays, `make test` checks. Each sets itself up on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUN_STAMP  := $(VENV)/.run-installed
DEV_STAMP  := $(VENV)/.dev-installed

.PHONY: run test bench lint typecheck run-packages test-packages clean

# The Debian packages come before the venv (it needs python3-venv), also under make -j:
# the test tools' when a goal tests or checks (the dev venv), else the app's; one script
# run either way. lint and typecheck alone ask only when they make the venv.
GOALS    := $(or $(MAKECMDGOALS),run)
PACKAGES := $(if $(filter test bench lint typecheck,$(GOALS)),test,run)-packages
ifeq ($(filter-out lint typecheck,$(GOALS))$(wildcard $(VENV)/bin/python),$(VENV)/bin/python)
PACKAGES :=
endif

run: $(RUN_STAMP)
	@if [ -z "$(ARGS)" ] && ! $(BIN)/python -m tabletop.ui.launch --probe; then \
		echo "No display here: playing the offscreen demo (tabletop demo)."; \
		$(BIN)/tabletop demo; \
	else $(BIN)/tabletop $(ARGS); fi

test: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict tabletop vision hardware
	$(BIN)/lint-imports --no-cache
	$(BIN)/pytest

bench: $(DEV_STAMP)
	$(BIN)/tabletop bench --games $(or $(GAMES),1000)
	$(BIN)/pytest tests -m bench --benchmark-enable --benchmark-only -q -p no:randomly -n 0

lint: $(DEV_STAMP)
	$(BIN)/ruff check .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy --strict tabletop vision hardware

# The Debian packages: the app's for `run`, the app's and the test tools' for `test`.
run-packages test-packages: %-packages:
	@sh scripts/system-packages.sh $*

$(VENV)/bin/python: | $(PACKAGES)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install --quiet -e .
	@touch $@

$(DEV_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $(RUN_STAMP) $@

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
