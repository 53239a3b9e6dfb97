# Runs one command of the liedyn CLI tests (tools/CMakeLists.txt, liedyn_cli_test) and checks it:
#   cmake -DCMD="<exe>|<arg>|..." -DEXPECT_CODE=<n> [-DOUT_REGEX=<re>] [-DERR_REGEX=<re>] -P run.cmake
# * the exit code must be exactly EXPECT_CODE (a crash gives a non-numeric result and fails);
# * OUT_REGEX / ERR_REGEX (when not empty) must match stdout / stderr;
# * EXPECT_CODE 2 (an error): stdout must be empty and stderr a single line starting with
#   "liedyn: error: ".
string(REPLACE "|" ";" cmd "${CMD}")
list(FILTER cmd EXCLUDE REGEX "^$")
execute_process(COMMAND ${cmd} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REPLACE ";" " " shown "${cmd}")
message("command: ${shown}\nexit code: ${code}\n--- stdout ---\n${out}--- stderr ---\n${err}--------------")

set(problems "")
if(NOT "${code}" STREQUAL "${EXPECT_CODE}")
  string(APPEND problems "expected exit code ${EXPECT_CODE}, got '${code}'\n")
endif()
if(NOT "${OUT_REGEX}" STREQUAL "" AND NOT "${out}" MATCHES "${OUT_REGEX}")
  string(APPEND problems "stdout does not match: ${OUT_REGEX}\n")
endif()
if(NOT "${ERR_REGEX}" STREQUAL "" AND NOT "${err}" MATCHES "${ERR_REGEX}")
  string(APPEND problems "stderr does not match: ${ERR_REGEX}\n")
endif()
if("${EXPECT_CODE}" STREQUAL "2")
  if(NOT "${out}" STREQUAL "")
    string(APPEND problems "an error must not print anything on stdout\n")
  endif()
  if(NOT "${err}" MATCHES "^liedyn: error: [^\n]+\n$")
    string(APPEND problems "stderr must be one line starting with 'liedyn: error: '\n")
  endif()
endif()
if(NOT "${problems}" STREQUAL "")
  message(FATAL_ERROR "${problems}")
endif()
