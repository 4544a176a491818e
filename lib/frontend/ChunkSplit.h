//===- ChunkSplit.h - Cut a file into independently parsed pieces -*- C++
//-*-===//
//
// Internal to lib/frontend. ANTLR keeps the whole parse tree of its input in
// memory (about 200 bytes per byte of Python); parsing a large file in
// pieces, and building each piece's AST before parsing the next, bounds that
// by the largest piece. Pieces are whole top-level statements, or — inside a
// large one, such as a `main` of thousands of lines — whole statements of
// the block it ends with.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_CHUNKSPLIT_H
#define DETC_LIB_FRONTEND_CHUNKSPLIT_H

#include <string>
#include <vector>

namespace detc::frontend {

/// Where a piece starts and where its statements belong.
struct Piece {
  size_t start = 0;   ///< Code-point offset of its first line (column 0).
  unsigned depth = 0; ///< 0: module level; d: the statements continue the
                      ///< block d indentation levels down that the last
                      ///< top-level statement so far ends with.
  size_t indent = 0;  ///< Their column (spaces; 0 at depth 0).

  bool operator==(const Piece &o) const {
    return start == o.start && depth == o.depth && indent == o.indent;
  }
};

/// The pieces of `text`, each of at least `target` code points (the first
/// starts at 0). A piece starts at a line that begins a statement: outside
/// any bracket, string or backslash continuation, not blank or a comment,
/// not `else`/`elif`/`except`/`finally` (which continue the statement
/// before), not right after a decorator or a line ending in ':'. A piece
/// inside a block must see every later line of its top-level statement at
/// least as indented as itself (so it holds no dedent out of the block),
/// indentation of spaces only, and no `match`/`case` around it (their
/// levels are not statements); the next top-level statement then starts a
/// new piece. Input the scan cannot follow (an unterminated string, an
/// unbalanced bracket, inconsistent indentation) is cut less or not at all,
/// so the parser reports its error as it would for the whole file.
std::vector<Piece> splitPieces(const std::u32string &text, size_t target);

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_CHUNKSPLIT_H
