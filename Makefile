# tinyRAG — build, run and test. Every target works on a fresh clone with
# Go, Node and Debian packages only; see README.md.
SHELL      := /bin/bash
GO         ?= go
GOROOT     := $(shell $(GO) env GOROOT)
WASM_EXEC  := $(GOROOT)/lib/wasm/go_js_wasm_exec
ADDR       ?= 127.0.0.1:8080
# The go command for builds: the compiler collecting garbage less often
# takes about a sixth less CPU (go-app's package: 19 s to 16 s, 1.1 GB to
# 1.5 GB at most; docs/startup.md). Tests keep the default.
BUILD_GO   := GOGC=400 $(GO)
WEB_OUT    := bin/web
DIST       := server/webapp/dist/web
SCIFACT    ?= ../shared/data/scifact
# brotli quality of the wasm files in what a deployment serves: make build
# (bin/tinyrag), make static and every bench-* target use brotli's best.
BROTLI_WASM ?= 11
# make run's: a quick quality for a local run (about 2 s for the three wasm
# files instead of about a minute; app.wasm about a fifth larger). Its
# binary is bin/tinyrag-dev, which says at start that it is not for
# deployment; see docs/startup.md.
BROTLI_WASM_DEV ?= 5

.PHONY: all build build-dev tools server-deps static wasm browsermod run test test-native test-wasm test-e2e e2e-deps size size-packages bench bench-wasm bench-reload bench-cold bench-site screenshots fuzz clean

all: build

# The browser bundles. The Markdown renderer (run on the page beside
# app.wasm), the nanoGo worker and the file importers get their own wasm,
# each loaded on first use, so app.wasm carries none of them. All four are
# built in one go command, which shares their common packages and
# overlaps one's link with another's compiling, in the browser workspace
# (wasm/browser.work): zap and json-iterator swapped for stand-ins, and the
# browser copies of go-app, bleve, bluemonday, goldmark and go-readability
# (bin/browsermod, written by wasm/browsermod) in place; the tag leaves
# net/http out of app/httpdo, so app.wasm imports no net/http
# (docs/startup.md).
# GOWORK is written from the shell's $PWD, not make's $(abspath): in a
# checkout reached through a symbolic link make resolves the link and the
# go command does not, and a workspace at the resolved path does not
# contain the module at the logical one.
BROWSER_WORK = "$$PWD/wasm/browser.work"
BROWSER_GO   = GOWORK=$(BROWSER_WORK) GOOS=js GOARCH=wasm $(BUILD_GO)
BROWSER_TAGS = -tags tinyrag_browser
# Packages compiled without inlining: go-app, the UI, the engine and the
# clients, JSON, fmt and time, which draw the screen and move messages but
# run in no hot loop. Inlining there made app.wasm's brotli about 6 % larger
# and gave V8 more code to compile at start. The second group is the
# Markdown renderer (goldmark, whose AST types each got a copy of their
# embedded node's methods, bluemonday, x/net/html, regexp), calc's math/big,
# and what runs once per import, load or bundle rather than per query:
# about 55 KB of brotli (docs/app-wasm.md), a cold 10 KB answer rendered in
# about a fifth more time. The search path (the knowledge base's index and
# ranking, flatseg, bleve's scorch and analysis, roaring), the interpreter,
# the runtime and the standard library's leaf packages (strings, bytes,
# unicode, strconv, encoding/binary, sort, slices…), whose small functions
# are inlined into every caller, keep it (docs/startup.md).
NOINLINE := github.com/maxence-charriere/... github.com/google/uuid tinyrag/wasm/app tinyrag/app/ui/... tinyrag/app/control/... \
  tinyrag/app/engine/... tinyrag/app/llm/... tinyrag/app/web/... tinyrag/app/chats tinyrag/app/calc \
  tinyrag/app/embed tinyrag/app/nomodel tinyrag/app/protocol tinyrag/app/storage tinyrag/app/idb \
  tinyrag/app/siteconfig tinyrag/app/nanogo tinyrag/app/httpdo \
  fmt encoding/json time net/... mime/... compress/... crypto/... \
  github.com/yuin/goldmark/... tinyrag/app/markdown github.com/microcosm-cc/... golang.org/x/net/... regexp/... \
  math/big internal/fmtsort os syscall log path/... \
  tinyrag/app/knowledge/bundle tinyrag/app/knowledge/site tinyrag/app/knowledge/importrun \
  tinyrag/app/knowledge/ragtool tinyrag/app/knowledge/backup \
  tinyrag/app/textfrag tinyrag/app/tools tinyrag/app/tool tinyrag/app/worker tinyrag/app/pages tinyrag/app/icons \
  github.com/blevesearch/bleve/v2/mapping github.com/blevesearch/bleve/v2/registry \
  github.com/blevesearch/bleve/v2/document github.com/blevesearch/bleve/v2/geo... github.com/blevesearch/geo/... \
  github.com/blevesearch/bleve/v2/index/scorch/mergeplan github.com/blevesearch/bleve/v2/analysis/datetime/... \
  github.com/blevesearch/bleve/v2/analysis/analyzer/...
