// Inputs by content (indexer/input.h): what the first bytes say, and every packing read back
// member by member, whatever the file is called.
#include "indexer/input.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/indexer/archive_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::Member;
using ::fived::testing::PackedBytes;
using ::fived::testing::Packing;
using ::fived::testing::TempDir;
using ::fived::testing::WritePacked;

constexpr std::string_view kGame = "[Board \"Standard\"]\n1. e3 / e6\n";

// Every member read, with the error messages.
struct Read {
  std::vector<Member> members;
  std::vector<std::string> errors;
};

// The callbacks of ReadPacked and ReadStream that keep in `read` what they are given.
std::function<bool(const std::string&, std::istream&)> KeepMembers(Read* read) {
  return [read](const std::string& name, std::istream& in) {
    std::ostringstream text;
    text << in.rdbuf();
    read->members.emplace_back(name, text.str());
    return true;
  };
}
std::function<void(const std::string&)> KeepErrors(Read* read) {
  return [read](const std::string& message) { read->errors.push_back(message); };
}

// 20,000 games with comments of pseudo-random digits: their compressed stream is long enough to
// cut in the middle.
std::string GamesToCut() {
  std::string games;
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    games += std::string(kGame) + "{" + std::to_string(x) + "}\n";
  }
  return games;
}

Read ReadAll(const std::string& path) {
  Read read;
  ReadPacked(path, KeepMembers(&read), KeepErrors(&read));
  return read;
}

TEST(InputTest, SniffsByMagicNumbers) {
  struct Case {
    std::string head;
    InputKind kind;
  } cases[] = {
      {"[Board \"Standard\"]\n", InputKind::kPlain},
      {"", InputKind::kPlain},
      {"\xEF\xBB\xBF[Board", InputKind::kPlain},
      {"PK\x03\x04rest", InputKind::kArchive},
      {std::string("PK\x05\x06") + std::string(18, '\0'), InputKind::kArchive},
      {std::string(257, 'x') + "ustar\0", InputKind::kArchive},
      {"\x1f\x8b\x08", InputKind::kCompressed},
      {std::string("\xfd"
                   "7zXZ\0",
                   6),
       InputKind::kCompressed},
      {"BZh91AY&SY", InputKind::kCompressed},
      {"\x28\xb5\x2f\xfd", InputKind::kCompressed},
      {"PK", InputKind::kPlain},  // too short to be a zip
  };
  for (const Case& c : cases) EXPECT_EQ(SniffInput(c.head), c.kind) << c.head;
}

TEST(InputTest, SniffingADirectoryIsAReadError) {
  TempDir dir;
  const Result<InputKind> directory = SniffFile(dir.path().string());
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error().code(), StatusCode::kIo);
  EXPECT_EQ(directory.error().message(), dir.path().string() + ": read error");
}

TEST(InputTest, ReadsEveryPackingByContentWhateverItsName) {
  TempDir dir;
  const std::vector<Member> two = {{"a.5dpgn", std::string(kGame)},
                                   {"dir/b.pgn", std::string(kGame) + "2. Nf3 / Nf6\n"}};
  struct Case {
    Packing packing;
    std::vector<Member> members;
    std::vector<Member> expected;
  } cases[] = {
      {Packing::kZip, two, two},
      {Packing::kTar, two, two},
      {Packing::kTarGz, two, two},
      {Packing::kTarZstd, two, two},
      // A single compressed stream is the file itself: its member has no name.
      {Packing::kGzip, {{"x", std::string(kGame)}}, {{"", std::string(kGame)}}},
      {Packing::kXz, {{"x", std::string(kGame)}}, {{"", std::string(kGame)}}},
      {Packing::kBzip2, {{"x", std::string(kGame)}}, {{"", std::string(kGame)}}},
      {Packing::kZstd, {{"x", std::string(kGame)}}, {{"", std::string(kGame)}}},
  };
  int n = 0;
  for (const Case& c : cases) {
    // Named as plain text on purpose: the content decides.
    const std::string path = dir.File("games" + std::to_string(n++) + ".5dpgn");
    WritePacked(path, c.packing, c.members);
    const Result<InputKind> kind = SniffFile(path);
    ASSERT_TRUE(kind.ok()) << kind.error().message();
    EXPECT_NE(kind.value(), InputKind::kPlain) << path;
    const Read read = ReadAll(path);
    EXPECT_TRUE(read.errors.empty()) << read.errors.front();
    EXPECT_EQ(read.members, c.expected) << path;
  }
}

