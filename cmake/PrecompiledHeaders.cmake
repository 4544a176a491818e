# One precompiled header for the sources built with LLVM's flags (no
# exceptions, no RTTI): the dialect, lowering, analyses, codegen and the two
# tools. Nearly all of them include MLIR's IR headers through DetcOps.h, and
# parsing those is about 40% of a file's compile time (lib/analysis/Lint.cpp:
# 4.9 s of 11.8 s at -O3; 8.7 s with the header precompiled). The header is
# built once, by the dialect's object library, and reused by the others,
# which share its flags. A file compiled with other flags (-fexceptions for
# z3++) opts out with SKIP_PRECOMPILE_HEADERS.
#
# -DDETC_PRECOMPILED_HEADERS=OFF builds without it (to check that every file
# includes what it uses).
option(DETC_PRECOMPILED_HEADERS
       "Share one precompiled header of MLIR's IR headers" ON)

set(DETC_PRECOMPILED_HEADER_LIST
  [["detc/ir/DetcOps.h"]]
  <mlir/IR/Builders.h>
  <mlir/IR/BuiltinOps.h>
  <llvm/ADT/DenseMap.h>
  <llvm/ADT/DenseSet.h>
  <llvm/ADT/STLExtras.h>
  <llvm/ADT/SmallString.h>
  <llvm/ADT/StringExtras.h>
  <llvm/ADT/StringSet.h>
  <llvm/Support/FileSystem.h>
  <llvm/Support/FormatVariadic.h>
  <llvm/Support/JSON.h>
  <llvm/Support/Path.h>
  <llvm/Support/raw_ostream.h>
  <algorithm>
  <functional>
  <map>
  <set>
  <string>
  <vector>)

# detc_share_precompiled_header(OWNER [TARGET...]): OWNER builds the header,
# each TARGET reuses it.
function(detc_share_precompiled_header owner)
  if(NOT DETC_PRECOMPILED_HEADERS)
    return()
  endif()
  target_precompile_headers(${owner} PRIVATE ${DETC_PRECOMPILED_HEADER_LIST})
  # A header GCC cannot use (flags that differ) is a warning, not a silent
  # slow build.
  target_compile_options(${owner} PRIVATE -Winvalid-pch)
  foreach(target ${ARGN})
    target_precompile_headers(${target} REUSE_FROM ${owner})
    target_compile_options(${target} PRIVATE -Winvalid-pch)
  endforeach()
endfunction()
