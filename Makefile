# Entry points for people and CI. CMake does the real work; this file only strings the steps
# together: install what is missing, configure, build, test.
#   make demo    installs what is missing, builds, indexes corpus/ into build/demo.sqlite and
#                runs example queries
#   make test    installs what is missing, builds, runs every test
#   make debug   Debug build with AddressSanitizer and UBSan in build-debug/, runs every test
#   make bench   runs scripts/bench-replay.sh on a Release build (when the script exists)

CMAKE ?= cmake
CTEST ?= ctest
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD_DIR ?= build
DEBUG_BUILD_DIR ?= build-debug

# Ninja when it is installed, otherwise cmake's default generator. Only a fresh build directory
# gets a -G: cmake refuses to switch the generator of an existing one. Deferred (=) so that a
# ninja installed by `make deps` in the same run is seen.
generator = $(if $(wildcard $(1)/CMakeCache.txt),,$(if $(shell command -v ninja 2>/dev/null),-G Ninja))

# Each step needs the previous one finished; cmake --build and ctest do the parallel work.
.NOTPARALLEL:
.DEFAULT_GOAL := build
.PHONY: deps build test demo debug bench clean

deps:
	./scripts/install-deps.sh

build:
	$(CMAKE) -S . -B $(BUILD_DIR) $(call generator,$(BUILD_DIR)) -DCMAKE_BUILD_TYPE=Release
	$(CMAKE) --build $(BUILD_DIR) -j $(JOBS)

test: deps build
	cd $(BUILD_DIR) && $(CTEST) --output-on-failure -j $(JOBS)

DEMO_DB ?= $(BUILD_DIR)/demo.sqlite

demo: deps build
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	@echo "Index the sample collections (a game with a transcription error is recorded as rejected):"
	-./$(BUILD_DIR)/indexer/5d-index --db $(DEMO_DB) --quiet corpus/
	@echo
	@echo "Indexing them again adds nothing:"
	-./$(BUILD_DIR)/indexer/5d-index --db $(DEMO_DB) --quiet --json corpus/
	@echo
	@echo "Games per variant:"
	sqlite3 -box $(DEMO_DB) "SELECT variant, count(*) AS games FROM games GROUP BY variant ORDER BY games DESC"
	@echo "Games where Shad played, by any header name case:"
	sqlite3 -box $(DEMO_DB) "SELECT g.id, g.white, g.black, g.result, g.actions, g.timelines FROM games g JOIN headers h ON h.game_id = g.id WHERE h.name = 'white' AND h.value LIKE 'Shad%' OR h.name = 'black' AND h.value LIKE 'Shad%' GROUP BY g.id"
	@echo "Games that ended in the same position as another game (by final state key):"
	sqlite3 -box $(DEMO_DB) "SELECT a.id, b.id AS same_as, a.actions, printf('%016x', a.final_key) AS final_key FROM games a JOIN games b ON b.final_key = a.final_key AND b.id < a.id"
	@echo "Duplicates and rejected games:"
	sqlite3 -box $(DEMO_DB) "SELECT id, duplicate_of, event FROM games WHERE duplicate_of IS NOT NULL"
	sqlite3 -box $(DEMO_DB) "SELECT game_index, line, col, message FROM rejected"
	@echo
	@echo "Replay only, with the specification's hash after every action of the first game:"
	./$(BUILD_DIR)/indexer/5d-index --check --hashes corpus/adri326-5dchess-notation.5dpgn | head -n 16

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

clean:
	rm -rf $(BUILD_DIR) $(DEBUG_BUILD_DIR)
