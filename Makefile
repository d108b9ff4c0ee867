# tinyRAG — build, run and test. Every target works on a fresh clone with
# Go, Node and Debian packages only; see README.md.
SHELL      := /bin/bash
GO         ?= go
GOROOT     := $(shell $(GO) env GOROOT)
WASM_EXEC  := $(GOROOT)/lib/wasm/go_js_wasm_exec
ADDR       ?= 127.0.0.1:8080
WEB_OUT    := bin/web
DIST       := server/dist/web
SCIFACT    ?= ../shared/data/scifact
# brotli quality of the wasm files; BROTLI_WASM=9 builds faster and serves
# about 13 % larger wasm.
BROTLI_WASM ?= 11

.PHONY: all build static wasm run test test-native test-wasm test-e2e e2e-deps size bench bench-wasm bench-reload bench-cold bench-site screenshots fuzz clean

all: build

# The browser bundles. The nanoGo worker and the file importers get their
# own wasm, each loaded in a Web Worker on first use, so app.wasm carries
# neither the interpreter nor the importers. app.wasm is built in
# the browser workspace (wasm/browser.work), which swaps zap for stand-ins.
BROWSER_WORK := $(abspath wasm/browser.work)
wasm:
	@mkdir -p $(WEB_OUT)
	GOWORK=$(BROWSER_WORK) GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o $(WEB_OUT)/app.wasm ./wasm/app
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o $(WEB_OUT)/importer.wasm ./wasm/importer
	@if [ -d wasm/nanogo ]; then \
	  echo "GOOS=js GOARCH=wasm $(GO) build -o $(WEB_OUT)/nanogo.wasm ./wasm/nanogo"; \
	  GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o $(WEB_OUT)/nanogo.wasm ./wasm/nanogo; \
	fi

# bin/tinyrag with every asset embedded and precompressed (gzip + brotli;
# the wasm files at brotli's best, about a minute each, cached in bin/brcache
# by content so unchanged wasm is not compressed again).
build: wasm
	@rm -rf $(DIST)
	$(GO) run ./server/precompress -cache bin/brcache -brotli-wasm $(BROTLI_WASM) -out $(DIST) assets/web $(wildcard assets/*.js) $(wildcard $(WEB_OUT)/*.wasm)
	$(GO) build -trimpath -o bin/tinyrag ./server

# A static site any static host serves: make static STATIC_BASE=/docs/ask/
# BUNDLES="site.tinyrag" (bundles made with ./bin/tinyrag bundle).
STATIC_OUT  ?= bin/static
STATIC_BASE ?= /
BUNDLES     ?=
static: build
	./bin/tinyrag static -o $(STATIC_OUT) --base $(STATIC_BASE) $(foreach b,$(BUNDLES),--bundle $(b))

run: build
	./bin/tinyrag serve --addr $(ADDR)

test: e2e-deps test-native test-wasm test-e2e

test-native:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

# The packages that run in the browser, compiled to wasm and run in Node.
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASM_EXEC)" ./app/...

e2e-deps:
	@bash .ci/ensure-chromium

test-e2e: build e2e-deps
	TINYRAG_E2E=1 $(GO) test -count=1 -timeout 20m ./server/e2e/

size: wasm
	@printf "%-14s %12s %12s %12s\n" file raw gzip brotli
	@for f in $(WEB_OUT)/*.wasm assets/embed.js; do \
	  $(GO) run ./server/precompress -cache bin/brcache -brotli-wasm $(BROTLI_WASM) -size $$f; \
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
# searchable within 1 s of start).
bench-reload: build e2e-deps
	TINYRAG_E2E=1 TINYRAG_BENCH_SCIFACT=$(abspath $(SCIFACT)) $(GO) test -count=1 -run BenchReload -v ./server/e2e/ | grep -E '^(browser_import|--- |ok|FAIL)'

# A first visit in headless Chromium with a fresh profile, the network
# throttled to 10 and 50 Mbit/s (40 ms RTT): bytes, composer visible, app
# ready, first knowledge search. A measurement that prints a table.
bench-cold: build e2e-deps
	TINYRAG_E2E=1 TINYRAG_BENCH_COLD=1 $(GO) test -count=1 -run BenchCold -v -timeout 20m ./server/e2e/ | grep -E '^(bench-cold|\||--- |ok|FAIL)'

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
