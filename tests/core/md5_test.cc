// Md5 (core/md5.h) against OpenSSL's EVP MD5: the RFC 1321 examples, every length around the
// block and padding boundaries, a message given in pieces, and a context copied part-way and
// finished two ways (what the state MD5 stream does per timeline).
#include "core/md5.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <random>
#include <string>

namespace fived {
namespace {

std::string OpenSslMd5Hex(const std::string& message) {
  Md5Digest digest;
  unsigned int length = 0;
  EXPECT_EQ(EVP_Digest(message.data(), message.size(), digest.data(), &length, EVP_md5(), nullptr),
            1);
  return Md5DigestHex(digest);
}

TEST(Md5Test, RfcExamples) {
  EXPECT_EQ(Md5DigestHex(Md5Of("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Md5DigestHex(Md5Of("a")), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Md5DigestHex(Md5Of("abc")), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Md5DigestHex(Md5Of("message digest")), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Md5DigestHex(Md5Of("abcdefghijklmnopqrstuvwxyz")), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(
      Md5DigestHex(Md5Of(
          "12345678901234567890123456789012345678901234567890123456789012345678901234567890")),
      "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(Md5Test, EveryLengthAgreesWithOpenSsl) {
  std::mt19937 random(28);
  for (size_t length = 0; length <= 300; ++length) {
    std::string message(length, '\0');
    for (char& c : message) c = static_cast<char>(random());
    EXPECT_EQ(Md5DigestHex(Md5Of(message)), OpenSslMd5Hex(message)) << "length " << length;
  }
}

TEST(Md5Test, PiecesAndCopies) {
  std::mt19937 random(5);
  for (int trial = 0; trial < 200; ++trial) {
    std::string message(random() % 400, '\0');
    for (char& c : message) c = static_cast<char>(random());
    const std::string expected = OpenSslMd5Hex(message);
    // In random pieces.
    Md5 pieces;
    for (size_t at = 0; at < message.size();) {
      const size_t take = std::min<size_t>(random() % 70, message.size() - at);
      pieces.Update(message.data() + at, take);
      at += take;
    }
    EXPECT_EQ(Md5DigestHex(pieces.Final()), expected);
    // A copy taken part-way finishes the same message, and the original another one.
    const size_t cut = message.empty() ? 0 : random() % message.size();
    Md5 prefix;
    prefix.Update(message.data(), cut);
    Md5 copy = prefix;
    copy.Update(message.data() + cut, message.size() - cut);
    EXPECT_EQ(Md5DigestHex(copy.Final()), expected);
    prefix.Update("x");
    EXPECT_EQ(Md5DigestHex(prefix.Final()), OpenSslMd5Hex(message.substr(0, cut) + "x"));
  }
}

TEST(Md5Test, DigestKeyIsTheFirstEightBytesBigEndian) {
  const Md5Digest digest = Md5Of("abc");  // 900150983cd24fb0...
  EXPECT_EQ(Md5DigestKey(digest), 0x900150983cd24fb0ull);
}

}  // namespace
}  // namespace fived
