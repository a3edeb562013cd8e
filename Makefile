# Heterodox: set-up, build, test, lint, demo and benchmarks.
#
# The contract: on a fresh clone with nothing installed by hand, `make test`
# does all the set-up itself and runs every test (this is what .ci/run does).
#
#   make setup   virtual environment with PyTorch (libtorch for tch), numpy,
#                maturin, pytest, selenium, pandas, scipy and statsmodels,
#                installed by uv; the .libtorch link; Debian's chromium and
#                chromium-driver for the browser test of `heterodox serve`
#                (apt, only when missing)                          (idempotent)
#   make build   release build of the Rust crates and of the Python extension
#   make test    setup, then every Rust test, the Python tests and the lint
#                (the target: 20 minutes from a fresh clone on 2 cores; README.md
#                gives the last measured time)
#   make check   the inner loop: rustfmt, clippy and the tests of the crates
#                a change touches (against git's HEAD; CRATES=... names them)
#   make lint    rustfmt and clippy, warnings as errors
#   make train   the main job: trains a small Hostage Chess agent on CPU (about
#                a quarter of an hour), prints its scores, writes the plots
#   make demo    a perft run, a random game and a short self-play run with the CLI
#   make bench   the criterion benchmarks
#   make bench-quick  the headline figures against their records (~2 min)
#   make notebook  the notebooks (notebooks/*.ipynb) in JupyterLab, installed on first use
#   make selections  the Traitor selection strategies the engine ships (~40 min)
#
# No environment variables are needed: .cargo/config.toml points LIBTORCH at
# .libtorch and gives binaries an rpath to .libtorch/lib.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := test
.DELETE_ON_ERROR:

CARGO ?= cargo
VENV := .venv
PYTHON := $(VENV)/bin/python
# The PyTorch version must be the one the `tch` crate was made for
# (tch 0.24 <-> PyTorch 2.11.0): torch-sys compiles against its headers.
PIP_PACKAGES := torch==2.11.0 numpy maturin pytest gymnasium==1.4.0 pettingzoo==1.27.0 matplotlib==3.11.2 safetensors==0.8.0 ray==2.60.0 selenium==4.51.0 moviepy==2.2.1 pandas==3.1.1 scipy==1.17.1 statsmodels==0.15.0
# The installer of PIP_PACKAGES (into the venv, beside pip).
UV := uv==0.13.10
# The browser test of `heterodox serve` (python/tests/test_serve_browser.py)
# drives Debian's Chromium through its driver.
BROWSER_PACKAGES := chromium chromium-driver
SETUP_STAMP := .setup-stamp
# The PyO3 extension crate: built by maturin, not by `cargo test` (an
# extension module leaves Python's symbols to the interpreter, so a test
# binary of it cannot link). Its manifest asks for the features the rest of
# the workspace turns on in the dependencies they share, and the root's for
# PyO3's in syn: so maturin reuses the test build's artifacts and compiles
# only PyO3 and the extension (tools/build-extension checks it).
PYTHON_CRATE := heterodox-python
PYTHON_MANIFEST := python/Cargo.toml
PYTHON_TESTS := python/tests
# The profile `make test` and `make check` build (Cargo.toml: release
# optimisation without LTO); the Python tests run its CLI through
# $HETERODOX_BIN and its extension module.
TEST_PROFILE := quick
TEST_BIN := $(abspath target/$(TEST_PROFILE)/heterodox)

.PHONY: setup build build-rust build-python build-test test test-rust test-python lint fmt check train demo bench bench-quick notebook selections

# --- set-up -----------------------------------------------------------------

setup: $(SETUP_STAMP)

# The stamp records a finished set-up, so later runs skip pip entirely. If a
# piece the set-up made has gone since (venv or link deleted), the stamp no
# longer counts and the set-up runs again.
ifeq ($(and $(wildcard $(PYTHON)),$(wildcard .libtorch/lib/libtorch_cpu.so),$(shell command -v chromedriver)),)
.PHONY: $(SETUP_STAMP)
endif

