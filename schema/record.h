// The stored form of a game's texts: its original text and its canonical movetext compressed
// together into one zstd frame, usually with a dictionary trained on the database's first games.
// Game texts are a few hundred bytes to a few kilobytes: alone they compress about 2x, with a
// dictionary about 3x, and the canonical movetext, which repeats much of the original, costs
// little in the same frame. Together they were most of the database.
//
// Frame content: the original text's length in bytes (4 bytes, little endian), the original text,
// the canonical movetext. Zstd's frame format is
// stable, so what is stored stays readable; the dictionary is kept in the database
// (table dictionaries) and named by games.dictionary_id.
#ifndef FIVED_SCHEMA_RECORD_H_
#define FIVED_SCHEMA_RECORD_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schema/sqlite.h"

namespace fived {

// Trains a dictionary on sample records (original text followed by canonical movetext). Returns an
// empty string when zstd cannot train one (too few or too small samples).
std::string TrainRecordDictionary(const std::vector<std::string>& samples, size_t capacity);

// Compresses and decompresses records, with or without a dictionary. Not thread-safe: one codec
// per thread.
class RecordCodec {
 public:
  // `dictionary` may be empty (plain zstd).
  explicit RecordCodec(std::string_view dictionary = {});
  ~RecordCodec();
  RecordCodec(const RecordCodec&) = delete;
  RecordCodec& operator=(const RecordCodec&) = delete;

  std::string Compress(std::string_view text, std::string_view moves);
  // Returns false when the data is not a record made with this codec's dictionary.
  bool Decompress(std::span<const uint8_t> data, std::string* text, std::string* moves);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The codecs of one database's records by dictionary id (0: none), each dictionary read once.
// Not thread-safe, like the codecs.
class RecordCodecs {
 public:
  explicit RecordCodecs(Database& db) : db_(db) {}
  // The codec of `dictionary`; null when the database has no such dictionary (what that means is
  // the caller's: a damaged record, a missing dictionary).
  Result<RecordCodec*> For(int64_t dictionary);
  void Clear() { codecs_.clear(); }

 private:
  Database& db_;
  std::map<int64_t, std::unique_ptr<RecordCodec>> codecs_;
};

// The tokens of canonical movetext ("1. (0T1)e3 / (0T1)f6\n2. ...", "1b. ..."): calls
// on_token(token, opens_action) for each, in order. Turn markers ("12.", "12b.") and the " / "
// separator open an action (opens_action true); anything else is a move (false). Stops at a
// result token, at the end, or when on_token returns false. Never fails.
template <typename F>
void ForEachCanonicalToken(std::string_view movetext, F&& on_token) {
  const auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  size_t i = 0;
  while (i < movetext.size()) {
    while (i < movetext.size() && space(movetext[i])) ++i;
    size_t end = i;
    while (end < movetext.size() && !space(movetext[end])) ++end;
    const std::string_view token = movetext.substr(i, end - i);
    i = end;
    if (token.empty() || token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*") {
      return;
    }
    if (!on_token(token, token == "/" || token.back() == '.')) return;
  }
}

}  // namespace fived

#endif  // FIVED_SCHEMA_RECORD_H_
