# companion: build, test, lint, generate. `make help` lists the targets.
GO        ?= go
BIN       ?= bin/companion
FUZZTIME  ?= 10s
# TOOLS holds gopls, staticcheck, goimports and typecheck (`make tools`);
# it comes first on PATH, so the tests find the pinned gopls.
TOOLS     = bin/tools
export PATH := $(CURDIR)/$(TOOLS):$(PATH)
# RELEASE_FLAGS build the shipped binary: no file paths or symbol tables, and
# grpc (pulled in by genai's auth chain) without golang.org/x/net/trace, whose
# HTTP debug pages keep html/template and its reflection alive. Release
# binaries are also built with CGO_ENABLED=0: static, so no dynamic loader
# or libc runs before main (about 1 ms and 1 MB of resident memory).
# The version is stamped into main.version; VERSION defaults to git describe.
VERSION       ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
RELEASE_FLAGS = -trimpath -tags=grpcnotrace -ldflags="-s -w -X main.version=$(VERSION)"

.PHONY: help build release dist cross test test-norace test-all test-deps tools conformance editors nvim vscode vscode-e2e fuzz lint generate check bench bench-scale bench-linux eval clean

help:
	@echo "build        build $(BIN)"
	@echo "release      build $(BIN) stripped, as it ships (RELEASE_FLAGS)"
	@echo "dist         stripped binaries for every DIST_TARGETS platform in $(DIST)/, with SHA256SUMS (VERSION=$(VERSION))"
	@echo "cross        type-check everything, tests included, for macOS and Windows (.ci/tools/typecheck)"
	@echo "test         go test -race ./..."
	@echo "test-norace  the allocation and peak-memory tests -race would skip"
	@echo "test-all     build, tools, test-deps, go tests, lint, cross, the ACP SDK conformance suite, the editor suites and bench-scale (what CI runs)"
	@echo "test-deps    npm install the MCP servers and language servers the tests use"
	@echo "conformance  the Node conformance suite with the official ACP client library"
	@echo "editors      the editor integrations' suites: nvim, vscode, vscode-e2e (Debian packages: see .ci/run)"
	@echo "nvim         the Neovim plugin's busted suite in headless nvim"
	@echo "vscode       the VS Code extension: typecheck, unit tests on the real binary, webview UI in Chromium, .vsix"
	@echo "vscode-e2e   the extension inside a real VS Code (code-server) driven by Playwright, and its mocha suite"
	@echo "fuzz         run each fuzz target for FUZZTIME (default $(FUZZTIME))"
	@echo "lint         go vet, staticcheck and import grouping (goimports -local companion)"
	@echo "tools        build gopls, staticcheck, goimports and typecheck, pinned in .ci/tools, into bin/tools"
	@echo "generate     regenerate the ACP types from acp/schema"
	@echo "check        go mod tidy + generate, then fail if the tree changed"
	@echo "bench        benchmarks: protocol, agent, start-up and headless runs (see bench/doc.go)"
	@echo "bench-scale  the search tools on a synthetic 80k-file tree against rg, one run each (CI's quick pass)"
	@echo "bench-linux  glob, grep, read_many_files and list_directory in the Linux 6.1 tree against rg (bench/README.md)"
	@echo "eval         the task suite that measures the agent (eval/README.md): needs a model key or EVAL_FLAGS"
	@echo "clean        remove bin/ and dist/"

build:
	$(GO) build -o $(BIN) ./cmd/companion

# release builds for GOOS/GOARCH from the environment (this machine's by
# default); editors/zed/release.sh builds every archive through it.
release:
	CGO_ENABLED=0 $(GO) build $(RELEASE_FLAGS) -o $(BIN) ./cmd/companion

