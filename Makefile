# Entry points for people and CI. CMake does the real work; this file only strings the steps
# together: install what is missing, configure, build, test.
#   make demo    installs what is missing for building (install-deps.sh --demo), builds, indexes
#                corpus/ into build/demo.sqlite, runs example queries with 5d-query and says how to
#                open the explorer (5d-query serve)
#   make test    installs what is missing, builds with assertions on (an optimized build without
#                NDEBUG, in build-check/), runs every test
#   make debug   Debug build with AddressSanitizer and UBSan in build-debug/, runs every test
#   make bench   runs scripts/bench-replay.sh on a Release build (when the script exists)
#   make fuzz    builds the libFuzzer harnesses with clang, ASan and UBSan in build-fuzz/ and runs
#                each for FUZZ_RUNS executions or FUZZ_SECONDS seconds (scripts/fuzz.sh,
#                docs/FUZZING.md)

CMAKE ?= cmake
CTEST ?= ctest
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD_DIR ?= build
DEBUG_BUILD_DIR ?= build-debug
CHECK_BUILD_DIR ?= build-check
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_RUNS ?= 1000000
FUZZ_SECONDS ?= 0

# Ninja when it is installed, otherwise cmake's default generator. Only a fresh build directory
# gets a -G: cmake refuses to switch the generator of an existing one. Deferred (=) so that a
# ninja installed by `make deps` in the same run is seen.
generator = $(if $(wildcard $(1)/CMakeCache.txt),,$(if $(shell command -v ninja 2>/dev/null),-G Ninja))

# Each step needs the previous one finished; cmake --build and ctest do the parallel work.
.NOTPARALLEL:
.DEFAULT_GOAL := build
.PHONY: deps deps-demo build test demo debug bench fuzz clean

deps:
	./scripts/install-deps.sh

# The demo needs only what building takes, not the browser the browser tests drive (about 400 MB).
deps-demo:
	./scripts/install-deps.sh --demo

build:
	$(CMAKE) -S . -B $(BUILD_DIR) $(call generator,$(BUILD_DIR)) -DCMAKE_BUILD_TYPE=Release
	$(CMAKE) --build $(BUILD_DIR) -j $(JOBS)

# The tests run on an optimized build that keeps assert() (FIVED_ASSERTIONS), so that CI checks
# the invariants the code asserts; `make build` and the benchmarks stay Release without them.
test: deps
	$(CMAKE) -S . -B $(CHECK_BUILD_DIR) $(call generator,$(CHECK_BUILD_DIR)) \
	  -DCMAKE_BUILD_TYPE=Release -DFIVED_ASSERTIONS=ON
	$(CMAKE) --build $(CHECK_BUILD_DIR) -j $(JOBS)
	cd $(CHECK_BUILD_DIR) && $(CTEST) --output-on-failure -j $(JOBS)

DEMO_DB ?= $(BUILD_DIR)/demo.sqlite

demo: deps-demo build
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	@echo "Index the sample collections (a game with a transcription error is recorded as rejected,"
	@echo "so 5d-index exits with 1; 2 or 3 would stop the demo):"
	./$(BUILD_DIR)/indexer/5d-index --db $(DEMO_DB) --quiet corpus/ || [ $$? -eq 1 ]
	@echo
	@echo "Indexing them again adds nothing:"
	./$(BUILD_DIR)/indexer/5d-index --db $(DEMO_DB) --quiet --json corpus/ || [ $$? -eq 1 ]
	@echo
	@echo "Statistics of the database:"
	./$(BUILD_DIR)/query/5d-query --db $(DEMO_DB) stats --top 5
	@echo
	@echo "Games Shad played, longest first:"
	./$(BUILD_DIR)/query/5d-query --db $(DEMO_DB) --player 'shad*' --sort -actions
	@echo
	@echo "Games that reached the position after 1. e3 / e6 2. Nf3 / Nf6:"
	./$(BUILD_DIR)/query/5d-query --db $(DEMO_DB) --moves '1. e3 / e6 2. Nf3 / Nf6'
	@echo
	@echo "Games that had a white queen on h5, then a black pawn on g6 a turn later on that timeline"
	@echo "(patterns: docs/patterns.md):"
	./$(BUILD_DIR)/query/5d-query --db $(DEMO_DB) \
	  --pattern '????????/????????/????????/???????Q/????????/????????/????????/????????' \
	  --pattern '????????/????????/??????p?/????????/????????/????????/????????/????????:=:=+1:='
	@echo
	@echo "Opening tree of Standard, two actions deep:"
	./$(BUILD_DIR)/query/5d-query --db $(DEMO_DB) tree --depth 2
	@echo
	@echo "Copies, games with the same moves, unfinished copies and twins:"
	./$(BUILD_DIR)/query/5d-query --db $(DEMO_DB) duplicates
	@echo
	@echo "A game after its 9th action (also drawn as SVG in $(BUILD_DIR)/demo-game.svg):"
	./$(BUILD_DIR)/query/5d-query --db $(DEMO_DB) show 14 --action 9 --columns 4 --svg $(BUILD_DIR)/demo-game.svg
	@echo
	@echo "The database also answers SQL (schema/README.md); rejected games with the reason:"
	sqlite3 -box $(DEMO_DB) "SELECT game_index, line, col, message FROM rejected"
	@echo
	@echo "Replay only, with the specification's hash after every action of the first game:"
	./$(BUILD_DIR)/indexer/5d-index --check --hashes corpus/adri326-5dchess-notation.5dpgn 2>/dev/null | head -n 16
	@echo
	@echo "To explore the database in a browser (opening explorer, search, games, statistics), run"
	@echo "  ./$(BUILD_DIR)/query/5d-query --db $(DEMO_DB) serve"
	@echo "and open http://127.0.0.1:8080/ (Ctrl-C stops the server; --port N picks another port)."

debug: deps
	$(CMAKE) -S . -B $(DEBUG_BUILD_DIR) $(call generator,$(DEBUG_BUILD_DIR)) \
	  -DCMAKE_BUILD_TYPE=Debug -DFIVED_SANITIZE=ON
	$(CMAKE) --build $(DEBUG_BUILD_DIR) -j $(JOBS)
	cd $(DEBUG_BUILD_DIR) && $(CTEST) --output-on-failure -j $(JOBS)

bench: deps build
	@if [ -f scripts/bench-replay.sh ]; then \
	  bash scripts/bench-replay.sh; \
	else \
	  echo "bench: scripts/bench-replay.sh does not exist yet"; \
	fi

# Not part of make test, which runs only a short, fixed run of each harness under g++ (ctest
# fuzz_short.NAME): here the harnesses run for as long as FUZZ_RUNS asks.
fuzz: deps
	./scripts/install-deps.sh --fuzz
	CC=clang CXX=clang++ $(CMAKE) -S . -B $(FUZZ_BUILD_DIR) $(call generator,$(FUZZ_BUILD_DIR)) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFIVED_ASSERTIONS=ON -DFIVED_FUZZ=ON
	$(CMAKE) --build $(FUZZ_BUILD_DIR) -j $(JOBS) --target fuzz_pgn fuzz_fen fuzz_archive fuzz_pattern
	./scripts/fuzz.sh $(FUZZ_BUILD_DIR) $(FUZZ_RUNS) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD_DIR) $(DEBUG_BUILD_DIR) $(CHECK_BUILD_DIR) $(FUZZ_BUILD_DIR)
