// Incremental state MD5s; see state_md5.h.
#include "core/state_md5.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "core/fen.h"
#include "core/types.h"

namespace fived {

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
  // The context is a value (core/md5.h), copied at every checkpoint.
  Md5 context;
  auto it = lines_.begin();
  while (it != lines_.end() && it->second.hashed_bytes == it->second.text.size()) {
    context = it->second.after;
    ++it;
  }
  if (it != lines_.end() && it->second.hashed_bytes > 0) context = it->second.after;
  for (bool first = true; it != lines_.end(); ++it, first = false) {
    Line& line = it->second;
    const size_t from = first ? line.hashed_bytes : 0;
    context.Update(line.text.data() + from, line.text.size() - from);
    line.after = context;
    line.hashed_bytes = line.text.size();
  }
  return context.Final();
}

}  // namespace fived