$(SETUP_STAMP): Makefile
	@echo "== setup: virtual environment $(VENV)"
	[ -x $(PYTHON) ] || python3 -m venv $(VENV)
	@# uv installs the same wheels from PyPI as pip would, downloading and
	@# unpacking them in parallel: 41 s against pip's 276 s for this list
	@# on the 2-core machine (PyTorch's CUDA wheels are some 3 GB).
	@# --compile-bytecode: every module compiled here, once (about 30 s),
	@# not by each process that imports it. Where Python writes no bytecode
	@# (PYTHONDONTWRITEBYTECODE=1, as on the machine that measured it), the
	@# Ray actors and the tests' subprocesses otherwise compile torch, ray
	@# and pandas from source at every start (the Python and Ray tests of
	@# a fresh clone: 3m45s with it, 5m42s without).
	$(PYTHON) -m pip install --disable-pip-version-check --progress-bar off $(UV)
	$(VENV)/bin/uv pip install --python $(PYTHON) --compile-bytecode $(PIP_PACKAGES)
	@# The pip wheel of PyTorch holds a complete libtorch (include/, lib/).
	@# Link to it with a relative path computed from the venv's own Python
	@# (so the python3.X part is never hard-coded, and the checkout can move).
	ln -sfn "$$($(PYTHON) -c 'import importlib.util, os; \
	    spec = importlib.util.find_spec("torch"); \
	    print(os.path.relpath(spec.submodule_search_locations[0]))')" .libtorch
	test -f .libtorch/lib/libtorch_cpu.so
	@echo "== setup: .libtorch -> $$(readlink .libtorch)"
	@# apt only when a binary is missing (CI runs as root on a fresh Debian
	@# machine; elsewhere sudo is asked for without a prompt).
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then \
	    echo "== setup: chromium and chromedriver present"; \
	else \
	    echo "== setup: apt-get install $(BROWSER_PACKAGES)"; \
	    apt="env DEBIAN_FRONTEND=noninteractive apt-get"; \
	    if [ "$$(id -u)" != 0 ]; then apt="sudo -n $$apt"; fi; \
	    $$apt install -y --no-install-recommends $(BROWSER_PACKAGES) \
	        || { $$apt update && $$apt install -y --no-install-recommends $(BROWSER_PACKAGES); }; \
	    command -v chromedriver >/dev/null; \
	fi
	touch $@

# --- build ------------------------------------------------------------------

build: build-rust build-python

# Default members: the CLI, the rules core and the networks.
build-rust: setup
	$(CARGO) build --release

# `maturin develop` builds the extension and installs it into the venv;
# VIRTUAL_ENV tells it which environment to install into.
build-python: setup
	@if [ -f $(PYTHON_MANIFEST) ]; then \
	    echo "== build: Python extension"; \
	    VIRTUAL_ENV="$(abspath $(VENV))" $(VENV)/bin/maturin develop --release -m $(PYTHON_MANIFEST); \
	else \
	    echo "== build: no $(PYTHON_MANIFEST), skipping the Python extension"; \
	fi

# --- tests ------------------------------------------------------------------

test: test-rust test-python lint

# The CLI binaries and the extension module the Python tests run, in the
# test profile. The binaries are the ones `cargo test` builds for the
# integration tests (target/quick/heterodox, heterodox-net): asked for the
# same way, so after test-rust nothing is rebuilt (a plain `cargo build`
# resolves the dependencies' features without the dev-dependencies and
# would compile much of the workspace again, 2 minutes on 2 cores).
build-test: setup
	$(CARGO) test --profile $(TEST_PROFILE) --workspace --exclude $(PYTHON_CRATE) --tests --no-run
	tools/build-extension "$(abspath $(VENV))" $(TEST_PROFILE) $(PYTHON_MANIFEST)

# Unit, integration and doc tests of every crate but the extension; all of
# them run even when one fails, so one CI log shows every failure.
# `--tests` leaves out the examples, which a plain `cargo test` links but
# never runs (40 s of a fresh build on 2 cores); clippy's `--all-targets`
# still compiles them. The doc tests need a run of their own (`--doc`
# mixes with no other target).
test-rust: setup
	$(CARGO) test --profile $(TEST_PROFILE) --workspace --exclude $(PYTHON_CRATE) --tests --no-fail-fast
	$(CARGO) test --profile $(TEST_PROFILE) --workspace --exclude $(PYTHON_CRATE) --doc --no-fail-fast
	@# The test-only variant (env feature `test-variant`, King of the Hill):
	@# one build of env, engine and training with it, run twice: env's
	@# conformance suite and perft driver (what adding a variant takes),
	@# then above env, where its dispatch is built from the registry
	@# (`heterodox_env::for_each_variant!`): the engine evaluates (generic
	@# knowledge), searches and benchmarks it; the piece-values claim plays
	@# it with its material inventory. Never part of a normal build.
	@# The first command names engine and training too, though only env
	@# has those tests: Cargo unifies the dependencies' features over the
	@# packages named, and so builds them once for both commands (env alone
	@# rebuilt serde, syn and the rest with other features, most of a
	@# minute). The second leaves env out: `--lib` would build its unit tests.
	@# Naming the root package too would resolve every third-party crate as
	@# the tests above did, but its library then wants training's too, built
	@# a second time beside training's tests: 30 s + 2m40s against 52 s + 1m42s.
	$(CARGO) test --profile $(TEST_PROFILE) -p heterodox-env -p heterodox-engine -p heterodox-training \
	    --features heterodox-training/test-variant --no-fail-fast --test conformance --test perft
	$(CARGO) test --profile $(TEST_PROFILE) -p heterodox-engine -p heterodox-training \
	    --features heterodox-training/test-variant --no-fail-fast --lib --test test_variant \
	    -- king_of_the_hill registered_variant

