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
    detc::ast::forEachChild(
        item.node, [&](llvm::StringRef, const detc::ast::Node *c) {
          if (c)
            work.push_back({c, item.depth + 1, item.at});
        });
    // Preorder: the first child is taken next.
    std::reverse(work.begin() + first, work.end());
  }
  return std::nullopt;
}

static void parseOnThisThread(ParseJob &job) {
  const SourceFile &file = *job.file;
  StackBudget budget(kStackBudget);
  const std::u32string &cps = file.getCodePoints();
  auto result = std::make_unique<ParsedModule>();
  result->context = std::make_unique<detc::ast::ASTContext>();
  ASTBuilder builder(file, *result->context, *job.diags, budget);
  BlockAssembler blocks(*result->context);
  // Piece by piece: each piece's parse tree is freed once its statements
  // are built (ChunkSplit.h).
  std::vector<Piece> pieces = splitPieces(cps, job.pieceCodePoints);
  for (size_t k = 0; k < pieces.size(); ++k) {
    const Piece &piece = pieces[k];
    size_t end = k + 1 < pieces.size() ? pieces[k + 1].start : cps.size();
    ParseRun run(cps.data() + piece.start, cps.data() + end,
                 /*implicitJoining=*/false, budget,
                 file.getPos(piece.start).line, piece.indent, piece.depth);
    PythonParser::FileInputContext *tree = run.run(&PythonParser::fileInput);
    if (!tree) {
      const SyntaxError &err = *run.getError();
      job.diags->error(&file, file.getPos(piece.start + err.index, err.line),
                       err.message);
      return;
    }
    result->stats.usedLLFallback |= run.usedLLFallback();
    result->stats.numTokens += run.getNumTokens();
    llvm::SmallVectorImpl<detc::ast::Stmt *> *body = blocks.blockAt(piece.depth);
    if (!body) {
      job.diags->error(&file, file.getPos(piece.start),
                       "internal error: this line does not continue a block "
                       "of the statement before it");
      return;
    }
    builder.appendStatements(tree, piece.start, *body);
    if (builder.hadError())
      return;
  }
  result->module = builder.finishModule(blocks.finish());
  if (!result->module)
    return;
  if (std::optional<detc::ast::SourcePos> deep = findTooDeep(result->module)) {
    job.diags->error(&file, *deep,
                     "too many nested expressions or blocks (more than " +
                         std::to_string(kMaxNestingDepth) +
                         " levels; detc's passes recurse over the nesting)");
    return;
  }
  job.result = std::move(result);
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
