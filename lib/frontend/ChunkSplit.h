//===- ChunkSplit.h - Cut a file into independently parsed pieces -*- C++ -*-===//
//
// Internal to lib/frontend. ANTLR keeps the whole parse tree of its input in
// memory (about 200 bytes per byte of Python); parsing a large file in
// pieces of whole top-level statements, and building each piece's AST
// before parsing the next, bounds that by the largest piece.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_CHUNKSPLIT_H
#define DETC_LIB_FRONTEND_CHUNKSPLIT_H

#include <string>
#include <vector>

namespace detc::frontend {

/// Code-point offsets where pieces of at least `target` code points start
/// (the first is 0). A piece starts at a line that begins a top-level
/// statement: column 0, not blank or a comment, outside any bracket, string
/// or backslash continuation, not `else`/`elif`/`except`/`finally` (which
/// continue the statement before) and not right after a decorator line.
/// Input the scan cannot follow (an unterminated string) stays in one
/// piece, so the parser reports the error as it would for the whole file.
std::vector<size_t> chunkStarts(const std::u32string &text, size_t target);

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_CHUNKSPLIT_H
