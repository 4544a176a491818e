//===- Base64.h - RFC 4648 base64 of a byte buffer -------------*- C++ -*-===//
//
// A checkpoint's fingerprint saves every global generator's state in full
// (about 10 KB) as base64 text in the sidecar's JSON. Python's binascii
// encodes at under 1 GB/s, a third of a small checkpoint's whole
// fingerprint budget; this table loop does the same in a single pass that
// also hashes the bytes (CoreModule.cpp, `state_encode`).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_RUNTIME_BASE64_H
#define DETC_RUNTIME_BASE64_H

#include <cstddef>
#include <cstring>
#include <string>

namespace detc::runtime {

/// Writes the base64 of `size` bytes at `data` to `out`, which holds
/// base64Size(size) chars: the standard alphabet with '=' padding and no
/// line breaks (what Python's base64.b64encode gives). Three input bytes
/// are two 12-bit lookups in a table of letter pairs.
inline size_t base64Size(size_t size) { return (size + 2) / 3 * 4; }

inline void base64Encode(const void *data, size_t size, char *out) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  struct Pairs {
    char pair[4096][2];
    constexpr Pairs() : pair() {
      for (unsigned v = 0; v < 4096; ++v) {
        pair[v][0] = kAlphabet[v >> 6];
        pair[v][1] = kAlphabet[v & 63];
      }
    }
  };
  static constexpr Pairs kPairs;
  const auto *in = static_cast<const unsigned char *>(data);
  char *o = out;
  size_t i = 0;
  for (; i + 3 <= size; i += 3, o += 4) {
    unsigned v = unsigned(in[i]) << 16 | unsigned(in[i + 1]) << 8 | in[i + 2];
    std::memcpy(o, kPairs.pair[v >> 12], 2);
    std::memcpy(o + 2, kPairs.pair[v & 4095], 2);
  }
  if (size - i == 0)
    return;
  unsigned v = unsigned(in[i]) << 16;
  if (size - i == 2)
    v |= unsigned(in[i + 1]) << 8;
  o[0] = kAlphabet[v >> 18];
  o[1] = kAlphabet[(v >> 12) & 63];
  o[2] = size - i == 2 ? kAlphabet[(v >> 6) & 63] : '=';
  o[3] = '=';
}

inline std::string base64Encode(const void *data, size_t size) {
  std::string out(base64Size(size), '=');
  base64Encode(data, size, out.data());
  return out;
}

} // namespace detc::runtime

#endif // DETC_RUNTIME_BASE64_H
