# bterm — see README.md. Two commands on a fresh machine: `make run`, `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := run

# One cargo target directory outside the clone, so CI and every checkout share
# the (long) Bevy build. Override with CARGO_TARGET_DIR=... if you like.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/bterm/target
export CARGO_TERM_COLOR ?= never

# bterm's own crates are compiled by clippy's driver: the same compile with
# clippy's lints on top, so linting needs no build of its own. (`cargo
# clippy` checks every dependency again apart from the test build's: with
# Bevy that was 11 of a cold CI's 59 minutes.) Every build here shares this
# one setting, so `make lint`, `make test` and `make run` share artifacts.
# Lints only warn while building; `make lint` and `make test` fail on any
# warning (scripts/no-warnings). Without clippy installed this is empty and
# rustc builds alone.
export RUSTC_WORKSPACE_WRAPPER := $(shell command -v clippy-driver)
NO_WARNINGS := scripts/no-warnings

# Debian packages the build and the window need.
DEB_PACKAGES := pkg-config libasound2-dev libudev-dev libwayland-dev libxkbcommon-dev \
                libx11-dev mold xvfb xauth mesa-vulkan-drivers libclang-dev

.PHONY: deps build run test test-core lint check-camera bench bench-scan bench-frame bench-memory bench-alpha bench-collection bench-dcg bench-clash clash-strength dcg-soak alpha-soak alpha-strength dcg-strength lan-soak scans frames webcam3 pyenv screenshot screenshots fuzz decoys

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# The game on the built-in sample set. Without a display it runs under a
# virtual one (xvfb), so the command works on a headless machine too.
# Built as `make test` builds the arena's tests (which build the binary
# too), so the two share every artifact: dev-dependencies change some shared
# crates' features.
BTERM := $(CARGO_TARGET_DIR)/debug/bterm
# The targets that need the arena (see `test`).
ARENA_TESTS := --lib --bins --test arena --test framing --test screenshots --bench frame
# The core's build: every target without Bevy.
CORE_TARGETS := --workspace --no-default-features --all-targets

build:
	cargo test --no-run $(ARENA_TESTS)

run: deps build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then $(BTERM) play $(ARGS); \
	else echo "no display: running under xvfb-run (nothing will be visible; ARGS=\"--screenshot shot.png\" saves a frame)"; \
	  XDG_RUNTIME_DIR=$${XDG_RUNTIME_DIR:-$$(mktemp -d)} xvfb-run -a -s "-screen 0 1280x720x24" $(BTERM) play $(ARGS); fi

# Everything: the core without Bevy (and a check that Bevy stays out of it),
# then what needs the arena: the library's and binary's own tests with Bevy
# (the core's unit tests again among them), the headless arena, framing and
# the rendered tour, and the frame bench's quick pass. The other integration
# tests ran in test-core and are not linked against Bevy a second time
# (each such binary links the whole game: that was most of a cold build).
test: deps test-core
	$(NO_WARNINGS) test --no-run $(ARENA_TESTS)
	cargo test $(ARENA_TESTS)

test-core:
	@n=$$(cargo tree --no-default-features -e normal --prefix none | grep -c '^bevy' || true); \
	if [ "$$n" != 0 ]; then echo "error: the core pulls in Bevy ($$n bevy crates without the arena feature)"; exit 1; fi; \
	echo "core dependency tree: no Bevy"
	$(NO_WARNINGS) test --no-run $(CORE_TARGETS)
	cargo test $(CORE_TARGETS)
	# A short LAN soak on loopback (make lan-soak runs the long one).
	cargo run -q --no-default-features --example lan_soak -- 12

# Random and damaged images, card files, replays and tunables (tests/fuzz.rs):
# make test runs 48 cases a target; this runs FUZZ_CASES (about 8 min here).
FUZZ_CASES ?= 20000
fuzz:
	BTERM_FUZZ_CASES=$(FUZZ_CASES) cargo test --no-default-features --test fuzz -- --nocapture

# The 1,000 seeded pictures with no barcode (src/barcode/decoys.rs) through
# the release reader: none may give a symbol (make test runs a few).
decoys:
	BTERM_DECOYS=1000 cargo test --release --no-default-features --test decoys -- --nocapture

# Peak memory of big scans and a 1,000-card print (benches/memory.rs).
bench-memory:
	cargo bench --no-default-features --bench memory

# Formatting, then clippy's lints and rustc's warnings over every target, with
# and without the arena (the examples that need it too), as the builds
# `make test` uses: see RUSTC_WORKSPACE_WRAPPER above.
lint:
	cargo fmt --all --check
	@[ -n "$(RUSTC_WORKSPACE_WRAPPER)" ] || { echo "error: clippy is not installed (rustup component add clippy)"; exit 1; }
	$(NO_WARNINGS) test --no-run $(CORE_TARGETS)
	$(NO_WARNINGS) test --no-run $(ARENA_TESTS) --example effects --example figures

# The game's default build has the webcam (nokhwa; libclang-dev from `make
# deps`); this checks the core with it too (`bterm scan --camera` without Bevy).
check-camera: deps
	cargo clippy --no-default-features --features camera --lib -- -D warnings

bench:
	cargo bench --no-default-features --benches

# The committed test scans in barcodes/ (printed cards and photo-like shots).
scans:
	cargo run --release --no-default-features --example make_scans barcodes

