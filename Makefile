# Vicinity — the two commands a new user needs: `make demo` and `make test`.
# Both install what is missing (libproj-dev through apt-get), build, and run.

SWIFT ?= swift
BIN_RELEASE := .build/release/vicinity
BIN_DEBUG := .build/debug/vicinity
# The benchmarks and the crash test's writer, kept out of the shipped binary.
BENCH_RELEASE := .build/release/vicinity-bench
# Sudo only when not root and available (a fresh Debian container runs as root without sudo).
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && echo sudo)

.PHONY: demo cluster-demo test deps build build-debug bench fuzz lint format clean generate check-generated

## Install the system libraries Vicinity links against (PROJ, SQLite), if pkg-config cannot find them,
## and Leaflet for the browser map.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists proj sqlite3; then \
		echo "installing libproj-dev (PROJ), libsqlite3-dev and pkg-config with apt-get"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends \
			libproj-dev proj-data libsqlite3-dev pkg-config >/dev/null; \
	fi
	@if [ ! -e /usr/share/zoneinfo/Europe/Rome ]; then \
		echo "installing tzdata (the time-zone database opening hours are evaluated with) with apt-get"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends tzdata >/dev/null; \
	fi
	@if [ ! -e /usr/share/javascript/leaflet/leaflet.js ]; then \
		echo "installing libjs-leaflet (Leaflet, which the browser map at / loads) with apt-get"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends libjs-leaflet >/dev/null; \
	fi
	@pkg-config --exists proj || { echo "PROJ is still missing: install libproj-dev" >&2; exit 1; }
	@pkg-config --exists sqlite3 || { echo "SQLite is still missing: install libsqlite3-dev" >&2; exit 1; }

build: deps
	$(SWIFT) build -c release --product vicinity

build-debug: deps
	$(SWIFT) build --build-tests

## The main job on the shipped data: pharmacies within 500 m of a few places.
demo: build
	@echo
	@echo "== Pharmacies within 500 m of Trafalgar Square, London (NHS data, WGS84 geodesic) =="
	$(BIN_RELEASE) near 51.508039 -0.128069 --radius 500
	@echo
	@echo "== The original app's example: 'your location' in Levent, Istanbul, 500 m then 700 m =="
	$(BIN_RELEASE) near 41.088154 29.015615 --radius 500 --data Data/pharmacies-istanbul-example.csv
	$(BIN_RELEASE) near 41.088154 29.015615 --radius 700 --data Data/pharmacies-istanbul-example.csv
	@echo
	@echo "== The neighbourhood as a text map: Oxford Circus, London, 500 m =="
	$(BIN_RELEASE) map 51.5152 -0.1420 --radius 500 --width 80 --height 24
	@echo
	@echo "== The 5 pharmacies nearest to King's Cross station =="
	$(BIN_RELEASE) nearest 51.530882 -0.123796 --count 5
	@echo
	@echo "== Pinerolo, Piedmont (OSM data with opening hours): the pharmacies within 500 m, marked open or closed now =="
	$(BIN_RELEASE) map 44.88534 7.33135 --radius 500 --open now --width 80 --height 24 --data Data/pharmacies-piemonte.csv
	@echo
	@echo "== ... and the nearest pharmacy open now, however far (unknown hours never count as open) =="
	$(BIN_RELEASE) nearest 44.88534 7.33135 --count 1 --open now --data Data/pharmacies-piemonte.csv
	@echo
	@echo "== Turin on Sunday 29 November 2026 at 22:00, with the SAMPLE duty rota (made up, Data/README.md) =="
	@rm -f .build/demo-rota.sqlite .build/demo-rota.sqlite-wal .build/demo-rota.sqlite-shm
	@$(BIN_RELEASE) import Data/pharmacies-piemonte.csv --kind pharmacy --db .build/demo-rota.sqlite >/dev/null 2>&1
	$(BIN_RELEASE) import-rota Data/rota-piemonte-sample.csv --keep-ended --db .build/demo-rota.sqlite
	$(BIN_RELEASE) near 45.0712 7.6861 --radius 500 --open 2026-11-29T22:00 --where dispensing=yes --db .build/demo-rota.sqlite
	$(BIN_RELEASE) nearest 45.0712 7.6861 --count 2 --open 2026-11-29T22:00 --db .build/demo-rota.sqlite
	@echo
	@echo "== One distance, three models =="
	$(BIN_RELEASE) dist 41.088154 29.015615 41.087853 29.014096