# dist cross-compiles the release binary for every platform into DIST as
# companion-VERSION-OS-ARCH (.exe on Windows) and writes DIST/SHA256SUMS.
# Not run in CI (it is slow); `cross` checks that every platform compiles.
# editors/zed/release.sh packs archives for Zed and the ACP registry.
DIST         ?= dist
DIST_TARGETS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
dist:
	mkdir -p $(DIST) && rm -f $(DIST)/companion-* $(DIST)/SHA256SUMS
	@for p in $(DIST_TARGETS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		out=$(DIST)/companion-$(VERSION)-$$os-$$arch$$ext; echo "build $$out"; \
		GOOS=$$os GOARCH=$$arch $(MAKE) --no-print-directory release BIN=$$out || exit 1; \
	done
	cd $(DIST) && sha256sum companion-* > SHA256SUMS

# CROSS are the other platforms companion builds for. CI type-checks every
# package, tests included, for each from source (.ci/tools/typecheck): GOOS=… go
# vet would compile the whole dependency graph once per platform, ten times
# the cost; vet's analyzers do not depend on the platform.
CROSS = darwin/arm64 windows/amd64
cross: tools
	$(TOOLS)/typecheck -C $(CURDIR) $(CROSS)

# GORACE: a race-enabled binary sleeps a second at exit by default (so late
# reports can print); a race still fails it with exit status 66.
# E2E_BIN, when set, is the companion binary the e2e tests drive instead of
# a -race build of their own. test-all sets it to the binary it built: the
# binary-driven tests then cost less than half the CPU, and -race still
# covers the in-process tests, which run the same agent code.
# -parallel 4: most end-to-end tests run in parallel (t.Parallel) and spend
# their time waiting on the processes they drive, so more of them than
# GOMAXPROCS (2 on CI) keep the cores busy. -timeout 15m: a package's
# default 10 minutes is too tight for e2e on a loaded machine.
# TESTFLAGS, for every go test here: -vet=off, since `make lint` runs all
# of go vet, and the subset go test runs first only repeated it, computing
# vet's facts over each run's whole dependency graph again (about 100
# CPU-seconds for `make test` on a fresh machine, 55 for test-norace);
# -ldflags=-w, test binaries without DWARF (nothing reads it; race reports
# and panics use the symbol table), a fifth less link time for each.
TESTFLAGS = -vet=off -ldflags=-w
E2E_BIN ?=
test:
	GORACE=atexit_sleep_ms=0 COMPANION_E2E_BIN=$(E2E_BIN) $(GO) test -race $(TESTFLAGS) -count=1 -parallel 4 -timeout 15m ./...

# test-norace runs the tests that hold only without the race detector, which
# changes allocations: the allocation and peak-memory bounds of large
# streamed events and writes. `make test` (always -race) skips them.
NORACE_TESTS = TestHugeEventAllocations|TestHugeStreamedCallAllocations|TestLongLines|TestLargeWritePeak
test-norace:
	$(GO) test $(TESTFLAGS) -count=1 -run '^($(NORACE_TESTS))$$' ./agent ./agent/model/gemini ./agent/model/openai ./agent/store ./internal/sse

# test-all is what CI runs. Fuzzing is not part of it: each fuzz target's
# seed corpus runs in `make test`, while a fuzzing pass rebuilds the
# packages with coverage instrumentation (about 460 CPU-seconds on a fresh
# machine) to search for new inputs; run `make fuzz` for that.
#
# After build it runs three lanes side by side (.ci/lanes): the Go tests;
# the Neovim and conformance suites, then lint and cross; the VS Code
# suites, then the search tools' quick pass on the synthetic 80k-file tree
# (bench-scale; that lane ends first, so the pass meets the least load).
# Each lane waits in places (test processes, npm, browsers, Node)
# where the others can use the CPU. Lint and cross, which only need CPU
# time and wait on nothing, run at a lower priority (nice); the Go tests do
# not, since their end-to-end tests wait against timeouts as the editor
# suites do (at nice 10 beside the VS Code suite, TestIDECompanion and
# TestLSPDiagnosticsHeadless ran out of time in a warm run here). The sub-makes take the binary as
# built (-o build) and never relink it under the running tests. The npm
# MCP servers (test-deps) are installed first: the Go, Neovim and
# conformance suites all start them.
SUB = $(MAKE) --no-print-directory -o build
test-all: E2E_BIN = $(CURDIR)/$(BIN)
test-all: build test-deps tools
	.ci/lanes "go-test: $(SUB) test test-norace E2E_BIN=$(E2E_BIN)" \
		"nvim-lint: $(SUB) nvim conformance && nice -n 10 $(SUB) lint cross" \
		"vscode: $(SUB) vscode vscode-e2e bench-scale"

# test-deps installs the real MCP servers (and the language server) from
# npm that tools/mcp, tools/lsp, e2e and the editor suites test against
# (their tests skip, saying so, when these are missing). Each is installed
# again only when its lock file is newer than the install (npm writes
# node_modules/.package-lock.json last), so .ci/run can install them
# during its set-up and test-all finds them done.
NPM_TEST_DEPS = tools/mcp/testdata/npm tools/lsp/testdata/npm
test-deps: $(NPM_TEST_DEPS:%=%/node_modules/.package-lock.json)
%/node_modules/.package-lock.json: %/package-lock.json
	cd $* && npm ci --no-audit --no-fund

conformance: build
	cd conformance && npm ci --no-audit --no-fund && COMPANION_BIN=$(CURDIR)/$(BIN) npm test

editors: nvim vscode vscode-e2e

nvim: build
	COMPANION_BIN=$(CURDIR)/$(BIN) editors/nvim/ci.sh

vscode: build
	COMPANION_BIN=$(CURDIR)/$(BIN) editors/vscode/ci.sh
	COMPANION_BIN=$(CURDIR)/$(BIN) editors/vscode/webview/ci.sh

vscode-e2e: build
	COMPANION_BIN=$(CURDIR)/$(BIN) editors/vscode/e2e/ci.sh

fuzz:
	$(GO) test -run='^$$' -fuzz='^FuzzReadMessage$$' -fuzztime=$(FUZZTIME) ./rpc
	$(GO) test -run='^$$' -fuzz='^FuzzDecodeRequest$$' -fuzztime=$(FUZZTIME) ./acp
	$(GO) test -run='^$$' -fuzz='^FuzzAnalyzeAgainstBash$$' -fuzztime=$(FUZZTIME) ./tools/shell

# tools builds the Go programs the tests and lint use, pinned in
# .ci/tools/go.mod, into TOOLS: gopls (the language-server tests skip without it),
# staticcheck, goimports and typecheck (cross). They are built by one
# `go build` from one module graph, so the packages they share compile once:
# gopls carries staticcheck's analyzers and x/tools, which is why staticcheck
# is the release gopls's graph resolves to (v0.8.1; v0.8.2 only adds Go
# 1.27's export data, and needs an x/tools this gopls does not build with).
tools: $(TOOLS)/.built
$(TOOLS)/.built: .ci/tools/go.mod .ci/tools/go.sum .ci/tools/typecheck/main.go
	$(GO) -C .ci/tools build -o $(CURDIR)/$(TOOLS)/ tool ./typecheck
	touch $@

# lint: go vet, staticcheck, and import grouping (the standard library,
# other modules, then companion's own packages, each a group of its own).
lint: tools
	$(GO) vet ./...
	$(TOOLS)/staticcheck ./...
	@bad="$$($(TOOLS)/goimports -local companion -l $$(git ls-files '*.go'))" || exit 1; \
	if [ -n "$$bad" ]; then echo "imports not grouped (run goimports -local companion -w):"; echo "$$bad"; exit 1; fi

generate:
	$(GO) generate ./acp

check:
	$(GO) mod tidy
	$(GO) generate ./acp
	git diff --exit-code

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./rpc ./acp ./agent/... ./bench

# bench-scale runs the search tools on the synthetic Linux-shaped tree
# (about 80k files, written and committed once into the user's cache
# folder) with ripgrep and with the Go engine, one run per call, and prints
# each call's time against its floor (rg, ls): CI's quick pass. It measures;
# it asserts nothing about time. `go test -bench 'Scale$$' ./bench` takes
# medians of three.
bench-scale:
	COMPANION_BENCH_RUNS=1 $(GO) test $(TESTFLAGS) -run='^$$' -bench='Scale$$' -benchtime=1x -timeout=10m ./bench

# bench-linux installs Debian's linux-source-6.1, unpacks and commits it once
# into BENCH_LINUX_DIR, then prints the search tools' times against rg and
# the checkpoints' against git status (in a shared clone they may edit).
BENCH_LINUX_DIR ?= $(HOME)/.cache/companion-bench/linux
SUDO ?= $(shell [ "$$(id -u)" = 0 ] || echo sudo)
bench-linux:
	@command -v rg >/dev/null || $(SUDO) apt-get install -y ripgrep
	@if [ ! -e "$(BENCH_LINUX_DIR)/.git" ]; then \
	  [ -f /usr/src/linux-source-6.1.tar.xz ] || $(SUDO) apt-get install -y linux-source-6.1; \
	  rm -rf "$(BENCH_LINUX_DIR).tmp" && mkdir -p "$(BENCH_LINUX_DIR).tmp" && \
	  tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$(BENCH_LINUX_DIR).tmp" --strip-components=1 && \
	  sed -i '/^# Debian packaging/,$$d' "$(BENCH_LINUX_DIR).tmp/.gitignore" && \
	  git -C "$(BENCH_LINUX_DIR).tmp" init -q && git -C "$(BENCH_LINUX_DIR).tmp" add -A && \
	  git -C "$(BENCH_LINUX_DIR).tmp" -c user.name=bench -c user.email=bench@localhost commit -qm "linux 6.1" && \
	  mv "$(BENCH_LINUX_DIR).tmp" "$(BENCH_LINUX_DIR)"; \
	fi
	COMPANION_BENCH_LINUX="$(BENCH_LINUX_DIR)" $(GO) test -run='^$$' -bench=ScaleLinux -benchtime=3x -timeout=60m -v ./bench
	@[ -e "$(BENCH_LINUX_DIR)-edits/.git" ] || git clone -q --shared "$(BENCH_LINUX_DIR)" "$(BENCH_LINUX_DIR)-edits"
	COMPANION_BENCH_TREE="$(BENCH_LINUX_DIR)-edits" $(GO) test -run='^$$' -bench=Checkpoint -benchtime=3x -timeout=60m -v ./bench

# eval runs the task suite with the model the environment names (GEMINI_API_KEY,
# or EVAL_FLAGS="--openai-base-url URL --model NAME"); without one it says how.
EVAL_FLAGS ?=
eval: build
	$(GO) run ./eval --bin $(BIN) $(EVAL_FLAGS)

clean:
	rm -rf bin dist
