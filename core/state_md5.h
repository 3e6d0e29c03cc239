// The specification's MD5 of every state a game passes through, computed incrementally. The
// spec hashes the whole multiverse (every board's 5DFEN, sorted by timeline, then half-turn), so
// hashing each state from scratch costs the whole history per action. But boards never change
// once made: each board's 5DFEN is written once, when it appears, and kept per timeline; and an
// action only appends boards at the ends of some timelines (or adds a timeline), so the state's
// text after it shares its prefix, every timeline below the lowest one that changed, with the
// text before it. The stream keeps, per timeline, the MD5 context after hashing the text up to
// the end of that timeline, and resumes from the one before the first change.
//
// The cost per action is the bytes after the first changed timeline: one board's text in a game
// on one timeline, more where actions play on low timelines under many others.
#ifndef FIVED_CORE_STATE_MD5_H_
#define FIVED_CORE_STATE_MD5_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/fen.h"
#include "core/md5.h"
#include "core/position.h"

namespace fived {

// Not thread-safe; keep one per thread and Reset it per game, so that its buffers are reused.
class StateMd5Stream {
 public:
  // Forgets the game (keeps the memory).
  void Reset();
  // The MD5 of `position`'s full-state 5DFEN (Position::StateMd5, as bytes). The first call after
  // Reset takes any position; each later call must get the same game's position after more
  // actions (boards only added since the previous call).
  Md5Digest Next(const Position& position);

 private:
  struct Line {
    std::string label;  // the timeline's label in 5DFEN
    std::string text;   // its boards' 5DFEN, in half-turn order
    size_t boards = 0;  // boards in `text`
    FenRowCache rows;   // the ranks of its last board written, which the next mostly repeats
    // The MD5 context after the state's text up to the end of this timeline's first
    // `hashed_bytes` bytes (every timeline before it whole).
    Md5 after;
    size_t hashed_bytes = 0;
  };

  std::map<int, Line> lines_;  // by timeline (internal index), in the spec's order
  size_t boards_seen_ = 0;     // boards of the position at the previous call
  // The boards added since the previous call: (timeline, half-turn), reused.
  std::vector<std::pair<int, int>> added_;
};

}  // namespace fived

#endif  // FIVED_CORE_STATE_MD5_H_