TEST(InputTest, DamagedStreamsAndArchivesSayWhereAndKeepWhatWasRead) {
  TempDir dir;
  const std::string big = GamesToCut();
  const std::string path = dir.File("cut.gz");
  WritePacked(path, Packing::kGzip, {{"x", big}});
  // Cut the compressed stream in the middle.
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  const Read read = ReadAll(path);
  EXPECT_EQ(read.errors, std::vector<std::string>{path + ": truncated gzip input"});
  ASSERT_EQ(read.members.size(), 1u);
  EXPECT_GT(read.members[0].second.size(), 0u);
  EXPECT_LT(read.members[0].second.size(), big.size());

  const std::string tar_path = dir.File("cut.tar");
  WritePacked(tar_path, Packing::kTar, {{"a.5dpgn", std::string(kGame)}, {"b.5dpgn", big}});
  std::filesystem::resize_file(tar_path, 3000);
  const Read tar = ReadAll(tar_path);
  ASSERT_FALSE(tar.members.empty());
  EXPECT_EQ(tar.members[0], Member("a.5dpgn", std::string(kGame)));
  EXPECT_EQ(tar.errors, std::vector<std::string>{tar_path + ":b.5dpgn: Truncated tar archive"});
}

TEST(InputTest, MembersPackedAgainAreReadByContentNamedByTheirPath) {
  TempDir dir;
  const std::string game2 = std::string(kGame) + "2. Nf3 / Nf6\n";
  const std::string gz = PackedBytes(dir.File("scratch"), Packing::kGzip, {{"x", game2}});
  const std::string inner = PackedBytes(
      dir.File("scratch"), Packing::kZip,
      {{"dir/b.pgn", game2},
       {"c.5dpgn.zst",
        PackedBytes(dir.File("scratch"), Packing::kZstd, {{"x", std::string(kGame)}})}});
  const std::string path = dir.File("outer.tar.gz");
  WritePacked(path, Packing::kTarGz,
              {{"a.5dpgn.gz", gz},
               {"2024/inner.zip", inner},
               // Named as compressed, but plain: the content decides.
               {"d.5dpgn.xz", std::string(kGame)}});
  const Read read = ReadAll(path);
  EXPECT_TRUE(read.errors.empty()) << read.errors.front();
  EXPECT_EQ(read.members, (std::vector<Member>{{"a.5dpgn.gz", game2},
                                               {"2024/inner.zip/dir/b.pgn", game2},
                                               {"2024/inner.zip/c.5dpgn.zst", std::string(kGame)},
                                               {"d.5dpgn.xz", std::string(kGame)}}));
}

TEST(InputTest, PackingsNestedTooDeepAreErrorsAndTheRestIsRead) {
  TempDir dir;
  // level5.zip holds level4.zip ... level1.zip, each with a game of its own; level1.zip holds a
  // gzip stream too.
  std::string bytes = PackedBytes(dir.File("scratch"), Packing::kGzip, {{"x", std::string(kGame)}});
  std::string name = "g.5dpgn.gz";
  std::vector<std::string> expected_names;
  for (int level = 1; level <= 5; ++level) {
    const std::string own = "game" + std::to_string(level) + ".5dpgn";
    const std::string zip = "level" + std::to_string(level) + ".zip";
    bytes =
        PackedBytes(dir.File("scratch"), Packing::kZip, {{own, std::string(kGame)}, {name, bytes}});
    name = zip;
  }
  const std::string path = dir.File(name);
  WritePacked(path, Packing::kTar, {{"level5.zip", bytes}});
  // The tar is the first level; the gzip stream in level1.zip would be the seventh.
  const Read read = ReadAll(path);
  std::vector<std::string> names;
  for (const Member& m : read.members) names.push_back(m.first);
  EXPECT_EQ(names,
            (std::vector<std::string>{"level5.zip/game5.5dpgn", "level5.zip/level4.zip/game4.5dpgn",
                                      "level5.zip/level4.zip/level3.zip/game3.5dpgn"}));
  EXPECT_EQ(read.errors,
            std::vector<std::string>{path + ":level5.zip/level4.zip/level3.zip/level2.zip: packed "
                                            "more than 4 levels deep; not read"});
}

TEST(InputTest, ADamagedMemberPackedInsideSaysWhereAndTheNextOnesAreRead) {
  TempDir dir;
  const std::string big = GamesToCut();
  std::string gz = PackedBytes(dir.File("scratch"), Packing::kGzip, {{"x", big}});
  gz.resize(gz.size() / 2);
  const std::string path = dir.File("cut.zip");
  WritePacked(path, Packing::kZip, {{"big.5dpgn.gz", gz}, {"after.5dpgn", std::string(kGame)}});
  const Read read = ReadAll(path);
  EXPECT_EQ(read.errors, std::vector<std::string>{path + ":big.5dpgn.gz: truncated gzip input"});
  ASSERT_EQ(read.members.size(), 2u);
  EXPECT_EQ(read.members[0].first, "big.5dpgn.gz");
  EXPECT_GT(read.members[0].second.size(), 0u);
  EXPECT_LT(read.members[0].second.size(), big.size());
  EXPECT_EQ(read.members[1], Member("after.5dpgn", std::string(kGame)));
}

