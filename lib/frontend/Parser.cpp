//===- Parser.cpp - Parse driver ------------------------------------------===//
//
// Runs the parse and the AST build on a thread with a large stack: the
// parser's recursion follows the nesting of the input, and the StackBudget
// turns excessive nesting into a diagnostic long before the stack ends.
//
//===----------------------------------------------------------------------===//

#include "detc/frontend/Parser.h"

#include "ASTBuilder.h"
#include "BlockAssembler.h"
#include "ChunkSplit.h"
#include "ParseRun.h"

#include "detc/frontend/ASTDump.h"

#include <algorithm>
#include <limits>

#include <pthread.h>

using namespace detc::frontend;

namespace {
constexpr size_t kParseStackSize = 512u << 20; // Reserved, not committed.
constexpr size_t kStackBudget = 448u << 20;

struct ParseJob {
  const SourceFile *file;
  DiagnosticEngine *diags;
  size_t pieceCodePoints;
  std::unique_ptr<ParsedModule> result;
};
} // namespace

/// Where the first node (in preorder) nested deeper than kMaxNestingDepth
/// starts (or its nearest ancestor with a position: `arguments` of a lambda
/// has none), found without recursion.
static std::optional<detc::ast::SourcePos>
findTooDeep(const detc::ast::Module *module) {
  struct Item {
    const detc::ast::Node *node;
    unsigned depth;
    detc::ast::SourcePos at;
  };
  std::vector<Item> work{{module, 1, {1, 0, 0}}};
  while (!work.empty()) {
    Item item = work.back();
    work.pop_back();
    if (item.node->getRange().begin.line)
      item.at = item.node->getRange().begin;
    if (item.depth > kMaxNestingDepth)
      return item.at;
    size_t first = work.size();
    detc::ast::forEachChild(item.node,
                            [&](llvm::StringRef, const detc::ast::Node *c) {
                              if (c)
                                work.push_back({c, item.depth + 1, item.at});
                            });
    // Preorder: the first child is taken next.
    std::reverse(work.begin() + first, work.end());
  }
  return std::nullopt;
}

/// The first syntax error of parsing `cps[from, to)` from a top-level
/// statement, or none.
static std::optional<SyntaxError> errorOfRange(const SourceFile &file,
                                               size_t from, size_t to,
                                               const StackBudget &budget) {
  const std::u32string &cps = file.getCodePoints();
  ParseRun run(cps.data() + from, cps.data() + to, /*implicitJoining=*/false,
               budget, file.getPos(from).line);
  if (run.run(&PythonParser::fileInput))
    return std::nullopt;
  SyntaxError err = *run.getError();
  err.index += from;
  return err;
}

namespace {
enum class PieceParse { Done, ParseWhole };
} // namespace

/// Where piece `k` failed, the error the whole file's parse reports. That
/// parse would not have stopped at the piece's end: an error found there
/// (a `try:` whose handlers are in the next piece) or inside a block may
/// read differently. So the file is parsed again from the top-level
/// statement the piece belongs to, through more and more pieces, until the
/// error is not at the end of what was parsed. ParseWhole: that text
/// parses, the cut was wrong (the caller parses the file in one piece).
static PieceParse reportPieceError(ParseJob &job,
                                   const std::vector<Piece> &pieces, size_t k,
                                   size_t top, const SyntaxError &first,
                                   const StackBudget &budget) {
  const SourceFile &file = *job.file;
  size_t size = file.getCodePoints().size();
  size_t end = k + 1 < pieces.size() ? pieces[k + 1].start : size;
  std::optional<SyntaxError> err = first;
  err->index += pieces[k].start;
  if (pieces[k].depth > 0 || err->index >= end) {
    for (size_t upto = k + 1;; upto = std::min(pieces.size(), 2 * upto - k)) {
      size_t to = upto < pieces.size() ? pieces[upto].start : size;
      err = errorOfRange(file, pieces[top].start, to, budget);
      if (to == size || (err && err->index < to))
        break;
    }
    if (!err)
      return PieceParse::ParseWhole;
  }
  job.diags->error(&file, file.getPos(err->index, err->line), err->message);
  return PieceParse::Done;
}