# bterm against zxing-cpp (PyPI), side by side, on four sets: real
# photographs of codes from ZXing's test suite (barcodes/real), webcam-like
# frames from a second generator (barcodes/frames), bterm's own photo-like
# scans (barcodes/photos) and real photographs with no barcode
# (barcodes/none): files read, wrong reads, median and 90th-percentile time.
# Installs zxing-cpp, Pillow and numpy into a virtualenv beside the cargo
# target directory.
PYENV := $(CARGO_TARGET_DIR)/bench-scan-venv
SCAN_SETS := barcodes/real barcodes/frames barcodes/photos barcodes/none barcodes/quagga2 barcodes/webcam3
pyenv:
	@test -x $(PYENV)/bin/python || python3 -m venv $(PYENV)
	@$(PYENV)/bin/python -c "import zxingcpp, PIL, numpy" 2>/dev/null || \
	  $(PYENV)/bin/pip install -q "zxing-cpp==3.1.1" "pillow==13.0.0" "numpy==2.4.6"

bench-scan: pyenv
	cargo build --release --no-default-features
	$(PYENV)/bin/python -W ignore scripts/bench_scan.py $(CARGO_TARGET_DIR)/release/bterm $(SCAN_SETS)

# The second generator's frames (barcodes/frames), made again.
frames: pyenv
	rm -rf barcodes/frames.new && $(PYENV)/bin/python scripts/make_frames.py barcodes/frames.new 8
	cp barcodes/frames/README.md barcodes/frames.new/ && rm -rf barcodes/frames && mv barcodes/frames.new barcodes/frames

# The third generator's frames (barcodes/webcam3), made again (seed 3; the
# README says how many zxing-cpp reads).
webcam3: pyenv
	$(PYENV)/bin/python scripts/make_webcam3.py barcodes/webcam3 3 --check

# A frame of the game as the player sees it, under a virtual display.
screenshot: deps build
	mkdir -p target/screenshots
	xvfb-run -a -s "-screen 0 1280x720x24" $(BTERM) play --screenshot target/screenshots/title.png

# The real game driven through every screen (attract, collection, rankings,
# scan, battle, result, replay, gallery and its choices) with scripted
# presses, and a short clip; one PNG per screen in target/screenshots,
# each checked to be a real frame with its stage and HUD.
screenshots: deps
	BTERM_SCREENSHOTS=$(CURDIR)/target/screenshots cargo test --test screenshots -- --nocapture
	@ls -1 target/screenshots/*.png

# Frame time of the battle scene against an empty Bevy 3D scene, rendered
# off-screen at 1280x720. The dev profile (dependencies at opt-level 1) shares
# the game's build; on a machine without a GPU the time is the software
# Vulkan driver's, a system library, so the profile barely matters.
bench-frame: deps
	cargo bench --profile dev --bench frame

# Card Game Alpha: 10,000 seeded CPU games replayed to the same final hash
# (make test replays 60), and the CPU strengths against each other.
alpha-soak:
	BTERM_ALPHA_REPLAYS=10000 cargo test --release --no-default-features --test alpha_view replays -- --nocapture
	BTERM_ALPHA_CASES=2000 cargo test --release --no-default-features --test alpha_play random_play_with

# LAN play on loopback: LAN_GAMES Terminal Battles and a tenth as many Card
# Game Alpha games, a host and two CPU clients each; no desync, memory flat,
# the round trip from an answer to every client's events (docs/guide/lan.md).
LAN_GAMES ?= 1000
lan-soak:
	cargo test --no-default-features --test lan -- --ignored
	cargo run --release --no-default-features --example lan_soak -- $(LAN_GAMES)
	cargo run --release --no-default-features --example lan_soak -- $$(( $(LAN_GAMES) / 10 )) alpha

ALPHA_GAMES ?= 1000
alpha-strength:
	cargo run --release --no-default-features --example alpha_stats -- $(ALPHA_GAMES) normal easy
	cargo run --release --no-default-features --example alpha_stats -- $(ALPHA_GAMES) hard normal

bench-alpha:
	cargo bench --no-default-features --bench alpha

# The Digimon Card Game: CPU strengths over DCG_GAMES seeded games (seats
# swapped), and the engine's speed (docs/guide/digimon-card-game.md).
DCG_GAMES ?= 1000
dcg-strength:
	cargo run --release --no-default-features --example dcg_stats -- $(DCG_GAMES) normal easy
	cargo run --release --no-default-features --example dcg_stats -- $(DCG_GAMES) hard normal

bench-dcg:
	cargo bench --no-default-features --bench dcg

# Alpha Clash: CPU strengths over CLASH_GAMES seeded games (seats swapped),
# and the engine's speed (docs/guide/alpha-clash.md).
CLASH_GAMES ?= 1000
clash-strength:
	cargo run --release --no-default-features --example clash_stats -- $(CLASH_GAMES) normal easy
	cargo run --release --no-default-features --example clash_stats -- $(CLASH_GAMES) hard normal

bench-clash:
	cargo bench --no-default-features --bench clash

# 10,000 seeded CPU games of the Digimon Card Game replayed to their hash.
dcg-soak:
	BTERM_DCG_REPLAYS=10000 cargo test --release --no-default-features --lib replays_reproduce -- --nocapture

# The collection store: 10,000 scans in one batch, `collection sets` over 100,000.
bench-collection:
	cargo bench --no-default-features --bench collection
