//===- Identifiers.cpp - Identifiers as CPython reads them ----------------===//

#include "Identifiers.h"

#include <unicode/unorm2.h>
#include <unicode/ustring.h>

#include <vector>

bool detc::frontend::normalizeIdentifier(llvm::StringRef utf8,
                                         std::string &out) {
  UErrorCode status = U_ZERO_ERROR;
  const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&status);
  if (U_FAILURE(status))
    return false;
  // UTF-8 -> UTF-16 (ICU's normalizer works on UTF-16) -> NFKC -> UTF-8.
  // NFKC may expand a code point up to 18 times (U+FDFA).
  std::vector<UChar> wide(utf8.size() + 1), normal(18 * utf8.size() + 1);
  int32_t wideLen = 0;
  u_strFromUTF8(wide.data(), static_cast<int32_t>(wide.size()), &wideLen,
                utf8.data(), static_cast<int32_t>(utf8.size()), &status);
  if (U_FAILURE(status))
    return false;
  int32_t normalLen =
      unorm2_normalize(nfkc, wide.data(), wideLen, normal.data(),
                       static_cast<int32_t>(normal.size()), &status);
  if (U_FAILURE(status))
    return false;
  int32_t bytes = 0;
  u_strToUTF8(nullptr, 0, &bytes, normal.data(), normalLen, &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status))
    return false;
  status = U_ZERO_ERROR;
  out.assign(static_cast<size_t>(bytes), '\0');
  u_strToUTF8(out.data(), bytes, &bytes, normal.data(), normalLen, &status);
  return !U_FAILURE(status);
}