## Several nodes over one PostgreSQL on this machine: installs PostgreSQL 15 if missing, three nodes.
cluster-demo: build
	VICINITY=$(BIN_RELEASE) scripts/cluster-demo.sh

## The whole test suite: unit and property tests, the command line end to end, and style.
test: build-debug
	$(SWIFT) test --skip-build
	SWIFT=$(SWIFT) scripts/postgres-tests.sh
	VICINITY=$(BIN_DEBUG) scripts/cluster-tests.sh
	VICINITY=$(BIN_DEBUG) scripts/cli-acceptance.sh
	SWIFT=$(SWIFT) VICINITY_BENCH=$(dir $(BIN_DEBUG))vicinity-bench scripts/opening-hours-reference.sh
	VICINITY=$(BIN_DEBUG) scripts/client-sessions.sh
	VICINITY=$(BIN_DEBUG) scripts/watch-sse.sh
	VICINITY=$(BIN_DEBUG) scripts/real-clients.sh
	VICINITY=$(BIN_DEBUG) scripts/watch-clients.sh
	VICINITY=$(BIN_DEBUG) scripts/operator-faults.sh
	python3 scripts/redis-compat.py $(BIN_DEBUG)
	VICINITY=$(BIN_DEBUG) scripts/schemathesis.sh
	VICINITY=$(BIN_DEBUG) scripts/generated-client.sh
	VICINITY=$(BIN_DEBUG) scripts/browser-tests.sh
	$(MAKE) --no-print-directory lint

## Benchmarks for BENCHMARKS.md (release build, 1M points).
bench: build
	$(SWIFT) build -c release --product vicinity-bench
	$(BENCH_RELEASE) bench
	$(BENCH_RELEASE) bench-store

## libFuzzer on the request decoder, 1,000,000 inputs (not part of `make test`: ~10 min here).
fuzz:
	scripts/fuzz-decoder.sh

## The HTTP API's Swift code from openapi.yaml, written to Sources/HTTPAPI/Generated (committed).
## The generator lives in its own package (Tools/openapi): the main package never compiles it.
OPENAPI_TOOLS := Tools/openapi
OPENAPI_GENERATOR := $(OPENAPI_TOOLS)/.build/debug/swift-openapi-generator
OPENAPI_CONFIG := Sources/HTTPAPI/openapi-generator-config.yaml
GENERATED := Sources/HTTPAPI/Generated
# The Swift client the tests drive the server with (Tests/HTTPAPIClientTests), from the same file.
CLIENT_CONFIG := Tests/HTTPAPIClientTests/openapi-generator-config.yaml
CLIENT_GENERATED := Tests/HTTPAPIClientTests/Generated

$(OPENAPI_GENERATOR): $(OPENAPI_TOOLS)/Package.swift
	$(SWIFT) build --package-path $(OPENAPI_TOOLS) --product swift-openapi-generator

generate: $(OPENAPI_GENERATOR)
	$(OPENAPI_GENERATOR) generate openapi.yaml --config $(OPENAPI_CONFIG) --output-directory $(GENERATED)
	$(OPENAPI_GENERATOR) generate openapi.yaml --config $(CLIENT_CONFIG) --output-directory $(CLIENT_GENERATED)

## Fails when the committed generated code (server and test client) is not what openapi.yaml
## generates now (CI).
check-generated: $(OPENAPI_GENERATOR)
	@out=$$(mktemp -d) && trap 'rm -rf "$$out"' EXIT && \
	for pair in "$(OPENAPI_CONFIG) $(GENERATED)" "$(CLIENT_CONFIG) $(CLIENT_GENERATED)"; do \
		set -- $$pair; rm -rf "$$out/code"; \
		{ $(OPENAPI_GENERATOR) generate openapi.yaml --config $$1 --output-directory "$$out/code" \
			>"$$out/log" 2>&1 || { cat "$$out/log" >&2; exit 1; }; } && \
		if diff -ru $$2 "$$out/code"; then echo "$$2 matches openapi.yaml"; \
		else echo "$$2 is stale: run make generate and commit the result" >&2; exit 1; fi; \
	done

# Generated code is checked against openapi.yaml (check-generated), not against the house style.
SWIFT_SOURCES = $$(find Sources Tests Fuzz -name '*.swift' -not -path '*/Generated/*') Package.swift Tools/openapi/Package.swift

lint:
	$(SWIFT) format lint --strict --configuration .swift-format $(SWIFT_SOURCES)

format:
	$(SWIFT) format --in-place --configuration .swift-format $(SWIFT_SOURCES)

clean:
	rm -rf .build .build-fuzz .build-fuzz.log $(OPENAPI_TOOLS)/.build
