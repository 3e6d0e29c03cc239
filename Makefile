# Entry points for people and CI. CMake does the real work; this file only strings the steps
# together: install what is missing, configure, build, test.
#   make demo    installs what is missing, builds, replays the sample games in corpus/
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

demo: deps build
	./$(BUILD_DIR)/indexer/5d-index --check corpus/*.5dpgn
	@echo
	@echo "A game with a transcription error is rejected with its place and reason (exit status 1):"
	-./$(BUILD_DIR)/indexer/5d-index --check corpus/rejected/*.5dpgn
	@echo
	@echo "The specification's hash after every action of the first game:"
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