# python/run-tests: every skip a failure (a skipped parity test is a broken
# run), the Ray tests in a pytest of their own (the script says why).
test-python: build-test
	HETERODOX_BIN=$(TEST_BIN) HETERODOX_CARGO_PROFILE=$(TEST_PROFILE) python/run-tests $(PYTHON) $(PYTHON_TESTS)

# The inner loop: format, lint and the tests of the crates that differ from
# git's HEAD (or CRATES="heterodox-env heterodox-engine"), plus the Python
# tests when python/ changed. Not a substitute for `make test`.
check: setup
	$(CARGO) fmt --all --check
	$(CARGO) clippy --profile $(TEST_PROFILE) --workspace --all-targets -- -D warnings
	@crates="$${CRATES:-$$(tools/changed-crates)}"; \
	if [ -n "$$crates" ]; then \
	    echo "== check: cargo test $$crates"; \
	    $(CARGO) test --profile $(TEST_PROFILE) $$(printf -- '-p %s ' $$crates); \
	else echo "== check: no Rust crate changed"; fi
	@if git status --porcelain -- python | grep -q .; then \
	    $(MAKE) --no-print-directory build-test && \
	    HETERODOX_BIN=$(TEST_BIN) $(PYTHON) -m pytest -q -x $(PYTHON_TESTS) --ignore-glob '*test_ray*'; \
	fi

# --- lint -------------------------------------------------------------------

# One clippy over every crate, the Python extension's (clippy does not link,
# so it needs no interpreter symbols) and the test-only variant's code
# included; in the test profile, whose build-script outputs (torch-sys
# compiles its C++ wrapper once per profile, minutes) the tests made.
lint: setup
	$(CARGO) fmt --all --check
	$(CARGO) clippy --profile $(TEST_PROFILE) --workspace --all-targets \
	    --features heterodox-training/test-variant -- -D warnings

fmt:
	$(CARGO) fmt --all

# --- training, demo and benchmarks ------------------------------------------

# A new run directory each time (runs/ is git-ignored); `RUN=... make train`
# names another. The plots need only matplotlib (python/heterodox/plot.py
# imports nothing of the native module, so no extension build is needed).
RUN ?= runs/hostage-$(shell date +%Y%m%d-%H%M%S)
train: build-rust
	target/release/heterodox train --config configs/hostage.toml --run $(RUN)
	@$(PYTHON) python/heterodox/plot.py $(RUN) | sed 's/^/plot:         /'


# The Traitor selection strategies the engine ships (docs/hidden.md): every
# rule set with a selection phase, about 40 minutes on one core, most of it
# Defector-Double Agent Standard, whose double oracle stops at 12 iterations
# (its file states the exploitability left).
# Mercenary is left out: its strategies lost games (docs/hidden.md).
SELECTION_MODES = traitor defector double-agent defector-double-agent
selections: build-rust
	for commitment in standard simplified; do for mode in $(SELECTION_MODES); do \
	    iterations=100; \
	    if [ $$mode-$$commitment = defector-double-agent-standard ]; then iterations=12; fi; \
	    target/release/heterodox selection --variant traitor --mode $$mode \
	        --commitment $$commitment --depth 3 --iterations $$iterations \
	        --out engine/src/hidden/selections/traitor-$$mode-$$commitment.json || exit 1; \
	done; done

demo: build-rust
	target/release/heterodox perft --variant chess --depth 4
	target/release/heterodox play --random --seed 1
	target/release/heterodox selfplay --variant hostage --net uniform --games 16 --sims 64 --out runs/demo --pgn

# The headline figures (perft against shakmaty, the Python VecEnv loop,
# MCTS simulations/s, engine nodes/s, serve requests/s), each beside its
# record in bench/README.md with the ratio: about two minutes of the release
# build (bench/quick.py says what each figure is).
bench-quick: build
	CARGO="$(CARGO)" $(PYTHON) bench/quick.py

# The notebooks (notebooks/*.ipynb) in JupyterLab, on the release build and
# the set-up's venv (pandas, scipy and statsmodels come with `make setup`;
# JupyterLab is installed here, once, since the tests do not need it).
JUPYTERLAB := jupyterlab==4.6.6
notebook: build
	[ -x $(VENV)/bin/jupyter-lab ] || $(PYTHON) -m pip install --disable-pip-version-check --progress-bar off $(JUPYTERLAB)
	$(VENV)/bin/jupyter-lab notebooks/

# `--bench '*'` runs only the bench targets (not the libraries' unit tests in
# bench mode).
bench: setup
	$(CARGO) bench --workspace --exclude $(PYTHON_CRATE) --bench '*'
