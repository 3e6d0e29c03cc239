// A pool of read-only connections; see store_pool.h.
#include "query/store_pool.h"

namespace fived {

StorePool::StorePool(std::string path, size_t max_idle)
    : path_(std::move(path)), max_idle_(max_idle) {}

Result<std::unique_ptr<GameStore>> StorePool::Take() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      std::unique_ptr<GameStore> store = std::move(idle_.back());
      idle_.pop_back();
      return store;
    }
  }
  Result<GameStore> opened = GameStore::Open(path_);
  if (!opened.ok()) return opened.error();
  return std::make_unique<GameStore>(std::move(opened).value());
}

void StorePool::Give(std::unique_ptr<GameStore> store) {
  if (store == nullptr || !store->db().Idle()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (idle_.size() < max_idle_) idle_.push_back(std::move(store));
}

size_t StorePool::idle() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return idle_.size();
}

}  // namespace fived