TEST(InputTest, AStreamIsReadByItsContentAsAFileIs) {
  TempDir dir;
  auto read_stream = [](const std::string& bytes) {
    std::istringstream in(bytes);
    Read read;
    ReadStream(in, "-", KeepMembers(&read), KeepErrors(&read));
    return read;
  };
  // Plain text, shorter and longer than what is sniffed, goes through whole.
  for (const std::string& text :
       {std::string("[Bo"), std::string(kGame) + std::string(5000, ' ')}) {
    const Read plain = read_stream(text);
    EXPECT_TRUE(plain.errors.empty());
    EXPECT_EQ(plain.members, std::vector<Member>{Member("", text)});
  }
  EXPECT_EQ(read_stream("").members, std::vector<Member>{Member("", "")});
  const std::vector<Member> two = {{"a.5dpgn", std::string(kGame)}, {"b.txt", "text"}};
  const Read zip = read_stream(PackedBytes(dir.File("scratch"), Packing::kZip, two));
  EXPECT_TRUE(zip.errors.empty()) << zip.errors.front();
  EXPECT_EQ(zip.members, two);
  const Read xz = read_stream(PackedBytes(dir.File("scratch"), Packing::kXz, {{"x", "text"}}));
  EXPECT_EQ(xz.members, std::vector<Member>{Member("", "text")});
  std::string cut = PackedBytes(dir.File("scratch"), Packing::kTarGz, two);
  cut.resize(cut.size() / 2);
  const Read damaged = read_stream(cut);
  EXPECT_FALSE(damaged.errors.empty());
  for (const std::string& error : damaged.errors) EXPECT_EQ(error.rfind("-", 0), 0u) << error;
}

// `text` (ASCII, or \u escapes given as code points) in UTF-16 with a byte order mark.
std::string Utf16(const std::vector<uint32_t>& code_points, bool big_endian) {
  std::string out = big_endian ? "\xFE\xFF" : "\xFF\xFE";
  auto unit = [&](uint32_t u) {
    const char hi = static_cast<char>(u >> 8), lo = static_cast<char>(u & 0xFF);
    out += big_endian ? std::string{hi, lo} : std::string{lo, hi};
  };
  for (uint32_t c : code_points) {
    if (c >= 0x10000) {
      unit(0xD800 + ((c - 0x10000) >> 10));
      unit(0xDC00 + ((c - 0x10000) & 0x3FF));
    } else {
      unit(c);
    }
  }
  return out;
}

std::string ReadText(const std::string& bytes, bool* transcoded = nullptr) {
  std::istringstream in(bytes);
  TextReader reader(in);
  if (transcoded) *transcoded = reader.transcoded();
  std::ostringstream out;
  out << reader.stream().rdbuf();
  return out.str();
}

TEST(InputTest, Utf16TextIsReadAsUtf8) {
  // "[White "José 😀"]", both byte orders; U+1F600 is a surrogate pair.
  std::vector<uint32_t> header;
  for (char c : std::string("[White \"Jos")) header.push_back(static_cast<unsigned char>(c));
  for (uint32_t c : {0xE9u, 0x20u, 0x1F600u, 0x22u, 0x5Du}) header.push_back(c);
  for (bool big : {false, true}) {
    bool transcoded = false;
    EXPECT_EQ(ReadText(Utf16(header, big), &transcoded),
              "[White \"Jos\xC3\xA9 \xF0\x9F\x98\x80\"]");
    EXPECT_TRUE(transcoded);
  }
  // Long enough to cross the reader's blocks at every alignment of pairs and odd bytes.
  std::vector<uint32_t> many;
  std::string expected;
  for (int i = 0; i < 50000; ++i) {
    many.insert(many.end(), {0x61u, 0x1F600u, 0xE9u});
    expected += "a\xF0\x9F\x98\x80\xC3\xA9";
  }
  EXPECT_EQ(ReadText(Utf16(many, false)), expected);
  // A high surrogate not followed by a low one, a lone low one, a last odd byte: U+FFFD each.
  EXPECT_EQ(ReadText(Utf16({0xD800, 0x41, 0xDC00, 0x42}, false) + "\x43"),
            "\xEF\xBF\xBD"
            "A\xEF\xBF\xBD"
            "B\xEF\xBF\xBD");
  EXPECT_EQ(ReadText(Utf16({0xD800}, true)), "\xEF\xBF\xBD");
  EXPECT_EQ(ReadText(Utf16({}, true)), "");
  // Anything else is read as it is: UTF-8 with or without its mark, bytes that only start like
  // a UTF-16 mark.
  for (const std::string plain : {"[Board", "\xEF\xBB\xBF[Board", "\xFF", "\xFE", "\xFFx[", ""}) {
    bool transcoded = true;
    EXPECT_EQ(ReadText(plain, &transcoded), plain);
    EXPECT_FALSE(transcoded);
  }
}

TEST(InputTest, FilesThatAreNotThereOrNotArchivesAreErrors) {
  TempDir dir;
  const Result<InputKind> missing = SniffFile(dir.File("missing"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), StatusCode::kIo);
  EXPECT_EQ(missing.error().message(), dir.File("missing") + ": cannot read the file");
  const Read read = ReadAll(dir.File("missing"));
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].rfind(dir.File("missing") + ": ", 0), 0u);
}

}  // namespace
}  // namespace fived
