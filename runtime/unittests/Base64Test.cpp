//===- Base64Test.cpp - RFC 4648 encoding of generator states -------------===//

#include "detc/runtime/Base64.h"

#include "gtest/gtest.h"

#include <string>

using namespace detc::runtime;

namespace {
std::string encode(const std::string &s) {
  return base64Encode(s.data(), s.size());
}
} // namespace

// RFC 4648, section 10: every padding case.
TEST(Base64, RfcTestVectors) {
  EXPECT_EQ(encode(""), "");
  EXPECT_EQ(encode("f"), "Zg==");
  EXPECT_EQ(encode("fo"), "Zm8=");
  EXPECT_EQ(encode("foo"), "Zm9v");
  EXPECT_EQ(encode("foob"), "Zm9vYg==");
  EXPECT_EQ(encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(encode("foobar"), "Zm9vYmFy");
}

// Bytes with the high bit set, and the last two letters of the alphabet.
TEST(Base64, HighBytesAndAlphabetEnds) {
  EXPECT_EQ(encode(std::string("\xff\xff\xff", 3)), "////");
  EXPECT_EQ(encode(std::string("\xfb\xef\xbe", 3)), "++++");
  EXPECT_EQ(encode(std::string("\0\0\0\x80", 4)), "AAAAgA==");
}
