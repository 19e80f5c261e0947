#!/bin/sh
# ravel_corpus_run.sh: the command of every `corpus` test (ravel_corpus_test in
# tests/CMakeLists.txt).
#
#   ravel_corpus_run.sh SCRIPT RAVEL CORPUS_DIR [ARGS...]
#
# Exits 77 (ctest reports the test as skipped) when CORPUS_DIR does not exist;
# otherwise runs SCRIPT RAVEL CORPUS_DIR ARGS... and exits with its status.
# SCRIPT runs directly when executable, else by its extension (.sh: bash,
# .py: python3).
script=$1
corpus=$3
if [ ! -d "$corpus" ]; then
    echo "corpus not found at $corpus: test skipped"
    exit 77
fi
if [ -x "$script" ]; then
    exec "$@"
fi
shift
case "$script" in
    *.sh) exec bash "$script" "$@" ;;
    *.py) exec python3 "$script" "$@" ;;
    *) echo "ravel_corpus_run.sh: $script is not executable" >&2; exit 1 ;;
esac
