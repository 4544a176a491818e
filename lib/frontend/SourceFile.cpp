//===- SourceFile.cpp - Decoding and position tables ----------------------===//

#include "detc/frontend/SourceFile.h"
#include "detc/base/FileIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cerrno>
#include <iconv.h>

using namespace detc::frontend;
using detc::ast::SourcePos;

std::unique_ptr<SourceFile> SourceFile::load(llvm::StringRef path,
                                             DiagnosticEngine &diags) {
  llvm::Expected<std::string> bytes = base::readInputFile(path);
  if (!bytes) {
    diags.fileError(path,
                    "cannot read file: " + llvm::toString(bytes.takeError()));
    return nullptr;
  }
  return fromBytes(path, std::move(*bytes), diags);
}

std::unique_ptr<SourceFile> SourceFile::fromBytes(llvm::StringRef name,
                                                  std::string bytes,
                                                  DiagnosticEngine &diags) {
  if (bytes.size() >= UINT32_MAX / 2) {
    diags.fileError(name, "file is too large (over 2 GB)");
    return nullptr;
  }
  std::unique_ptr<SourceFile> file(new SourceFile());
  file->name = name.str();
  file->bytes = std::move(bytes);
  if (!file->decode(diags))
    return nullptr;
  file->buildTables();
  return file;
}

/// PEP 263: `coding[:=]\s*([-\w.]+)` in a comment on line 1 or 2 (line 2 only
/// when line 1 is blank or a comment).
static std::optional<std::string> findCodingCookie(llvm::StringRef text) {
  for (int lineNo = 0; lineNo < 2 && !text.empty(); ++lineNo) {
    size_t eol = text.find_first_of("\r\n");
    llvm::StringRef line = text.substr(0, eol);
    text = eol == llvm::StringRef::npos ? llvm::StringRef()
                                        : text.substr(eol + 1);
    llvm::StringRef trimmed = line.ltrim(" \t\f");
    if (!trimmed.starts_with("#")) {
      if (!trimmed.empty())
        return std::nullopt; // Code on line 1: no cookie on line 2.
      continue;
    }
    size_t at = trimmed.find("coding");
    while (at != llvm::StringRef::npos) {
      llvm::StringRef rest = trimmed.substr(at + 6);
      if (!rest.empty() && (rest[0] == ':' || rest[0] == '=')) {
        rest = rest.substr(1).ltrim(" \t");
        size_t n = 0;
        while (n < rest.size() &&
               (llvm::isAlnum(rest[n]) || rest[n] == '-' || rest[n] == '_' ||
                rest[n] == '.'))
          ++n;
        if (n)
          return rest.substr(0, n).lower();
      }
      at = trimmed.find("coding", at + 6);
    }
  }
  return std::nullopt;
}

/// CPython's normalisation of the two encodings its tokenizer special-cases.
static std::string normalizeEncoding(std::string enc) {
  std::replace(enc.begin(), enc.end(), '_', '-');
  if (enc == "utf-8" || enc == "utf8" || llvm::StringRef(enc).starts_with("utf-8-"))
    return "utf-8";
  for (const char *latin : {"latin-1", "iso-8859-1", "iso-latin-1"})
    if (enc == latin || llvm::StringRef(enc).starts_with(std::string(latin) + "-"))
      return "latin-1";
  return enc;
}