BROWSER_FLAGS = $(BROWSER_TAGS) $(foreach p,$(NOINLINE),-gcflags=$(p)=-l)
WASM_MAINS   := ./wasm/app ./wasm/markdown ./wasm/importer $(if $(wildcard wasm/nanogo),./wasm/nanogo)
# The two native build tools in one go command: started as two (go run and
# go build beside each other), they compiled the same standard packages
# twice on an empty build cache.
tools:
	$(BUILD_GO) build -trimpath -o bin/tools/ ./wasm/browsermod ./server/precompress

browsermod: tools
	@./bin/tools/browsermod -out bin/browsermod

wasm: browsermod
	@rm -rf bin/wasm-out && mkdir -p bin/wasm-out $(WEB_OUT)
	$(BROWSER_GO) build $(BROWSER_FLAGS) -trimpath -ldflags="-s -w" -o bin/wasm-out/ $(WASM_MAINS)
	@for f in bin/wasm-out/*; do mv "$$f" "$(WEB_OUT)/$$(basename "$$f").wasm"; done

# The server's packages, built beside the wasm (make -j2 in build and
# build-dev), so that the last step only compiles its main package with the
# assets and links. go-app, which the server uses only to write the app's
# pages at start, is compiled without inlining as in the wasm: its 1.6 MB of
# generated HTML code compiles in about 5 s instead of 12 s.
SERVER_FLAGS := -trimpath -gcflags=github.com/maxence-charriere/go-app/v10/pkg/app=-l
server-deps: tools
	$(BUILD_GO) build $(SERVER_FLAGS) -o /dev/null ./cmd/tinyrag

# bin/tinyrag with every asset embedded and precompressed (gzip + brotli;
# the wasm files at brotli's best, about a minute each, cached in bin/brcache
# by content so unchanged wasm is not compressed again).
build:
	@$(MAKE) --no-print-directory -j2 wasm server-deps
	@rm -rf $(DIST) server/webapp/dist/quick-build
	./bin/tools/precompress -cache bin/brcache -brotli-wasm $(BROTLI_WASM) -out $(DIST) assets/web $(wildcard assets/*.js) $(WEB_OUT)/*.wasm
	$(BUILD_GO) build $(SERVER_FLAGS) -o bin/tinyrag ./cmd/tinyrag

# The same for a local run, compressed quickly: bin/tinyrag-dev. The marker
# server/webapp/dist/quick-build makes the binary say at start that it is not for
# deployment (server/webapp/dist.go); make build removes it.
build-dev:
	@$(MAKE) --no-print-directory -j2 wasm server-deps
	@rm -rf $(DIST)
	echo "brotli quality $(BROTLI_WASM_DEV) for the wasm files (make run); deploy what make build makes" > server/webapp/dist/quick-build
	./bin/tools/precompress -cache bin/brcache -brotli-wasm $(BROTLI_WASM_DEV) -out $(DIST) assets/web $(wildcard assets/*.js) $(WEB_OUT)/*.wasm
	$(BUILD_GO) build $(SERVER_FLAGS) -o bin/tinyrag-dev ./cmd/tinyrag

# A static site any static host serves, from any folder (relative URLs):
# make static BUNDLES="site-kb" (bundle folders made with ./bin/tinyrag
# bundle); STATIC_BASE=/docs/ask/ builds it with absolute URLs instead.
STATIC_OUT  ?= bin/static
STATIC_BASE ?=
BUNDLES     ?=
static: build
	./bin/tinyrag static -o $(STATIC_OUT) $(if $(STATIC_BASE),--base $(STATIC_BASE)) $(foreach b,$(BUNDLES),--bundle $(b))

run: build-dev
	./bin/tinyrag-dev serve --addr $(ADDR)

test: e2e-deps test-native test-wasm test-e2e

test-native:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

# The packages that run in the browser, compiled to wasm and run in Node.
# The app's packages under Node, with the modules as published; then those
# whose behaviour rests on the browser copies of modules (wasm/browsermod:
# goldmark, bluemonday, go-readability, bleve) again, with the copies, as
# the wasm files are built.
test-wasm: browsermod
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASM_EXEC)" ./app/...
	GOWORK=$(BROWSER_WORK) GOOS=js GOARCH=wasm $(GO) test $(BROWSER_TAGS) -count=1 -exec="$(WASM_EXEC)" ./app/markdown ./app/knowledge ./app/knowledge/memindex ./app/knowledge/rank ./app/knowledge/importer

e2e-deps:
	@bash .ci/ensure-chromium

test-e2e: build e2e-deps
	TINYRAG_E2E=1 $(GO) test -count=1 -timeout 30m ./server/e2e/

# Where app.wasm's code goes, by package and by module: an unstripped
# build's wasm name section read by wasm/pkgsize (docs/startup.md).
size-packages: browsermod
	$(BROWSER_GO) build $(BROWSER_FLAGS) -trimpath -o bin/app-names.wasm ./wasm/app
	$(BROWSER_GO) list $(BROWSER_TAGS) -deps ./wasm/app > bin/app-pkgs.txt
	$(GO) run ./wasm/pkgsize -pkgs bin/app-pkgs.txt -by module -top 30 bin/app-names.wasm
	$(GO) run ./wasm/pkgsize -pkgs bin/app-pkgs.txt -top 50 bin/app-names.wasm

size: wasm
	@printf "%-14s %12s %12s %12s\n" file raw gzip brotli
	@for f in $(WEB_OUT)/*.wasm assets/embed.js; do \
	  ./bin/tools/precompress -cache bin/brcache -brotli-wasm $(BROTLI_WASM) -size $$f; \
	done

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./app/...

bench-wasm:
	@mkdir -p bin
	GOOS=js GOARCH=wasm $(GO) build -o bin/bench.wasm ./wasm/bench
	$(WASM_EXEC) bin/bench.wasm -data $(SCIFACT)
	@# The JavaScript reference on the same machine, same moment: MiniSearch 7.2.
	@if (cd wasm/bench/minisearch && npm install --no-audit --no-fund --silent >/dev/null 2>&1); then \
	  node wasm/bench/minisearch/bench.mjs $(SCIFACT); \
	else echo "minisearch reference skipped: npm install failed (no registry?)"; fi

# SciFact imported in headless Chromium, then the page reloaded: how long
# until the knowledge base is searchable again (the reload target:
# searchable within 1 s of start). A Go benchmark of server/e2e, run once.
bench-reload: build e2e-deps
	TINYRAG_E2E=1 TINYRAG_BENCH_SCIFACT=$(abspath $(SCIFACT)) $(GO) test -count=1 -run '^$$' -bench BenchmarkReload -benchtime 1x -timeout 20m ./server/e2e/ | grep -E '^(browser_import|--- |ok|FAIL)'

# A first visit in headless Chromium with a fresh profile, the network
# throttled to 10 Mbit/s (40 ms RTT), on this machine's CPU and with the CPU
# slowed 4×: app.wasm's last byte, composer visible, app ready, bytes, first
# knowledge search; five runs each (TINYRAG_BENCH_RUNS), medians, with the
# load average. A measurement that prints a table (docs/startup.md): a Go
# benchmark of server/e2e, run once (it makes its own runs).
bench-cold: build e2e-deps
	TINYRAG_E2E=1 $(GO) test -count=1 -run '^$$' -bench BenchmarkCold -benchtime 1x -timeout 20m ./server/e2e/ | grep -E '^(bench-cold|\||--- |ok|FAIL)'

# A static site's search, tinyRAG next to Pagefind 1.6.0: SciFact as HTML
# pages (5k) and a site ten times larger (50k), each indexed by both and
# searched on first visits in headless Chromium at 10 Mbit/s, 40 ms. A
# measurement that prints tables (docs/site-knowledge-bench.md).
# BENCH_SITE_SIZES=5k measures only the small site. Pagefind is installed
# into bin/npm; without it, only tinyRAG is measured.
PAGEFIND         := bin/npm/node_modules/.bin/pagefind
BENCH_SITE_SIZES ?= 5k,50k
bench-site: build e2e-deps
	@mkdir -p bin/npm
	@if [ "$$($(PAGEFIND) --version 2>/dev/null)" != "pagefind 1.6.0" ] && \
	  ! npm install --prefix bin/npm --no-audit --no-fund --no-save --silent pagefind@1.6.0 >/dev/null 2>&1; then \
	  echo "Pagefind skipped: npm could not install pagefind@1.6.0 (no registry?)"; fi
	BENCH_SITE_SIZES=$(BENCH_SITE_SIZES) $(GO) run ./server/benchsite -scifact $(SCIFACT) -pagefind $(PAGEFIND)

screenshots: build e2e-deps
	TINYRAG_E2E=1 $(GO) test -count=1 -run 'Screenshot|Mount' ./server/e2e/
	@echo "screenshots in ./screenshots/"

clean:
	rm -rf bin screenshots $(DIST)
