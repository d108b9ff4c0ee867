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

.PHONY: all build static bench-bundle wasm run test test-native test-wasm test-e2e e2e-deps size bench bench-wasm bench-reload screenshots fuzz clean

all: build

# The browser bundles. The nanoGo worker gets its own wasm, loaded lazily,
# so the main app.wasm never carries the interpreter.
wasm:
	@mkdir -p $(WEB_OUT)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o $(WEB_OUT)/app.wasm ./wasm/app
	@if [ -d wasm/nanogo ]; then \
	  echo "GOOS=js GOARCH=wasm $(GO) build -o $(WEB_OUT)/nanogo.wasm ./wasm/nanogo"; \
	  GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o $(WEB_OUT)/nanogo.wasm ./wasm/nanogo; \
	fi

# bin/tinyrag with every asset embedded and precompressed (gzip + brotli).
build: wasm
	@rm -rf $(DIST)
	$(GO) run ./server/precompress -out $(DIST) assets/web $(wildcard assets/*.js) $(wildcard $(WEB_OUT)/*.wasm)
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
	@for f in $(WEB_OUT)/*.wasm; do \
	  $(GO) run ./server/precompress -size $$f; \
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
# until the knowledge base is searchable again (issue 4's reload target).
bench-reload: build e2e-deps
	TINYRAG_E2E=1 TINYRAG_BENCH_SCIFACT=$(abspath $(SCIFACT)) $(GO) test -count=1 -run BenchReload -v ./server/e2e/ | grep -E '^(browser_import|--- |ok|FAIL)'

# SciFact shipped as a bundle with a static site: its size, and the time
# from app start to searchable on a first visit, next to importing it.
bench-bundle: build e2e-deps
	TINYRAG_E2E=1 TINYRAG_BENCH_SCIFACT=$(abspath $(SCIFACT)) $(GO) test -count=1 -timeout 20m -run BenchBundle -v ./server/e2e/ | grep -E '^(bundle_|--- |ok|FAIL)'

screenshots: build e2e-deps
	TINYRAG_E2E=1 $(GO) test -count=1 -run 'Screenshot|Mount' ./server/e2e/
	@echo "screenshots in ./screenshots/"

clean:
	rm -rf bin screenshots $(DIST)
