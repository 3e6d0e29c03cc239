// Read-only connections to one database, kept between requests by 5d-query serve: opening a
// connection, preparing its statements and loading the record dictionaries on first use cost more
// than many searches, so each request takes an idle connection and gives it back. A connection
// sees every commit made before each of its read transactions begins, so kept connections see
// the games 5d-index appends as new ones do.
#ifndef FIVED_QUERY_STORE_POOL_H_
#define FIVED_QUERY_STORE_POOL_H_

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "query/store.h"
#include "schema/db.h"

namespace fived {

class StorePool {
 public:
  // Connections to `path`; at most `max_idle` are kept between requests.
  explicit StorePool(std::string path, size_t max_idle = 16);

  // A connection for one caller: an idle one, or a new one (GameStore::Open's error when the
  // database cannot be opened). Thread-safe.
  Result<std::unique_ptr<GameStore>> Take();
  // Gives back a connection Take handed out. It is kept only when it is idle, with no statement
  // still running (one would hold an old snapshot) and no transaction open, and when fewer than
  // max_idle are kept; otherwise it is closed. Thread-safe.
  void Give(std::unique_ptr<GameStore> store);

  // The connections kept now.
  size_t idle() const;

 private:
  const std::string path_;
  const size_t max_idle_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<GameStore>> idle_;
};

}  // namespace fived

#endif  // FIVED_QUERY_STORE_POOL_H_
