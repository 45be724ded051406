# imgcache: build, test, demo and benchmark entry points (GNU make).
#
#   make demo     install what is missing, build release, run the main job on the samples (Samples/demo.sh)
#   make test     install what is missing, build and run every test
#
# `make help` lists the rest. Everything runs from a clean clone on Debian 12 with Swift 6
# (found on PATH, or at /opt/swift). `setup` needs root or sudo only when a package is missing.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build
# Targets run one after another even under -j: setup must finish before any build starts.
.NOTPARALLEL:

# Swift is normally on PATH; fall back to the toolchain's usual home.
ifeq ($(shell command -v swift 2>/dev/null),)
export PATH := /opt/swift/usr/bin:$(PATH)
endif

SWIFT ?= swift
PYTHON ?= python3
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || command -v sudo 2>/dev/null)

# Debian packages: the C libraries the package links (cairo and the DejaVu font for the CLI's
# overlay), the tools the samples, conformance checks and benchmarks use, the shells and man
# that the completion and man page tests run, and what make deb needs (dpkg-shlibdeps, lintian,
# and libcurl's development files, which Foundation linked statically asks for). .ci/run installs
# the same list.
APT_PACKAGES := libgif-dev libpng-dev libjpeg-dev libsqlite3-dev libssl-dev libdeflate-dev liblcms2-dev libwebp-dev webp libheif-dev libavif-dev libheif-examples libavif-bin libgs-common libcairo2-dev fonts-dejavu-core pkg-config nginx \
	python3 python3-pip libjpeg-turbo-progs imagemagick gifsicle libvips-tools hyperfine time strace pngquant \
	openssl ca-certificates libhiredis-dev redis-server libmicrohttpd-dev stress curl wrk chromium \
	zsh fish man-db dpkg-dev lintian libcurl4-openssl-dev

IMGCACHE_BIN ?= .build/release/imgcache
BENCH_FLAGS ?=
THROUGHPUT_FLAGS ?=

FUZZ_SECONDS ?= 600

.PHONY: all help setup build release test test-sanitized demo fuzz bench bench-throughput bench-compare bench-corpus bench-memory bench-limits bench-webp bench-webp-size bench-avif-size bench-png-palette bench-heif bench-smartcrop bench-redis bench-redis-cluster bench-disk-hit bench-serve bench-prefetch-scale deb clean

all: build

