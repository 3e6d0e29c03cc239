// What makes a game a copy; see copies.h.
#include "schema/copies.h"

#include <xxhash.h>

#include <algorithm>

namespace fived {

namespace {

// Whether two compared values agree: equal, or one of them absent.
bool Agree(std::string_view a, std::string_view b) { return a.empty() || b.empty() || a == b; }
bool Agree(uint64_t a, uint64_t b) { return a == 0 || b == 0 || a == b; }

// The hash of a compared value; 0 stands for an absent one, so a value never hashes to it.
uint64_t ValueHash(std::string_view value) {
  if (value.empty()) return 0;
  const uint64_t hash = XXH3_64bits(value.data(), value.size());
  return hash == 0 ? 1 : hash;
}

}  // namespace

std::string CopyDate(std::string_view date) {
  const size_t begin = date.find_first_not_of(' ');
  if (begin == std::string_view::npos) return {};
  date = date.substr(begin, date.find_last_not_of(' ') - begin + 1);
  // PGN writes an unknown date, or an unknown part of one, with '?'.
  if (date.find_first_not_of("?.-/ ") == std::string_view::npos) return {};
  std::string out(date);
  std::replace(out.begin(), out.end(), '-', '.');
  std::replace(out.begin(), out.end(), '/', '.');
  return out;
}

std::string_view CopyResult(std::string_view result) {
  if (result == "1-0" || result == "0-1" || result == "1/2-1/2") return result;
  return {};
}

bool HeadersAgree(const CopyHeaders& a, const CopyHeaders& b) {
  return Agree(a.white_key, b.white_key) && Agree(a.black_key, b.black_key) &&
         Agree(CopyDate(a.date), CopyDate(b.date)) &&
         Agree(CopyResult(a.result), CopyResult(b.result));
}

CopyKey CopyKey::Of(const CopyHeaders& headers) {
  CopyKey key;
  key.white = ValueHash(headers.white_key);
  key.black = ValueHash(headers.black_key);
  key.date = ValueHash(CopyDate(headers.date));
  const std::string_view result = CopyResult(headers.result);
  key.result = result.empty() ? 0 : result == "1-0" ? 1 : result == "0-1" ? 2 : 3;
  return key;
}

bool MayAgree(const CopyKey& a, const CopyKey& b) {
  return Agree(a.white, b.white) && Agree(a.black, b.black) && Agree(a.date, b.date) &&
         Agree(a.result, b.result);
}

void OriginalsByIdentity::Add(uint64_t identity, int64_t id, const CopyKey& key) {
  const uint32_t at = static_cast<uint32_t>(entries_.size());
  entries_.push_back(Entry{Original{id, key}, kEnd});
  Chain& chain = first_.try_emplace(identity).first->second;
  if (chain.first == kEnd) {
    chain.first = at;
  } else {
    entries_[chain.last].next = at;
  }
  chain.last = at;
}

}  // namespace fived
