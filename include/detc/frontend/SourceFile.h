//===- SourceFile.h - A Python source file and its position tables --------===//
//
// Holds the original bytes (for rewriting), the decoded code points (what the
// lexer reads) and the tables that turn a code-point index into a SourcePos.
// Decoding follows CPython: a UTF-8 BOM, or a PEP 263 coding cookie in the
// first two lines, else UTF-8.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_FRONTEND_SOURCEFILE_H
#define DETC_FRONTEND_SOURCEFILE_H

#include "detc/frontend/AST.h"
#include "detc/frontend/Diagnostics.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace detc::frontend {

class SourceFile {
public:
  /// Reads and decodes `path`. On failure (unreadable, undecodable, NUL
  /// bytes) returns null and adds a diagnostic to `diags`.
  static std::unique_ptr<SourceFile> load(llvm::StringRef path,
                                          DiagnosticEngine &diags);
  /// Same for bytes already in memory; `name` is used in diagnostics.
  static std::unique_ptr<SourceFile> fromBytes(llvm::StringRef name,
                                               std::string bytes,
                                               DiagnosticEngine &diags);

  llvm::StringRef getName() const { return name; }
  /// The file exactly as it is on disk.
  llvm::StringRef getBytes() const { return bytes; }
  /// Decoded text; lone '\r' line breaks are turned into '\n' (same length,
  /// so indices stay valid) because the lexer counts lines at '\n'. Empty
  /// once released.
  const std::u32string &getCodePoints() const { return codePoints; }
  /// Frees the decoded text (4 bytes a character) once the parser is done
  /// with it; positions and line texts are then read off the bytes. A file
  /// in another encoding than UTF-8 keeps it (its bytes are not the text).
  void releaseCodePoints();
  /// The encoding the file was decoded with ("utf-8", "latin-1", ...).
  llvm::StringRef getEncoding() const { return encoding; }
  unsigned getNumLines() const { return lineStarts.size(); }

  /// Position of code point `index`. `line` may be given when known (the
  /// lexer's line of a token); 0 means look it up.
  ast::SourcePos getPos(size_t index, unsigned line = 0) const;
  /// Position of the code point at byte offset `offset` of getBytes() (or
  /// of the end of the file).
  ast::SourcePos getPosOfByte(uint32_t offset) const;
  /// Whether the bytes are the decoded text as UTF-8 (but for a BOM and
  /// lone '\r' line breaks): a UTF-8 file, not one in another encoding.
  bool bytesAreUtf8() const { return origOffsets.empty(); }
  /// Byte offset in getBytes() of code point `index`.
  uint32_t getByteOffset(size_t index) const {
    if (!origOffsets.empty())
      return origOffsets[index];
    return getUtf8Offset(index) + byteBias;
  }
  /// The text of a 1-based line as UTF-8, without its line break.
  std::string getLineText(unsigned line) const;

private:
  SourceFile() = default;
  bool decode(DiagnosticEngine &diags);
  void buildTables();

  std::string name;
  std::string bytes;
  std::string encoding = "utf-8";
  std::u32string codePoints;
  size_t numCodePoints = 0;
  uint32_t getUtf8Offset(size_t index) const {
    return utf8Offsets.empty() ? static_cast<uint32_t>(index)
                               : utf8Offsets[index];
  }

  /// Code-point index of the first character of each line.
  std::vector<uint32_t> lineStarts;
  /// UTF-8 offset of each code point in the UTF-8 encoding of the text (plus
  /// one past the end); empty for ASCII text, where it is the index itself.
  /// Columns are UTF-8 bytes, as CPython's col_offset.
  std::vector<uint32_t> utf8Offsets;
  /// Byte offset in the original file of each code point (plus one past the
  /// end), only for files not stored as UTF-8.
  std::vector<uint32_t> origOffsets;
  uint32_t byteBias = 0; ///< 3 when the file starts with a UTF-8 BOM.
};

} // namespace detc::frontend

#endif // DETC_FRONTEND_SOURCEFILE_H
