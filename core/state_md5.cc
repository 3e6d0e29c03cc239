// Incremental state MD5s; see state_md5.h.
#include "core/state_md5.h"

// The low-level MD5 context is a plain struct, copied by value at every checkpoint; an EVP
// context cannot be copied without an allocation. OpenSSL 3 marks the low-level API deprecated
// but keeps it.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/md5.h>

#include <algorithm>
#include <cassert>
#include <cstring>

#include "core/fen.h"
#include "core/types.h"

namespace fived {

static_assert(sizeof(MD5_CTX) <= kMd5ContextBytes, "StateMd5Stream::Line::after is too small");

std::string Md5DigestHex(const Md5Digest& digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(32, '0');
  for (size_t i = 0; i < digest.size(); ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 15];
  }
  return out;
}

uint64_t Md5DigestKey(const Md5Digest& digest) {
  uint64_t key = 0;
  for (int i = 0; i < 8; ++i) key = key << 8 | digest[i];
  return key;
}

void StateMd5Stream::Reset() {
  lines_.clear();
  boards_seen_ = 0;
}

Md5Digest StateMd5Stream::Next(const Position& position) {
  added_.clear();
  size_t index = 0;
  position.ForEachBoardInOrder([&](int timeline, int half_turn, uint64_t) {
    if (index++ >= boards_seen_) added_.emplace_back(timeline, half_turn);
  });
  assert(index >= boards_seen_);
  boards_seen_ = index;
  // Each timeline's new boards in half-turn order, which is their order in its text.
  std::sort(added_.begin(), added_.end());
  for (const auto& [timeline, half_turn] : added_) {
    Line& line = lines_[timeline];
    if (line.label.empty()) line.label = position.labeling().Label(timeline);
    const Board* board = position.BoardAt(timeline, half_turn);
    assert(board != nullptr);
    AppendFenBoard(*board, line.label, TurnOf(half_turn), ColorOf(half_turn), &line.text,
                   &line.rows);
    ++line.boards;
  }
  // Every timeline before the first that changed is hashed as it was; the first that changed
  // resumes after its old text (its context was over the same prefix); every later one is hashed
  // again after it.
  MD5_CTX context;
  MD5_Init(&context);
  auto it = lines_.begin();
  while (it != lines_.end() && it->second.hashed_bytes == it->second.text.size()) {
    std::memcpy(&context, it->second.after.data(), sizeof context);
    ++it;
  }
  if (it != lines_.end() && it->second.hashed_bytes > 0) {
    std::memcpy(&context, it->second.after.data(), sizeof context);
  }
  for (bool first = true; it != lines_.end(); ++it, first = false) {
    Line& line = it->second;
    const size_t from = first ? line.hashed_bytes : 0;
    MD5_Update(&context, line.text.data() + from, line.text.size() - from);
    std::memcpy(line.after.data(), &context, sizeof context);
    line.hashed_bytes = line.text.size();
  }
  Md5Digest digest;
  MD5_Final(digest.data(), &context);
  return digest;
}

}  // namespace fived
