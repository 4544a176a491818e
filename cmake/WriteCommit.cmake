# `cmake -DSOURCE_DIR=... -DOUT=... -P WriteCommit.cmake`, run at every
# build: writes the commit the sources are at into OUT (for `detc
# --version`), and leaves OUT untouched when it has not changed, so that
# only what includes it is rebuilt, and only after a commit or checkout.
execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse --short=12 HEAD
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
endif()
set(text "#define DETC_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
