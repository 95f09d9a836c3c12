# marsgen: `make build` builds the demo site into public/, `make test` runs every test.
SHELL := /bin/bash
# Both install what they need on a fresh Debian or Ubuntu machine with Swift 6.

SWIFT ?= swift
# Release builds link the Swift runtime and Foundation in: the binary starts in about 5 ms
# instead of 8, and runs where Swift is not installed (it needs only libcmark-gfm).
RELEASE := $(SWIFT) build -c release --static-swift-stdlib
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
APT_PACKAGES := libcmark-gfm-dev libcmark-gfm-extensions-dev pkg-config
TEST_APT_PACKAGES := chromium chromium-driver python3-venv default-jre-headless
VENV := .build/test-venv
BROWSER_SITE := .build/browser-site

.PHONY: build test deps test-deps swift-test browser-test standards-test fuzz-test fuzz bench bench-serve serve demo-chat clean

# Installs the Debian packages named in $(1) that are missing.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps:
	$(call apt_install,$(APT_PACKAGES))

test-deps: deps
	$(call apt_install,$(TEST_APT_PACKAGES))
	@[ -x $(VENV)/bin/pytest ] || python3 -m venv $(VENV)
	@$(VENV)/bin/pip install -q -r Tests/requirements.txt

build: deps
	$(RELEASE) --product marsgen
	.build/release/marsgen build

test: test-deps swift-test browser-test standards-test fuzz-test

swift-test: deps
	$(SWIFT) test

# Every page of the demo site in headless Chromium (no console errors, readable on a phone),
# and `marsgen serve` updating open pages live.
browser-test: test-deps
	$(SWIFT) build --product marsgen
	rm -rf $(BROWSER_SITE)
	.build/debug/marsgen build --quiet --output $(BROWSER_SITE)
	MARSGEN_BIN=.build/debug/marsgen MARSGEN_SITE=$(BROWSER_SITE) MARSGEN_SCREENSHOTS=.build/screenshots $(VENV)/bin/pytest -q Tests/Browser

# The Nu HTML Checker, feedparser and the sitemap schema over the demo site, a generated
# 1,000-entry site and a site full of hostile strings.
standards-test: test-deps
	$(SWIFT) build --product marsgen
	$(SWIFT) build --product SiteGenerator
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" MARSGEN_BIN=.build/debug/marsgen SITE_GENERATOR_BIN=.build/debug/SiteGenerator \
		$(VENV)/bin/pytest -q Tests/Standards

# The fuzzer over the front-matter reader, the content loaders and the Mars-time parsers
# (Fuzz/MarsgenFuzz): libFuzzer with AddressSanitizer, from the committed corpus, on a copy of it.
# Where the toolchain has no libFuzzer, the same target runs as a seeded random-input harness.
FUZZ_SECONDS ?= 30
FUZZ_BUILD := $(SWIFT) build --scratch-path .build/fuzz --product MarsgenFuzz \
	-Xswiftc -sanitize=fuzzer,address -Xswiftc -DMARSGEN_LIBFUZZER -Xswiftc -use-ld=lld
FUZZ_ENV := LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan.supp SWIFT_BACKTRACE=enable=no
fuzz-test: deps
	@rm -rf .build/fuzz-corpus && mkdir -p .build/fuzz-corpus && cp Fuzz/Corpus/* .build/fuzz-corpus/
	@if $(FUZZ_BUILD) >.build/fuzz-build.log 2>&1; then \
		echo "libFuzzer: $(FUZZ_SECONDS) s from $$(ls Fuzz/Corpus | wc -l) corpus inputs"; \
		if $(FUZZ_ENV) .build/fuzz/debug/MarsgenFuzz .build/fuzz-corpus -max_total_time=$(FUZZ_SECONDS) \
			-artifact_prefix=.build/ >.build/fuzz-test.log 2>&1; then grep -E "^Done" .build/fuzz-test.log; \
		else tail -60 .build/fuzz-test.log; echo "the fuzzer found a crash: the input is in .build/crash-*"; exit 1; fi; \
	else \
		echo "no libFuzzer in this toolchain (see .build/fuzz-build.log): seeded random inputs instead"; \
		$(SWIFT) build --product MarsgenFuzz && .build/debug/MarsgenFuzz Fuzz/Corpus -max_total_time=$(FUZZ_SECONDS); \
	fi

# A long fuzzing run (FUZZ_LONG_SECONDS, default 600) whose new inputs are merged, minimised, into Fuzz/Corpus.
FUZZ_LONG_SECONDS ?= 600
fuzz: deps
	$(FUZZ_BUILD)
	rm -rf .build/fuzz-work && mkdir -p .build/fuzz-work .build/fuzz-merged
	cp Fuzz/Corpus/* .build/fuzz-work/
	$(FUZZ_ENV) .build/fuzz/debug/MarsgenFuzz .build/fuzz-work -max_total_time=$(FUZZ_LONG_SECONDS) \
		-artifact_prefix=.build/ -print_final_stats=1
	$(FUZZ_ENV) .build/fuzz/debug/MarsgenFuzz -merge=1 Fuzz/Corpus .build/fuzz-work

# Serving figures: wrk against marsgen serve and nginx side by side; save-to-DOM latency in Chromium.
bench-serve: test-deps
	$(call apt_install,wrk nginx-light)
	$(RELEASE) --product marsgen
	$(RELEASE) --product SiteGenerator
	bench/serve.sh

# Builds, watches and serves the demo site with live updates: edit content/ and watch the page.
serve: deps
	$(RELEASE) --product marsgen
	.build/release/marsgen serve

# Serves a copy of the demo site and appends a countdown to a message log, live.
demo-chat: deps
	$(RELEASE) --product marsgen
	scripts/demo-chat.sh

clean:
	rm -rf .build public/* .marsgen

# Figures for the README: a clean build of the demo site (release binary), timed by hyperfine.
# Benchmark output goes to the RAM disk when there is one (see README, Benchmarks).
BENCH_OUT := $(shell [ -d /dev/shm ] && echo /dev/shm/marsgen-demo-bench || echo .build/bench-site)
bench: deps
	$(call apt_install,hyperfine time hugo cmark-gfm jq)
	$(RELEASE) --product marsgen
	@echo "Machine: $$(nproc) cores, $$(free -g | awk '/Mem:/{print $$2}') GiB, $$(uname -sm)"
	hyperfine --warmup 3 --runs 20 --prepare 'rm -rf $(BENCH_OUT)' \
		'.build/release/marsgen build --quiet --output $(BENCH_OUT)'
	hyperfine --warmup 3 --runs 20 '.build/release/marsgen build --quiet --output $(BENCH_OUT)'
	@/usr/bin/time -v .build/release/marsgen build --quiet --output $(BENCH_OUT) 2>&1 | awk -F': ' '/Maximum resident/{printf "Peak memory: %.1f MB\n", $$2/1024}'
	@.build/release/marsgen build --output $(BENCH_OUT)
	$(RELEASE) --product ListDiffBenchmark
	.build/release/ListDiffBenchmark
	$(RELEASE) --product SiteGenerator
	bench/incremental.sh
	bench/edit-scaling.sh
	$(RELEASE) --product MarkdownBenchmark
	bench/hugo-vs-marsgen.sh
