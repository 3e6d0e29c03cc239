// What makes a stored game a copy of an earlier one (games.duplicate_of, schema/README.md): the
// same identity (variant, start and canonical moves, the moves then compared in full) as an
// earlier original, and players, date and result that agree wherever both games have them. Games
// that only share their moves, under players, dates or results that differ, are different games:
// statistics count each of them. 5d-index and 5d-index merge decide it with these functions, so
// that indexing collections together and merging their shards record the same copies; what they
// decide is persisted, so changing it means a new schema version (schema/db.h).
//
// Same text implies same headers, so a game whose text is an original's is always its copy.
#ifndef FIVED_SCHEMA_COPIES_H_
#define FIVED_SCHEMA_COPIES_H_

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fived {

// The values of a game that decide whether it is a copy, as the games table stores them (the
// views must outlive the struct).
struct CopyHeaders {
  std::string_view white_key;  // games.white_key (search_keys.h NameKey); empty when absent
  std::string_view black_key;  // games.black_key
  std::string_view date;       // games.date, as written
  std::string_view result;     // games.result, as written
};

// A Date as copies compare it: surrounding spaces removed, '-' and '/' read as '.'
// ("2021-03-04" is "2021.03.04"). Empty when it says nothing: empty, or only '?' and separators
// ("????.??.??").
std::string CopyDate(std::string_view date);

// A result as copies compare it: "1-0", "0-1" or "1/2-1/2"; empty for any other ("*", none, or a
// text that claims no result).
std::string_view CopyResult(std::string_view result);

// Whether two games with the same moves are one game: White, Black, Date and Result each either
// equal (names by their search keys, dates by CopyDate, results by CopyResult) or absent from one
// of the games.
bool HeadersAgree(const CopyHeaders& a, const CopyHeaders& b);

// CopyHeaders in 25 bytes, for keeping every original of a large load in memory: 64-bit hashes
// (XXH3, seed 0) of the compared names and date, 0 for an absent one, and the result as a code.
struct CopyKey {
  uint64_t white = 0;
  uint64_t black = 0;
  uint64_t date = 0;
  uint8_t result = 0;  // 0 absent, 1 "1-0", 2 "0-1", 3 "1/2-1/2"

  static CopyKey Of(const CopyHeaders& headers);
};

// False when a and b certainly disagree (HeadersAgree would say false); true when they agree or
// when two values that differ have the same hash, which HeadersAgree on the values then tells.
bool MayAgree(const CopyKey& a, const CopyKey& b);

// The original games of each identity, in the order added (increasing id), with their CopyKey:
// what 5d-index's bulk load and 5d-index merge look a new game's original up in. One flat array,
// no allocation per game. Not thread-safe.
class OriginalsByIdentity {
 public:
  struct Original {
    int64_t id = 0;
    CopyKey key;
  };

  // Adds an original of `identity`; ids must grow from call to call.
  void Add(uint64_t identity, int64_t id, const CopyKey& key);

  // Calls f(original) for the originals of `identity` whose key may agree with `key`, lowest id
  // first, until f returns true. Returns whether one did.
  template <typename F>
  bool FindAgreeing(uint64_t identity, const CopyKey& key, F f) const {
    const auto it = first_.find(identity);
    if (it == first_.end()) return false;
    for (uint32_t at = it->second.first; at != kEnd; at = entries_[at].next) {
      const Entry& entry = entries_[at];
      if (MayAgree(entry.original.key, key) && f(entry.original)) return true;
    }
    return false;
  }

 private:
  static constexpr uint32_t kEnd = std::numeric_limits<uint32_t>::max();
  struct Entry {
    Original original;
    uint32_t next = kEnd;  // the next original of the identity
  };
  struct Chain {
    uint32_t first = kEnd;
    uint32_t last = kEnd;
  };
  std::unordered_map<uint64_t, Chain> first_;
  std::vector<Entry> entries_;
};

}  // namespace fived

#endif  // FIVED_SCHEMA_COPIES_H_