static PieceParse parsePieces(ParseJob &job, size_t pieceCodePoints) {
  const SourceFile &file = *job.file;
  StackBudget budget(kStackBudget);
  const std::u32string &cps = file.getCodePoints();
  auto result = std::make_unique<ParsedModule>();
  result->context = std::make_unique<detc::ast::ASTContext>();
  // The whole file's parse reports a syntax error anywhere before an error
  // the AST builder finds (it builds after parsing): the builder's wait
  // until the pieces after it are parsed.
  DiagnosticEngine buildDiags;
  ASTBuilder builder(file, *result->context, buildDiags, budget);
  BlockAssembler blocks(*result->context);
  // Piece by piece: each piece's parse tree is freed once its statements
  // are built (ChunkSplit.h).
  std::vector<Piece> pieces = splitPieces(cps, pieceCodePoints);
  size_t top = 0; // the last piece at module level
  for (size_t k = 0; k < pieces.size(); ++k) {
    const Piece &piece = pieces[k];
    if (piece.depth == 0)
      top = k;
    size_t end = k + 1 < pieces.size() ? pieces[k + 1].start : cps.size();
    ParseRun run(cps.data() + piece.start, cps.data() + end,
                 /*implicitJoining=*/false, budget,
                 file.getPos(piece.start).line, piece.indent, piece.depth);
    PythonParser::FileInputContext *tree = run.run(&PythonParser::fileInput);
    if (!tree)
      return reportPieceError(job, pieces, k, top, *run.getError(), budget);
    result->stats.usedLLFallback |= run.usedLLFallback();
    result->stats.numTokens += run.getNumTokens();
    llvm::SmallVectorImpl<detc::ast::Stmt *> *body =
        blocks.blockAt(piece.depth);
    if (!body) // The splitter misread the block structure.
      return PieceParse::ParseWhole;
    builder.appendStatements(tree, piece.start, *body);
    if (builder.hadError()) {
      for (size_t j = k + 1; j < pieces.size(); ++j) {
        if (pieces[j].depth == 0)
          top = j;
        size_t to = j + 1 < pieces.size() ? pieces[j + 1].start : cps.size();
        ParseRun later(cps.data() + pieces[j].start, cps.data() + to,
                       /*implicitJoining=*/false, budget,
                       file.getPos(pieces[j].start).line, pieces[j].indent,
                       pieces[j].depth);
        if (!later.run(&PythonParser::fileInput))
          return reportPieceError(job, pieces, j, top, *later.getError(),
                                  budget);
      }
      for (const Diagnostic &d : buildDiags.getDiagnostics())
        job.diags->add(d);
      return PieceParse::Done;
    }
  }
  result->module = builder.finishModule(blocks.finish());
  result->newerSyntax = builder.takeNewerSyntax();
  for (const Diagnostic &d : buildDiags.getDiagnostics())
    job.diags->add(d);
  if (!result->module)
    return PieceParse::Done;
  if (std::optional<detc::ast::SourcePos> deep = findTooDeep(result->module)) {
    job.diags->error(&file, *deep,
                     "too many nested expressions or blocks (more than " +
                         std::to_string(kMaxNestingDepth) +
                         " levels; detc's passes recurse over the nesting)");
    return PieceParse::Done;
  }
  job.result = std::move(result);
  return PieceParse::Done;
}

static void parseOnThisThread(ParseJob &job) {
  if (parsePieces(job, job.pieceCodePoints) == PieceParse::ParseWhole)
    parsePieces(job, std::numeric_limits<size_t>::max());
}

static void *parseThreadMain(void *arg) {
  parseOnThisThread(*static_cast<ParseJob *>(arg));
  return nullptr;
}

std::unique_ptr<ParsedModule>
detc::frontend::parseModule(const SourceFile &file, DiagnosticEngine &diags,
                            size_t pieceCodePoints) {
  ParseJob job{&file, &diags, pieceCodePoints, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kParseStackSize);
  pthread_t thread;
  if (pthread_create(&thread, &attr, parseThreadMain, &job) != 0) {
    pthread_attr_destroy(&attr);
    // No thread: parse here with a budget that fits a default 8 MB stack.
    diags.fileError(file.getName(), "cannot start the parser thread");
    return nullptr;
  }
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  return std::move(job.result);
}

bool detc::frontend::checkTargetVersion(const ParsedModule &parsed,
                                        const SourceFile &file,
                                        PythonVersion target,
                                        DiagnosticEngine &diags) {
  for (const NewerSyntax &use : parsed.newerSyntax) {
    if (use.since <= target)
      continue;
    diags.error(&file, use.pos,
                use.what + " is Python " + pythonVersionName(use.since) +
                    " syntax; the target version is " +
                    pythonVersionName(target) +
                    " (--target-version, or target-version in [tool.detc])");
    return false;
  }
  return true;
}
