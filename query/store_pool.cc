// A pool of read-only connections; see store_pool.h.
#include "query/store_pool.h"

#include <sqlite3.h>

namespace fived {

namespace {

// Whether the connection has no statement in the middle of a run and no open transaction.
bool Idle(GameStore& store) {
  sqlite3* db = store.db().handle();
  if (!sqlite3_get_autocommit(db)) return false;
  for (sqlite3_stmt* s = sqlite3_next_stmt(db, nullptr); s != nullptr;
       s = sqlite3_next_stmt(db, s)) {
    if (sqlite3_stmt_busy(s)) return false;
  }
  return true;
}

}  // namespace

StorePool::StorePool(std::string path, size_t max_idle)
    : path_(std::move(path)), max_idle_(max_idle) {}

DbResult<std::unique_ptr<GameStore>> StorePool::Take() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      std::unique_ptr<GameStore> store = std::move(idle_.back());
      idle_.pop_back();
      return store;
    }
  }
  DbResult<GameStore> opened = GameStore::Open(path_);
  if (!opened.ok()) return opened.error();
  return std::make_unique<GameStore>(std::move(opened).value());
}

void StorePool::Give(std::unique_ptr<GameStore> store) {
  if (store == nullptr || !Idle(*store)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (idle_.size() < max_idle_) idle_.push_back(std::move(store));
}

size_t StorePool::idle() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return idle_.size();
}

}  // namespace fived
