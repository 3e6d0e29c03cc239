// Answers of 5d-query serve kept for the requests that ask the same again: the opening tree of a
// variant's start takes tens of milliseconds to count and every visitor of the explorer asks for
// it. An answer is valid only under the database version it was computed at (DatabaseVersion):
// 5d-index only adds rows, so a changed version means new games, and every older answer is
// dropped when it is next asked for. Least recently used answers go first when the cache is full.
#ifndef FIVED_QUERY_ANSWER_CACHE_H_
#define FIVED_QUERY_ANSWER_CACHE_H_

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "query/store.h"
#include "schema/db.h"

namespace fived {

// What the database holds, as far as answers can tell: the largest ids of its games, rejected
// games and sources ("12:1:3"). 5d-index appends and never rewrites a game, so the version
// changes exactly when a commit added rows. One cheap statement (three index lookups).
Result<std::string> DatabaseVersion(GameStore& store);

template <typename Answer>
class AnswerCache {
 public:
  // A cache of at most `max_bytes` of answers (as `size` of each counts them); 0 keeps none.
  explicit AnswerCache(size_t max_bytes) : max_bytes_(max_bytes) {}

  // The answer kept for `key` at database version `version`, or nullopt. Thread-safe.
  std::optional<Answer> Find(const std::string& key, const std::string& version) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    if (it->second->version != version) {
      Erase(it->second);
      return std::nullopt;
    }
    lru_.splice(lru_.begin(), lru_, it->second);  // most recently used first
    return it->second->answer;
  }

  // Keeps `answer` of `size` bytes for `key` at `version`, dropping the least recently used
  // answers to make room; an answer larger than the whole cache is not kept. Thread-safe.
  void Keep(const std::string& key, const std::string& version, Answer answer, size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = index_.find(key); it != index_.end()) Erase(it->second);
    if (size + key.size() > max_bytes_) return;
    lru_.push_front({key, version, std::move(answer), size + key.size()});
    index_[key] = lru_.begin();
    bytes_ += lru_.front().bytes;
    while (bytes_ > max_bytes_) Erase(std::prev(lru_.end()));
  }

  // The bytes and answers kept now.
  size_t bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return bytes_;
  }
  size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return lru_.size();
  }

 private:
  struct Entry {
    std::string key;
    std::string version;
    Answer answer;
    size_t bytes;
  };
  using Iterator = typename std::list<Entry>::iterator;

  void Erase(Iterator entry) {
    bytes_ -= entry->bytes;
    index_.erase(entry->key);
    lru_.erase(entry);
  }

  const size_t max_bytes_;
  mutable std::mutex mutex_;
  std::list<Entry> lru_;
  std::unordered_map<std::string, Iterator> index_;
  size_t bytes_ = 0;
};

}  // namespace fived

#endif  // FIVED_QUERY_ANSWER_CACHE_H_
