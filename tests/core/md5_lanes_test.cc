// Md5Many (core/md5_lanes.h) and Md5 (core/md5.h) against OpenSSL's EVP MD5, one message at a time:
// the RFC 1321 examples, every length around the block and padding boundaries, and batches whose
// messages end at different blocks (a lane takes the next message while the others go on).
#include "core/md5_lanes.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <random>
#include <string>
#include <vector>

#include "core/md5.h"

namespace fived {
namespace {

std::vector<std::string> Hex(const std::vector<std::array<uint8_t, 16>>& digests) {
  std::vector<std::string> out;
  for (const auto& digest : digests) out.push_back(Md5DigestHex(digest));
  return out;
}

// OpenSSL's MD5 of `message` in hex: the reference, from outside the project.
std::string Md5Hex(const std::string& message) {
  Md5Digest digest;
  unsigned int length = 0;
  EXPECT_EQ(EVP_Digest(message.data(), message.size(), digest.data(), &length, EVP_md5(), nullptr),
            1);
  EXPECT_EQ(length, 16u);
  return Md5DigestHex(digest);
}

// Each engine this machine has, on `messages`, against OpenSSL's MD5.
void ExpectOpenSslDigests(const std::vector<std::string>& messages) {
  std::vector<std::string_view> views(messages.begin(), messages.end());
  std::vector<std::string> expected;
  for (const std::string& m : messages) expected.push_back(Md5Hex(m));
  std::vector<Md5Engine> engines = {Md5Engine::kScalar};
  if (Md5ManyEngine() == Md5Engine::kLanes) engines.push_back(Md5Engine::kLanes);
  for (Md5Engine engine : engines) {
    std::vector<std::array<uint8_t, 16>> digests(messages.size());
    Md5ManyWith(engine, views, digests);
    EXPECT_EQ(Hex(digests), expected) << "engine " << static_cast<int>(engine);
  }
  std::vector<std::array<uint8_t, 16>> digests(messages.size());
  Md5Many(views, digests);
  EXPECT_EQ(Hex(digests), expected);
}

// The AVX2 lanes are tested only where the processor has AVX2: this test says which, skipped
// (with the reason) where the other tests could check the scalar engine alone.
TEST(Md5LanesTest, AvxLanesTestedHere) {
  if (Md5ManyEngine() != Md5Engine::kLanes) {
    GTEST_SKIP() << "this processor has no AVX2: the eight-lane MD5 path is not tested here, "
                    "only the scalar one";
  }
  std::vector<std::string> messages = {"abc", std::string(100, 'x')};
  std::vector<std::string_view> views(messages.begin(), messages.end());
  std::vector<std::array<uint8_t, 16>> digests(messages.size());
  Md5ManyWith(Md5Engine::kLanes, views, digests);
  EXPECT_EQ(Hex(digests), (std::vector<std::string>{Md5Hex(messages[0]), Md5Hex(messages[1])}));
}

TEST(Md5LanesTest, RfcExamples) {
  const std::vector<std::string> messages = {
      "",
      "a",
      "abc",
      "message digest",
      "abcdefghijklmnopqrstuvwxyz",
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
      "12345678901234567890123456789012345678901234567890123456789012345678901234567890"};
  std::vector<std::string_view> views(messages.begin(), messages.end());
  std::vector<std::array<uint8_t, 16>> digests(messages.size());
  Md5Many(views, digests);
  // RFC 1321, appendix A.5.
  EXPECT_EQ(Hex(digests),
            (std::vector<std::string>{
                "d41d8cd98f00b204e9800998ecf8427e", "0cc175b9c0f1b6a831c399e269772661",
                "900150983cd24fb0d6963f7d28e17f72", "f96b697d7cb7938d525a2f31aaf161d0",
                "c3fcd3d76192e4007dfb496cca67e13b", "d174ab98d277d9f5a5611c2c9f419d9f",
                "57edf4a22be3c955ac49da2e2107b67a"}));
  ExpectOpenSslDigests(messages);
}

TEST(Md5LanesTest, EveryLengthAroundTheBlocks) {
  std::mt19937 random(5);
  std::vector<std::string> messages;
  for (size_t length = 0; length <= 200; ++length) {
    std::string m(length, '\0');
    for (char& c : m) c = static_cast<char>(random());
    messages.push_back(std::move(m));
  }
  ExpectOpenSslDigests(messages);
}

TEST(Md5LanesTest, BatchesOfEverySize) {
  std::mt19937 random(7);
  for (size_t count : {0, 1, 2, 7, 8, 9, 17, 100}) {
    std::vector<std::string> messages;
    for (size_t i = 0; i < count; ++i) {
      // Lengths from nothing to many blocks, so that lanes end far apart.
      const size_t length = random() % 4 == 0 ? random() % 20000 : random() % 300;
      std::string m(length, '\0');
      for (char& c : m) c = static_cast<char>('a' + random() % 26);
      messages.push_back(std::move(m));
    }
    SCOPED_TRACE(count);
    ExpectOpenSslDigests(messages);
  }
}

}  // namespace
}  // namespace fived