help:
	@echo "make setup         install the missing Debian packages, Pillow and prometheus_client (skips apt-get when nothing is missing)"
	@echo "make build         debug build"
	@echo "make release       release build (.build/release/imgcache)"
	@echo "make test          setup, build the tests, run them (conformance tests read \$$IMGCACHE_CORPUS or ../shared/corpus)"
	@echo "make test-sanitized  setup, the tests under AddressSanitizer (UBSan in the C shims) but the conformance suites, the demo under LeakSanitizer, the concurrent suites under ThreadSanitizer; reports in .build/sanitizer-reports (Tests/Sanitizers/run.sh)"
	@echo "make demo          setup, release build, Samples/demo.sh: fetch harbour.jpg from a local nginx for three widget sizes (twice: the second from the disk cache), cache stats, a wallpaper slice (and blurred), the overlay, spinner.gif's first 8 frames, a centre and a smart crop of portrait.jpg; outputs in out/"
	@echo "make bench         setup, release build, corpus, imgcache-bench (options: BENCH_FLAGS=\"--runs 5 gif\"), then throughput.sh (THROUGHPUT_FLAGS=\"--runs 1\")"
	@echo "make bench-throughput  setup, release build, prefetch of 1,000 images against vipsthumbnail and Pillow on 1 and 2 cores, over HTTPS + 20 ms, and a 12 MP JPEG to every phone widget size in one call (Benchmarks/throughput.sh; BENCH_FLAGS=\"--runs 1 --only a\")"
	@echo "make bench-compare setup, release build, imgcache against vipsthumbnail, ImageMagick, Pillow, gifsicle, djpeg (Benchmarks/compare.sh; BENCH_FLAGS=--runs 9)"
	@echo "make bench-corpus  write the benchmark corpus to \$$IMGCACHE_BENCH_DIR (default \$${TMPDIR:-/tmp}/imgcache-bench)"
	@echo "make bench-memory  peak-RSS benchmark (Benchmarks/memory.sh; pass options as BENCH_FLAGS=--report-only)"
	@echo "make bench-limits  peak RSS at the decoding limits against vipsthumbnail, checked against 250 MB (Benchmarks/memory-limits.sh)"
	@echo "make bench-webp    setup, release build, a 24 MP WebP to 1014x474 JPEG against vipsthumbnail, Pillow and dwebp with hyperfine (Benchmarks/webp.sh; BENCH_FLAGS=\"--rounds 3 --runs 5\")"
	@echo "make bench-heif    setup, release build, a 12 MP HEIC, a 4K AVIF and a 48 MP HEIC to an iPhone 16 Pro medium widget against vipsthumbnail and Pillow with pillow-heif: wall time and peak RSS (Benchmarks/heif.sh; BENCH_FLAGS=\"--rounds 3\")"
	@echo "make bench-webp-size  setup, release build, corpus, WebP's size against JPEG q85 and GIF at the same SSIM on the benchmark corpus (imgcache-bench --webp-sizes)"
	@echo "make bench-avif-size  setup, release build, corpus, AVIF's size against JPEG q85 and WebP at the same SSIM on the corpus's stills, with encode times (imgcache-bench --avif-sizes)"
	@echo "make bench-png-palette  setup, release build, corpus, --palette 256 against the same PNG in RGBA and pngquant (with and without dithering) on translucent icons, a translucent photo and a slice: bytes, PSNR, time (Benchmarks/png_palette.py; BENCH_FLAGS=\"--runs 5 --colors 64\")"
	@echo "make bench-smartcrop  setup, release build, --gravity smart against vipsthumbnail --smartcrop attention on a synthetic photo set: window distance and time over a centre crop (Benchmarks/smartcrop.sh; BENCH_FLAGS=\"--rounds 3\")"
	@echo "make bench-redis   setup, release build, 4 prefetch instances sharing one Redis against 1: origin requests and wall time (Benchmarks/redis.sh; BENCH_FLAGS=\"--urls 200 --instances 4 --delay-ms 20\")"
	@echo "make bench-redis-cluster  setup, release build, 4 prefetch instances through one Redis, then a 3-master Redis Cluster: origin requests, wall time, keys per master (Benchmarks/redis-cluster.sh; BENCH_FLAGS=\"--urls 400 --instances 4 --delay-ms 20\")"
	@echo "make bench-disk-hit  setup, release build, fetch of a stored 8-frame GIF variant against cache path in a cache of 600 entries, with hyperfine and strace's sync count (Benchmarks/disk-hit.sh; BENCH_FLAGS=\"--rounds 7 --runs 10 --baseline OLD_BINARY\")"
	@echo "make bench-serve   setup, release build, imgcache serve under wrk at 16 and 64 connections: warm against thumbor and nginx's static files, cold against thumbor and imgcache prefetch (Benchmarks/serve.sh; BENCH_FLAGS=\"--runs 1 --seconds 5\")"
	@echo "make bench-prefetch-scale  setup, release build, prefetch of 10,000, 100,000 and 1,000,000 URLs of one small PNG: wall time, time per URL and peak RSS, flat (Benchmarks/prefetch-scale.sh; BENCH_FLAGS='--sizes \"10000 100000\"')"
	@echo "make deb           setup, out/imgcache_VERSION-1_ARCH.deb: the release CLI (Swift runtime linked statically), the systemd unit, completions, man page; lintian must pass (Packaging/deb/build.sh; Packaging/deb/smoke.sh installs, serves, removes and purges it, as root)"
	@echo "make fuzz          build the libFuzzer harnesses (ASan) and run each for FUZZ_SECONDS (default 600) (Fuzz/run.sh)"
	@echo "make docs          setup, the ImgCache library's DocC reference as static HTML in out/docs, offline; fails on a public symbol without a doc comment or a DocC warning (Tools/docs.sh)"
	@echo "make clean         remove .build and out"

setup:
	@command -v $(SWIFT) >/dev/null || { echo "setup: Swift 6 is required (not on PATH, nor in /opt/swift/usr/bin)" >&2; exit 1; }
	@if ! command -v dpkg-query >/dev/null; then \
	  echo "setup: not a Debian system; make sure these (or their equivalents) are installed: $(APT_PACKAGES)" >&2; \
	else \
	  missing=""; \
	  for p in $(APT_PACKAGES); do \
	    dpkg-query -W -f='$${db:Status-Status}\n' "$$p" 2>/dev/null | grep -qx installed || missing="$$missing $$p"; \
	  done; \
	  if [ -n "$$missing" ]; then \
	    echo "setup: installing$$missing"; \
	    $(SUDO) apt-get update; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	  fi; \
	fi
