//===- LineSplit.h - Statements sharing a line, put on lines of their own -===//
//
// The planners put detc's lines before and after statements, guard skipped
// statements with `if ...:` and wrap checkpoints; none of that can be done
// to a statement that shares its line (`zero_grad(); loss.backward()`,
// `if step % 100 == 0: torch.save(...)`). Instead of leaving such a
// statement out (no sidecars for the whole script), the transform asks for
// those lines to be split: every statement of the line gets a line of its
// own, a body written on its header's line moves under the header, and
// the script is parsed, lowered and planned again. What the user reads
// stays theirs: diagnostics are told in the user's lines and columns, and
// the diff shows the user's line replaced by the split one.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_CODEGEN_LINESPLIT_H
#define DETC_CODEGEN_LINESPLIT_H

#include "detc/frontend/AST.h"
#include "detc/frontend/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace detc::codegen {

/// Where a line of a re-laid-out script comes from.
struct LineOrigin {
  /// Byte offset in the user's file of the first of the line's bytes that
  /// are the user's.
  uint32_t userOffset = 0;
  /// Bytes detc put at the line's start (the indentation of a statement
  /// moved to a line of its own).
  uint32_t inserted = 0;
  /// The line is detc's own (the JIT minibatch boundary).
  bool added = false;
  /// `inserted` is only a wider indentation of the user's line
  /// (widenIndentation), not a statement moved to a line of its own.
  bool reindented = false;
};

/// The user's script re-laid out, and where each of its lines comes from.
class Relayout {
public:
  /// The user's file unchanged.
  explicit Relayout(llvm::StringRef userBytes);

  llvm::StringRef text() const { return current; }
  llvm::StringRef userText() const { return user; }
  const std::vector<LineOrigin> &origins() const { return lines; }
  /// Whether the text is still the user's, byte for byte.
  bool identity() const { return current == user; }

  /// Splits the lines of the statements beginning at `offsets` (of the
  /// current text): each statement of those lines that shares a line gets
  /// its own. False, and nothing changes, when the text or the result does
  /// not parse or there is nothing to split.
  bool splitShared(llvm::ArrayRef<uint32_t> offsets);
  /// Puts `text` (without its break) as a new line of detc's own before
  /// the current text's line that starts at byte `lineStart`.
  void insertLine(uint32_t lineStart, llvm::StringRef text);
  /// Re-indents a script whose blocks are indented by fewer than
  /// `minStep` columns more than their headers, or with tabs (Google's
  /// 2-space style): the indentation of every line that starts a logical
  /// line is expanded (tabs to multiples of 8) and multiplied by the
  /// smallest factor that makes every step `minStep` or more, so blocks
  /// nest as before. Lines inside strings and continuation lines keep
  /// their bytes. False, and nothing changes, when no step is narrower.
  /// (Reindent.cpp.)
  bool widenIndentation(unsigned minStep);

  /// `d` (about the current text of `fileName`) told in the user's lines,
  /// columns and line text.
  frontend::Diagnostic toUser(frontend::Diagnostic d,
                              llvm::StringRef fileName) const;
  /// The 1-based user line of the current text's line `line`; 0 for a
  /// line of detc's own.
  unsigned userLine(unsigned line) const;
  /// The user's byte offset of the current text's byte `offset`.
  uint32_t userOffset(uint32_t offset) const;
  /// The 1-based lines of the current text that start with a statement
  /// splitShared moved there.
  std::vector<unsigned> movedLines() const;
  /// The byte offset in the current text where its line `line` starts.
  uint32_t lineStart(unsigned line) const;
  /// The user's text of the user line `line`, without its break.
  llvm::StringRef userLineText(unsigned line) const;

private:
  void setText(std::string text, std::vector<LineOrigin> origins);
  /// Whether `text` parses (a re-laid-out text must, to replace the
  /// user's).
  static bool parses(llvm::StringRef text);
  std::string user;
  std::vector<uint32_t> userLineStarts;
  std::string current;
  std::vector<uint32_t> currentStarts; ///< Where `current`'s lines start.
  std::vector<LineOrigin> lines;       ///< One per line of `current`.
};

} // namespace detc::codegen

#endif // DETC_CODEGEN_LINESPLIT_H
