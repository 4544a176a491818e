//===- BoundedJSON.cpp - JSON parsing with a nesting limit ----------------===//

#include "detc/base/BoundedJSON.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

Expected<json::Value> detc::base::parseBoundedJSON(StringRef text,
                                                      unsigned maxDepth) {
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
    }
    if (inString) {
      if (c == '\\')
        ++i; // An escaped quote does not end the string.
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        return createStringError(
            inconvertibleErrorCode(),
            formatv("[{0}:{1}, byte={2}]: nested deeper than {3} levels", line,
                    i - lineStart + 1, i, maxDepth)
                .str());
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  return json::parse(text);
}