# The Python modules the tests and benchmarks import, each as module:pip-package:Debian-package
# (imgproxy, whose URL signing the serve URL tests check against, pillow-heif, the HEIC peer and
# test-file writer, and blurhash and thumbhash, the placeholder references of the image-facts
# tests, have no Debian package).
	@missing=""; \
	for entry in PIL:pillow:python3-pil numpy:numpy:python3-numpy prometheus_client:prometheus_client:python3-prometheus-client imgproxy:imgproxy==1.0.0: pillow_heif:pillow-heif: blurhash:blurhash==1.1.5: thumbhash:thumbhash==0.1.2:; do \
	  $(PYTHON) -c "import $${entry%%:*}" 2>/dev/null || missing="$$missing $$entry"; \
	done; \
	if [ -n "$$missing" ]; then \
	  pips=""; debs=""; \
	  for entry in $$missing; do rest=$${entry#*:}; pips="$$pips $${rest%%:*}"; debs="$$debs $${rest#*:}"; done; \
	  echo "setup: installing$$pips for $$(command -v $(PYTHON))"; \
	  flags=""; \
	  if $(PYTHON) -c 'import os, sys, sysconfig; sys.exit(sys.prefix != sys.base_prefix or not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))'; then \
	    flags="--break-system-packages"; \
	  fi; \
	  if ! PIP_ROOT_USER_ACTION=ignore $(PYTHON) -m pip install --quiet --disable-pip-version-check $$flags $$pips \
	     && [ "$$(command -v $(PYTHON))" = /usr/bin/python3 ]; then \
	    echo "setup: pip failed; trying Debian's$$debs"; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$debs || true; \
	  fi; \
	  for entry in $$missing; do \
	    $(PYTHON) -c "import $${entry%%:*}" || { echo "setup: could not install $${entry%%:*} for $(PYTHON)" >&2; exit 1; }; \
	  done; \
	fi
	@echo "setup: Swift, the Debian packages, Pillow, pillow-heif, numpy, prometheus_client, imgproxy, blurhash and thumbhash are installed"

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test
	bash Tests/release-smoke.sh

test-sanitized: setup
	Tests/Sanitizers/run.sh

demo: setup release
	Samples/demo.sh "$(IMGCACHE_BIN)"

bench-corpus: setup
	$(PYTHON) Benchmarks/make-corpus.py

bench-memory: setup
	Benchmarks/memory.sh $(BENCH_FLAGS)

bench-limits: setup release
	Benchmarks/memory-limits.sh --no-build $(BENCH_FLAGS)

bench-webp: setup release
	Benchmarks/webp.sh --no-build $(BENCH_FLAGS)

bench-heif: setup release
	Benchmarks/heif.sh --no-build $(BENCH_FLAGS)

bench-webp-size: bench-corpus release
	.build/release/imgcache-bench --webp-sizes

bench-avif-size: bench-corpus release
	.build/release/imgcache-bench --avif-sizes

bench-png-palette: bench-corpus release
	$(PYTHON) Benchmarks/png_palette.py $(BENCH_FLAGS)

bench-smartcrop: setup release
	Benchmarks/smartcrop.sh --no-build $(BENCH_FLAGS)

bench-redis: setup release
	Benchmarks/redis.sh --no-build $(BENCH_FLAGS)

bench-redis-cluster: setup release
	Benchmarks/redis-cluster.sh --no-build $(BENCH_FLAGS)

bench-disk-hit: setup release
	Benchmarks/disk-hit.sh --no-build $(BENCH_FLAGS)

bench-serve: setup release
	Benchmarks/serve.sh --no-build $(BENCH_FLAGS)

bench-prefetch-scale: setup release
	Benchmarks/prefetch-scale.sh --no-build $(BENCH_FLAGS)

# Benchmark runs keep everything they write outside the repository (the corpus folder and TMPDIR).
bench: bench-corpus release
	.build/release/imgcache-bench $(BENCH_FLAGS)
	Benchmarks/throughput.sh --no-build $(THROUGHPUT_FLAGS)

bench-throughput: setup release
	Benchmarks/throughput.sh --no-build $(BENCH_FLAGS)

bench-compare: setup release
	Benchmarks/compare.sh --no-build $(BENCH_FLAGS)

deb: setup
	Packaging/deb/build.sh

fuzz: setup
	Fuzz/run.sh $(FUZZ_SECONDS)

.PHONY: docs
docs: setup
	Tools/docs.sh

clean:
	rm -rf .build Fuzz/.build out
