# RavelFuzzRun: run one libFuzzer harness for a time budget (cmake -P script).
#
#   cmake -DFUZZER=<exe> -DNAME=<name> -DSEEDS=<seed dir> -DWORK=<work dir>
#         -DSECONDS=<n> [-DMODE=fresh|keep] [-DDICT=<file>]
#         [-DREGRESSIONS=<tests/fuzz/regressions/name>] -P RavelFuzzRun.cmake
#
# The seeds (tests/fuzz/corpus/<name>/) are copied into WORK/corpus, which is
# the only corpus directory libFuzzer writes to, so the source tree is never
# modified. MODE=fresh (the ctest `fuzz` label) starts from the seeds every
# time; MODE=keep (`make fuzz`) keeps what earlier runs found and adds the
# seeds. If the environment has FUZZ_SECONDS set, it replaces SECONDS in keep
# mode. Crash inputs land in WORK/artifacts/; the script fails (exit 1) on any
# crash, leak, timeout or out-of-memory and says how to keep the input as a
# regression test.
foreach(var FUZZER NAME SEEDS WORK SECONDS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RavelFuzzRun: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED REGRESSIONS)
  set(REGRESSIONS "tests/fuzz/regressions/${NAME}")
endif()
if(NOT DEFINED MODE)
  set(MODE fresh)
endif()
if(MODE STREQUAL "keep" AND DEFINED ENV{FUZZ_SECONDS} AND NOT "$ENV{FUZZ_SECONDS}" STREQUAL "")
  set(SECONDS "$ENV{FUZZ_SECONDS}")
endif()

set(corpus "${WORK}/corpus")
set(artifacts "${WORK}/artifacts")
if(MODE STREQUAL "fresh")
  file(REMOVE_RECURSE "${corpus}" "${artifacts}")
endif()
file(MAKE_DIRECTORY "${corpus}" "${artifacts}")
if(IS_DIRECTORY "${SEEDS}")
  file(GLOB seeds LIST_DIRECTORIES false "${SEEDS}/*")
  if(seeds)
    file(COPY ${seeds} DESTINATION "${corpus}")
  endif()
endif()
file(GLOB seeded LIST_DIRECTORIES false "${corpus}/*")
list(LENGTH seeded nseeded)

set(args -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
         -artifact_prefix=${artifacts}/)
if(DEFINED DICT AND EXISTS "${DICT}")
  list(APPEND args -dict=${DICT})
endif()
message(STATUS "fuzz ${NAME}: ${SECONDS} s, ${nseeded} inputs in ${corpus}")
execute_process(COMMAND "${FUZZER}" ${args} "${corpus}"
                WORKING_DIRECTORY "${WORK}"
                RESULT_VARIABLE rc)

file(GLOB found LIST_DIRECTORIES false "${artifacts}/*")
if(NOT rc EQUAL 0 OR found)
  set(msg "fuzz ${NAME}: the fuzzer failed (exit ${rc}).")
  foreach(f ${found})
    get_filename_component(fname "${f}" NAME)
    string(APPEND msg "\n  input: ${f}"
                      "\n    reproduce: ${FUZZER} ${f}"
                      "\n    keep as a regression test (after the fix): mkdir -p ${REGRESSIONS} && "
                      "cp ${f} ${REGRESSIONS}/${fname}")
  endforeach()
  message(FATAL_ERROR "${msg}")
endif()
