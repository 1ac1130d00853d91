# bterm — see README.md. Two commands on a fresh machine: `make run`, `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := run

# One cargo target directory outside the clone, so CI and every checkout share
# the (long) Bevy build. Override with CARGO_TARGET_DIR=... if you like.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/bterm/target
export CARGO_TERM_COLOR ?= never

# Debian packages the build and the window need.
DEB_PACKAGES := pkg-config libasound2-dev libudev-dev libwayland-dev libxkbcommon-dev \
                libx11-dev mold xvfb xauth mesa-vulkan-drivers

.PHONY: deps build run test test-core lint bench screenshot

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
# Built with --all-targets so it shares every artifact with `make test`
# (dev-dependencies change some shared crates' features).
BTERM := $(CARGO_TARGET_DIR)/debug/bterm

build:
	cargo build --all-targets

run: deps build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then $(BTERM) play $(ARGS); \
	else echo "no display: running under xvfb-run (nothing will be visible; ARGS=\"--screenshot shot.png\" saves a frame)"; \
	  xvfb-run -a -s "-screen 0 1280x720x24" $(BTERM) play $(ARGS); fi

# Everything: the core without Bevy (and a check that Bevy stays out of it),
# then the whole package with the arena.
test: deps test-core
	cargo test --all-targets

test-core:
	@n=$$(cargo tree --no-default-features -e normal --prefix none | grep -c '^bevy' || true); \
	if [ "$$n" != 0 ]; then echo "error: the core pulls in Bevy ($$n bevy crates without the arena feature)"; exit 1; fi; \
	echo "core dependency tree: no Bevy"
	cargo test --no-default-features --all-targets

lint:
	cargo fmt --check
	cargo clippy --no-default-features --all-targets -- -D warnings
	cargo clippy --all-targets -- -D warnings

bench:
	cargo bench --no-default-features --benches

# A frame of the game as the player sees it, under a virtual display.
screenshot: deps build
	mkdir -p target/screenshots
	xvfb-run -a -s "-screen 0 1280x720x24" $(BTERM) play --screenshot target/screenshots/title.png
