# RavelFlags: compiler warnings, warnings-as-errors, sanitizers and fuzzing
# instrumentation for every target. Included once from the top-level
# CMakeLists.txt after the RAVEL_* options are declared.
#
#   RAVEL_WERROR    -Werror (on by default; `make check` builds both ways with it)
#   RAVEL_SANITIZE  AddressSanitizer + UndefinedBehaviorSanitizer, gcc or clang
#   RAVEL_FUZZ      libFuzzer coverage instrumentation everywhere, plus the
#                   harnesses in tests/fuzz (clang only)

add_compile_options(-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
                    -Wno-unused-parameter)
add_compile_definitions(_POSIX_C_SOURCE=200809L)
if(RAVEL_WERROR)
  add_compile_options(-Werror)
endif()

set(RAVEL_IS_CLANG OFF)
if(CMAKE_C_COMPILER_ID MATCHES "Clang")
  set(RAVEL_IS_CLANG ON)
endif()

if(RAVEL_FUZZ AND NOT RAVEL_IS_CLANG)
  message(FATAL_ERROR "RAVEL_FUZZ needs clang (libFuzzer); configure with "
                      "-DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19")
endif()

if(RAVEL_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
  if(RAVEL_IS_CLANG)
    # Our targets link with the C driver, but libcadical.a (Debian, built by
    # g++) is C++: link ASan's C++ runtime too, so operator new/delete inside
    # CaDiCaL go through ASan as well (alloc-dealloc mismatch, proper stacks).
    # libstdc++ itself comes from ravel_sat's `stdc++` link item.
    add_link_options(-fsanitize-link-c++-runtime)
  endif()
  # Sanitizer builds are for finding bugs: keep assert() on even in
  # RelWithDebInfo/Release, which CMake otherwise builds with -DNDEBUG.
  foreach(cfg RELWITHDEBINFO RELEASE MINSIZEREL)
    foreach(lang C CXX)
      string(REPLACE "-DNDEBUG" "" CMAKE_${lang}_FLAGS_${cfg} "${CMAKE_${lang}_FLAGS_${cfg}}")
    endforeach()
  endforeach()
endif()

if(RAVEL_FUZZ)
  # Coverage feedback for libFuzzer in every library; only the harnesses in
  # tests/fuzz link libFuzzer itself (-fsanitize=fuzzer).
  add_compile_options(-fsanitize=fuzzer-no-link)
  if(NOT RAVEL_SANITIZE)
    # Without ASan's runtime nothing defines the coverage callbacks that the
    # instrumentation calls, so every executable links libFuzzer without its
    # main() at the very end of its link line. Harnesses already carry all of
    # libFuzzer (-fsanitize=fuzzer), so nothing is taken from it there.
    execute_process(
      COMMAND ${CMAKE_C_COMPILER} -print-file-name=libclang_rt.fuzzer_no_main-${CMAKE_SYSTEM_PROCESSOR}.a
      OUTPUT_VARIABLE RAVEL_FUZZER_NO_MAIN OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT IS_ABSOLUTE "${RAVEL_FUZZER_NO_MAIN}" OR NOT EXISTS "${RAVEL_FUZZER_NO_MAIN}")
      message(FATAL_ERROR "RAVEL_FUZZ: libclang_rt.fuzzer_no_main not found "
                          "(Debian: libclang-rt-19-dev); or configure with RAVEL_SANITIZE=ON")
    endif()
    string(APPEND CMAKE_C_STANDARD_LIBRARIES " ${RAVEL_FUZZER_NO_MAIN} -lstdc++")
  endif()
endif()
