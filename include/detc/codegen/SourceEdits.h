//===- SourceEdits.h - Byte-exact edits of a Python source file -*- C++ -*-===//
//
// detc's output is the user's script byte for byte except where detc edits
// it, and every edited line carries a `# detc:` comment saying why. An
// EditList collects the edits (text wrapped around a byte span, whole lines
// inserted before a line, notes for the comment of a line), applies them in
// one pass, and renders them as a unified diff.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_CODEGEN_SOURCEEDITS_H
#define DETC_CODEGEN_SOURCEEDITS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace detc::codegen {

class EditList {
public:
  explicit EditList(llvm::StringRef source);

  /// Puts `prefix` before byte `begin` and `suffix` after byte `end - 1`.
  /// Wraps nest: at a shared position the outer span's prefix comes first
  /// and its suffix last; of two wraps of the same span, the first made is
  /// the outer one.
  void wrap(uint32_t begin, uint32_t end, std::string prefix,
            std::string suffix);
  /// Inserts `lines` (each without its line break) before line `line`
  /// (1-based), each ending with `# detc: note`.
  void insertLines(unsigned line, std::vector<std::string> lines,
                   llvm::StringRef note);
  /// Inserts `lines` that belong to the statement on line `line` (the
  /// announcement of the checkpoint it writes) before it, after every line
  /// inserted there otherwise: those belong to the statement before it
  /// (the restore code after a hint), and run first.
  void insertLinesOfNext(unsigned line, std::vector<std::string> lines,
                         llvm::StringRef note);
  /// A line to insert and the note of its `# detc:` comment.
  using NotedLine = std::pair<std::string, std::string>;
  /// Removes and returns the lines inserted before `line` so far (a planner
  /// that opens and closes blocks there interleaves them with its own).
  std::vector<NotedLine> takeLines(unsigned line);
  /// Inserts `lines` before `line`, ahead of lines inserted there later.
  /// `line` may be one past the last line: the lines go at the end.
  void insertNotedLines(unsigned line, const std::vector<NotedLine> &lines);
  /// Replaces the bytes [begin, end) of one line by `text`.
  void replace(uint32_t begin, uint32_t end, std::string text);
  /// Adds `note` to the `# detc:` comment of line `line`.
  void note(unsigned line, llvm::StringRef note);
  /// Line `line` of the source is not the user's: detc put it there before
  /// editing (the JIT minibatch boundary); the diff shows it as added.
  void markAdded(unsigned line) { added.push_back(line); }
  /// Line `line` of the source is the user's line `text` as detc changed
  /// it before editing (its statements split onto lines of their own):
  /// the diff shows `text` removed.
  void setUserLine(unsigned line, std::string text) {
    userText[line] = std::move(text);
  }

  /// 1-based line of byte `offset`.
  unsigned lineOf(uint32_t offset) const;
  /// The byte where 1-based line `line` starts; none past the last line.
  std::optional<uint32_t> lineStart(unsigned line) const;
  /// Whether lines are to be inserted before `line` (by a planner so far).
  bool hasLinesBefore(unsigned line) const;
  /// The line break the file uses ("\n" or "\r\n").
  llvm::StringRef lineBreak() const { return eol; }

  /// How many lines are inserted before each original line that has some
  /// (maps lines of the edited file back to the original's).
  std::map<unsigned, unsigned> insertedBefore() const;

  /// The edited file.
  std::string apply() const;
  /// A unified diff (3 lines of context) from the original to apply().
  std::string diff(llvm::StringRef oldName, llvm::StringRef newName) const;
  bool empty() const { return inserts.empty() && notes.empty(); }

private:
  struct Insert {
    uint32_t offset;
    uint32_t spanLength; ///< Orders wraps sharing a position.
    unsigned order;      ///< Of the wrap: among equal spans, first is outer.
    bool isSuffix;
    std::string text;
  };
  struct LineNote {
    unsigned line;
    std::string text;
  };
  struct NewLines {
    unsigned line;
    std::vector<std::string> lines;
    std::string note;
    bool ofNext = false; ///< By insertLinesOfNext(): after the others.
  };
  /// The lines inserted before `line`, in the order they are written.
  std::vector<const NewLines *> linesAt(unsigned line) const;
  /// Appends src[from, to) to `out`, without the replaced bytes.
  void appendSource(std::string &out, uint32_t from, uint32_t to) const;
  /// The inserted lines before `line`, each with its note and break.
  std::string linesBefore(unsigned line) const;
  /// Original line `line`, edited, followed by its break; and the lines
  /// inserted before it.
  void renderLine(unsigned line, std::string &before, std::string &text) const;

  llvm::StringRef src;
  std::string eol;
  std::vector<uint32_t> lineStarts;
  uint32_t bom = 0; ///< bytes of a leading UTF-8 BOM
  std::vector<Insert> inserts;
  std::vector<LineNote> notes;
  std::vector<NewLines> newLines;
  std::vector<unsigned> added; ///< Source lines that are not the user's.
  std::map<unsigned, std::string> userText; ///< By setUserLine().
  std::vector<std::pair<uint32_t, uint32_t>> removed; ///< By replace().
};

} // namespace detc::codegen

#endif // DETC_CODEGEN_SOURCEEDITS_H
