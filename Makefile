# ravel: the top-level driver over CMake (GNU make).
#
#   make          build build/ravel (RelWithDebInfo, gcc)
#   make setup    check (and as root install) the Debian packages ravel needs
#   make demo     build, run the examples, print how to start the playground
#   make check    what CI runs (.ci/run): gcc build + every test in build/, then
#                 clang-19 ASan+UBSan+libFuzzer build + every test in build-asan/
#   make fuzz     every fuzzer in build-asan/ for FUZZ_SECONDS (60) each
#   make clean    remove build/ and build-asan/
#
# Variables: JOBS (build parallelism, nproc), CTEST_JOBS (2), FUZZ_SECONDS (60),
# RAVEL_FUZZ_SECONDS (20, the budget of each fuzzer inside `make check`).

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -ec
.DEFAULT_GOAL := build
.PHONY: setup build demo check check-gcc check-asan asan fuzz clean help

# The Debian 12 packages ravel needs to build and test: the one list.
RAVEL_PACKAGES := cmake make gcc g++ pkg-config libcadical-dev libcmocka-dev \
                  clang-19 libclang-19-dev libclang-rt-19-dev llvm-19 graphviz depqbf \
                  libc6-dev-i386 gcc-multilib libz3-dev libmicrohttpd-dev libgraphviz-dev \
                  chromium chromium-driver

JOBS               ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_JOBS         ?= 2
FUZZ_SECONDS       ?= 60
RAVEL_FUZZ_SECONDS ?= 20
APT_GET            ?= apt-get
BUILD_TYPE         := RelWithDebInfo
SAN_ENV            := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
                      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

GCC_FLAGS  := -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
              -DRAVEL_WERROR=ON -DRAVEL_SANITIZE=OFF -DRAVEL_FUZZ=OFF
ASAN_FLAGS := -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_C_COMPILER=clang-19 \
              -DCMAKE_CXX_COMPILER=clang++-19 -DRAVEL_WERROR=ON -DRAVEL_SANITIZE=ON \
              -DRAVEL_FUZZ=ON -DRAVEL_FUZZ_SECONDS=$(RAVEL_FUZZ_SECONDS)

help:
	@sed -n '3,12s/^# \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

# Installed means dpkg status "ii". Non-root: print the apt-get line and fail.
# Root: apt-get update only when some missing package has no install
# candidate, then install. RAVEL_ASSUME_NONROOT=1 takes the non-root path
# (for testing); APT_GET can be overridden likewise.
setup:
	@missing_pkgs() { \
	    dpkg-query -W -f='$${Package} $${db:Status-Abbrev}\n' $(RAVEL_PACKAGES) 2>/dev/null \
	    | awk 'BEGIN { n = split("$(RAVEL_PACKAGES)", want, " ") } \
	           $$2 == "ii" { ok[$$1] = 1 } \
	           END { for (i = 1; i <= n; i++) if (!(want[i] in ok)) { printf "%s%s", sep, want[i]; sep = " " } }' \
	    || true; \
	}; \
	missing=$$(missing_pkgs); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" != 0 ] || [ -n "$${RAVEL_ASSUME_NONROOT:-}" ]; then \
	    echo "ravel: missing Debian packages; run as root:  apt-get install $$missing" >&2; \
	    exit 1; \
	fi; \
	echo "ravel: installing missing Debian packages: $$missing"; \
	for p in $$missing; do \
	    if ! apt-cache policy "$$p" 2>/dev/null | grep -q 'Candidate: [^(]'; then \
	        $(APT_GET) update; break; \
	    fi; \
	done; \
	DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y --no-install-recommends $$missing; \
	missing=$$(missing_pkgs); \
	if [ -n "$$missing" ]; then \
	    echo "ravel: still missing after apt-get install: $$missing" >&2; exit 1; \
	fi

build: setup
	cmake -S . -B build -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	cmake --build build -j$(JOBS)

demo: build
	build/ravel litmus examples/litmus/*.litmus
	build/ravel litmus --verdict-only -m tso examples/litmus/*.litmus
	build/ravel ir examples/c/counter.c
	build/ravel seq examples/c/counter.c -o build/counter-seq.c && gcc -w -c build/counter-seq.c -o build/counter-seq.o
	@echo "ravel seq: build/counter-seq.c is the sequential program (it compiles)"
	build/ravel check examples/c/counter_race.c || test $$? = 1   # exit 1: a bug, as expected
	build/ravel check examples/c/single.c
	build/ravel race --max-races 1 examples/c/counter_race.c || test $$? = 1   # exit 1: a race, as expected
	build/ravel deadlock examples/c/abba.c || test $$? = 1        # exit 1: a deadlock, as expected
	@echo "ravel serve: the playground (a web page over these commands); start it with"
	@echo "    build/ravel serve        # then open http://127.0.0.1:8080/ ; Ctrl-C stops it"
	@if [ -d ../shared/corpus/litmus/tests ]; then \
	  echo "with the corpus's litmus tests as samples and herd's x86-TSO cat model in the picker:"; \
	  echo "    build/ravel serve --samples ../shared/corpus/litmus/tests --models ../shared/corpus/litmus-hw/models/x86tso"; fi

# Prints "<passed> passed, <failed> failed, <skipped> skipped" from a ctest log.
ctest_counts = awk '/tests passed, .* tests failed out of/ { total = $$NF; failed = $$(NF-5) } \
    /\((Skipped|Disabled)\)$$/ { skipped++ } \
    END { if (total == "") { print "no test results"; exit } \
          printf "%d passed, %d failed, %d skipped", total - failed - skipped, failed, skipped }' $(1)

# Both builds run even if the first fails; the last line sums up.
check: setup
	@start=$$(date +%s); status=0; \
	$(MAKE) --no-print-directory check-gcc || status=1; \
	$(MAKE) --no-print-directory check-asan || status=1; \
	summary() { \
	    if [ -f $$1/.check-built ]; then \
	        if [ -f $$1/ctest.log ]; then $(call ctest_counts,$$1/ctest.log); \
	        else printf 'tests did not run'; fi; \
	    else printf 'BUILD FAILED'; fi; \
	}; \
	verdict=$$([ $$status = 0 ] && echo PASS || echo FAIL); \
	echo "ravel check: $$verdict | gcc: $$(summary build) | clang-19 asan+ubsan+fuzz: $$(summary build-asan) | $$(( $$(date +%s) - start )) s"; \
	exit $$status

check-gcc:
	@rm -f build/.check-built build/ctest.log
	cmake -S . -B build $(GCC_FLAGS)
	cmake --build build -j$(JOBS)
	@touch build/.check-built
	ctest --test-dir build --output-on-failure -j$(CTEST_JOBS) 2>&1 | tee build/ctest.log

asan:
	@rm -f build-asan/.check-built build-asan/ctest.log
	CC=clang-19 CXX=clang++-19 cmake -S . -B build-asan $(ASAN_FLAGS)
	cmake --build build-asan -j$(JOBS)
	@touch build-asan/.check-built

check-asan: asan
	$(SAN_ENV) ctest --test-dir build-asan --output-on-failure -j$(CTEST_JOBS) 2>&1 \
	    | tee build-asan/ctest.log

fuzz: setup asan
	$(SAN_ENV) FUZZ_SECONDS=$(FUZZ_SECONDS) cmake --build build-asan --target fuzz_all

clean:
	rm -rf build build-asan
