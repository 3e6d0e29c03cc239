// A disk that fills up, for the tests of what 5d-index says and keeps when the database cannot be
// written: while a FullDisk lives, SQLite's default VFS is a shim over the real one that counts
// the bytes written to the files under one directory and, once a budget of them is spent, fails
// every further write there with SQLITE_FULL, as a full file system does. It is deterministic
// (the same run fails at the same write), which a real small file system is not, and needs no
// privileges.
#ifndef FIVED_TESTS_INDEXER_FULL_DISK_H_
#define FIVED_TESTS_INDEXER_FULL_DISK_H_

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstring>
#include <string>

namespace fived::testing {

// One at a time: it replaces the process's default VFS. Connections opened while it lives must be
// closed before it goes.
class FullDisk {
 public:
  // Counts (and may fail) the writes to files whose path starts with `directory`.
  explicit FullDisk(std::string directory) {
    EXPECT_EQ(state_.real, nullptr) << "one FullDisk at a time";
    state_ = State{};
    state_.directory = std::move(directory);
    state_.real = sqlite3_vfs_find(nullptr);
    vfs_ = sqlite3_vfs{};
    vfs_.iVersion = 2;
    vfs_.szOsFile = static_cast<int>(sizeof(File)) + state_.real->szOsFile;
    vfs_.mxPathname = state_.real->mxPathname;
    vfs_.zName = "fived-full-disk";
    vfs_.xOpen = Open;
    vfs_.xDelete = [](sqlite3_vfs*, const char* name, int sync) {
      return state_.real->xDelete(state_.real, name, sync);
    };
    vfs_.xAccess = [](sqlite3_vfs*, const char* name, int flags, int* out) {
      return state_.real->xAccess(state_.real, name, flags, out);
    };
    vfs_.xFullPathname = [](sqlite3_vfs*, const char* name, int size, char* out) {
      return state_.real->xFullPathname(state_.real, name, size, out);
    };
    vfs_.xRandomness = [](sqlite3_vfs*, int size, char* out) {
      return state_.real->xRandomness(state_.real, size, out);
    };
    vfs_.xSleep = [](sqlite3_vfs*, int microseconds) {
      return state_.real->xSleep(state_.real, microseconds);
    };
    vfs_.xCurrentTime = [](sqlite3_vfs*, double* out) {
      return state_.real->xCurrentTime(state_.real, out);
    };
    vfs_.xGetLastError = [](sqlite3_vfs*, int size, char* out) {
      return state_.real->xGetLastError(state_.real, size, out);
    };
    vfs_.xCurrentTimeInt64 = [](sqlite3_vfs*, sqlite3_int64* out) {
      return state_.real->xCurrentTimeInt64(state_.real, out);
    };
    EXPECT_EQ(sqlite3_vfs_register(&vfs_, /*makeDflt=*/1), SQLITE_OK);
  }
  ~FullDisk() {
    sqlite3_vfs_register(state_.real, /*makeDflt=*/1);
    sqlite3_vfs_unregister(&vfs_);
    state_ = State{};
  }
  FullDisk(const FullDisk&) = delete;
  FullDisk& operator=(const FullDisk&) = delete;

  // Lets `bytes` more bytes be written, then fails every write; -1 lets every write through.
  void FillAfter(long bytes) { state_.budget = bytes < 0 ? -1 : state_.written + bytes; }
  // The bytes written under the directory since the FullDisk was made (failed writes not
  // included).
  long written() const { return state_.written; }

 private:
  // The shim's file: its methods, then the real VFS's file.
  struct File {
    sqlite3_file base;
    bool counted;
    sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
  };
  static File* Of(sqlite3_file* file) { return reinterpret_cast<File*>(file); }
  static sqlite3_file* Real(sqlite3_file* file) { return Of(file)->real(); }

  static int Open(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* out_flags) {
    File* shim = Of(file);
    shim->base.pMethods = nullptr;  // SQLite closes only a file whose open succeeded
    shim->counted = name != nullptr &&
                    std::strncmp(name, state_.directory.data(), state_.directory.size()) == 0;
    const int rc = state_.real->xOpen(state_.real, name, shim->real(), flags, out_flags);
    if (rc == SQLITE_OK) shim->base.pMethods = &kMethods;
    return rc;
  }

  static int Write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
    if (Of(file)->counted) {
      if (state_.budget >= 0 && state_.written + amount > state_.budget) return SQLITE_FULL;
      state_.written += amount;
    }
    return Real(file)->pMethods->xWrite(Real(file), data, amount, offset);
  }

  static constexpr sqlite3_io_methods kMethods = {
      /*iVersion=*/2, [](sqlite3_file* f) { return Real(f)->pMethods->xClose(Real(f)); },
      [](sqlite3_file* f, void* data, int amount, sqlite3_int64 offset) {
        return Real(f)->pMethods->xRead(Real(f), data, amount, offset);
      },
      Write,
      [](sqlite3_file* f, sqlite3_int64 size) {
        return Real(f)->pMethods->xTruncate(Real(f), size);
      },
      [](sqlite3_file* f, int flags) { return Real(f)->pMethods->xSync(Real(f), flags); },
      [](sqlite3_file* f, sqlite3_int64* size) {
        return Real(f)->pMethods->xFileSize(Real(f), size);
      },
      [](sqlite3_file* f, int lock) { return Real(f)->pMethods->xLock(Real(f), lock); },
      [](sqlite3_file* f, int lock) { return Real(f)->pMethods->xUnlock(Real(f), lock); },
      [](sqlite3_file* f, int* out) { return Real(f)->pMethods->xCheckReservedLock(Real(f), out); },
      [](sqlite3_file* f, int op, void* arg) {
        return Real(f)->pMethods->xFileControl(Real(f), op, arg);
      },
      [](sqlite3_file* f) { return Real(f)->pMethods->xSectorSize(Real(f)); },
      [](sqlite3_file* f) { return Real(f)->pMethods->xDeviceCharacteristics(Real(f)); },
      // The WAL index (-shm) is shared memory, not written through xWrite: passed through.
      [](sqlite3_file* f, int page, int size, int extend, void volatile** out) {
        return Real(f)->pMethods->xShmMap(Real(f), page, size, extend, out);
      },
      [](sqlite3_file* f, int offset, int n, int flags) {
        return Real(f)->pMethods->xShmLock(Real(f), offset, n, flags);
      },
      [](sqlite3_file* f) { Real(f)->pMethods->xShmBarrier(Real(f)); },
      [](sqlite3_file* f, int delete_flag) {
        return Real(f)->pMethods->xShmUnmap(Real(f), delete_flag);
      },
      nullptr, nullptr};

  // What the shim's functions (plain function pointers, so static) work with.
  struct State {
    sqlite3_vfs* real = nullptr;
    std::string directory;
    long written = 0;
    long budget = -1;  // the value of `written` past which writes fail; -1: none
  };
  static State state_;
  sqlite3_vfs vfs_{};
};

inline FullDisk::State FullDisk::state_;

}  // namespace fived::testing

#endif  // FIVED_TESTS_INDEXER_FULL_DISK_H_