bool SourceFile::decode(DiagnosticEngine &diags) {
  llvm::StringRef text = bytes;
  if (text.starts_with("\xEF\xBB\xBF")) {
    byteBias = 3;
    text = text.substr(3);
  }
  if (std::optional<std::string> cookie = findCodingCookie(text)) {
    encoding = normalizeEncoding(*cookie);
    if (byteBias && encoding != "utf-8") {
      diags.fileError(name, "encoding problem: " + *cookie + " with BOM");
      return false;
    }
  }
  if (text.find('\0') != llvm::StringRef::npos) {
    diags.fileError(name, "source code cannot contain null bytes");
    return false;
  }

  if (encoding == "utf-8") {
    codePoints.resize(text.size() + 1);
    const llvm::UTF8 *src = reinterpret_cast<const llvm::UTF8 *>(text.data());
    const llvm::UTF8 *srcEnd = src + text.size();
    llvm::UTF32 *dst = reinterpret_cast<llvm::UTF32 *>(codePoints.data());
    llvm::UTF32 *dstBegin = dst;
    llvm::ConversionResult res = llvm::ConvertUTF8toUTF32(
        &src, srcEnd, &dst, dst + codePoints.size(), llvm::strictConversion);
    if (res != llvm::conversionOK) {
      size_t bad = reinterpret_cast<const char *>(src) - text.data();
      char hex[8];
      snprintf(hex, sizeof(hex), "0x%02x",
               static_cast<unsigned char>(text[std::min(bad, text.size() - 1)]));
      diags.fileError(name, "invalid UTF-8 byte " + std::string(hex) +
                                " at byte offset " +
                                std::to_string(bad + byteBias) +
                                " (the file declares no other encoding)");
      return false;
    }
    codePoints.resize(dst - dstBegin);
    if (codePoints.size() != text.size()) {
      // Non-ASCII: remember where each code point starts.
      utf8Offsets.reserve(codePoints.size() + 1);
      for (size_t i = 0; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
          utf8Offsets.push_back(i);
      utf8Offsets.push_back(text.size());
    }
  } else if (encoding == "latin-1") {
    codePoints.reserve(text.size());
    for (char c : text)
      codePoints.push_back(static_cast<unsigned char>(c));
    origOffsets.reserve(text.size() + 1);
    for (size_t i = 0; i <= text.size(); ++i)
      origOffsets.push_back(i + byteBias);
  } else {
    // Any other codec iconv knows, one code point at a time so that every
    // code point keeps its original byte offset.
    iconv_t cd = iconv_open("UTF-32LE", encoding.c_str());
    if (cd == reinterpret_cast<iconv_t>(-1)) {
      diags.fileError(name, "unknown encoding: " + encoding);
      return false;
    }
    char *in = const_cast<char *>(text.data());
    size_t inLeft = text.size();
    while (inLeft) {
      uint32_t out = 0;
      char *outPtr = reinterpret_cast<char *>(&out);
      size_t outLeft = 4;
      size_t offset = in - text.data();
      size_t r = iconv(cd, &in, &inLeft, &outPtr, &outLeft);
      if (r == static_cast<size_t>(-1) && errno != E2BIG) {
        iconv_close(cd);
        diags.fileError(name, "cannot decode byte offset " +
                                  std::to_string(offset) + " as " + encoding);
        return false;
      }
      if (outLeft == 0) {
        codePoints.push_back(static_cast<char32_t>(out));
        origOffsets.push_back(offset);
      }
    }
    iconv_close(cd);
    origOffsets.push_back(text.size());
  }
  if (!origOffsets.empty()) {
    // Columns are UTF-8 bytes of the decoded text.
    utf8Offsets.reserve(codePoints.size() + 1);
    uint32_t u = 0;
    for (char32_t c : codePoints) {
      utf8Offsets.push_back(u);
      u += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    }
    utf8Offsets.push_back(u);
  }
  return true;
}

void SourceFile::buildTables() {
  lineStarts.push_back(0);
  size_t n = numCodePoints = codePoints.size();
  for (size_t i = 0; i < n; ++i) {
    char32_t c = codePoints[i];
    if (c == '\n') {
      lineStarts.push_back(i + 1);
    } else if (c == '\r') {
      if (i + 1 < n && codePoints[i + 1] == '\n')
        continue; // CRLF: the '\n' ends the line.
      codePoints[i] = '\n'; // Old Mac line end.
      lineStarts.push_back(i + 1);
    }
  }
}

void SourceFile::releaseCodePoints() {
  if (encoding != "utf-8" || !origOffsets.empty())
    return;
  std::u32string().swap(codePoints);
}

SourcePos SourceFile::getPos(size_t index, unsigned line) const {
  index = std::min(index, numCodePoints);
  if (line == 0 || line > lineStarts.size() || lineStarts[line - 1] > index) {
    auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), index);
    line = static_cast<unsigned>(it - lineStarts.begin());
  }
  SourcePos pos;
  pos.line = line;
  pos.column = getUtf8Offset(index) - getUtf8Offset(lineStarts[line - 1]);
  pos.offset = getByteOffset(index);
  return pos;
}

SourcePos SourceFile::getPosOfByte(uint32_t offset) const {
  // Byte offsets grow with code-point indices: the first index at or past
  // `offset`.
  size_t lo = 0, hi = numCodePoints;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (getByteOffset(mid) < offset)
      lo = mid + 1;
    else
      hi = mid;
  }
  return getPos(lo);
}

std::string SourceFile::getLineText(unsigned line) const {
  if (line == 0 || line > lineStarts.size())
    return {};
  size_t begin = lineStarts[line - 1];
  size_t end = line < lineStarts.size() ? lineStarts[line] : numCodePoints;
  if (codePoints.empty()) {
    // Released: a UTF-8 file's bytes are its text.
    llvm::StringRef text =
        llvm::StringRef(bytes).slice(getByteOffset(begin), getByteOffset(end));
    return text.rtrim("\r\n").str();
  }
  while (end > begin &&
         (codePoints[end - 1] == '\n' || codePoints[end - 1] == '\r'))
    --end;
  std::string out;
  for (size_t i = begin; i < end; ++i) {
    char buf[4];
    char *p = buf;
    llvm::ConvertCodePointToUTF8(codePoints[i], p);
    out.append(buf, p);
  }
  return out;
}
