// Fault injection for the tests of what 5d-index keeps and says when I/O fails: while a FaultVfs
// lives, SQLite's default VFS is a shim over the real one that counts the calls of each kind
// (file opens, reads, writes, syncs) on the files under one directory and can fail the Nth call
// of a kind with a chosen result code (SQLITE_FULL, SQLITE_IOERR_...), once or from then on, as
// SQLite's own test VFS does; or, as a file system that fills up, count the bytes written there
// and fail every write past a budget with SQLITE_FULL (FillAfter). Deterministic for a given run
// (the same run fails at the same call), which a real small file system is not, and needs no
// privileges.
#ifndef FIVED_TESTS_INDEXER_FAULT_VFS_H_
#define FIVED_TESTS_INDEXER_FAULT_VFS_H_

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <array>
#include <cstring>
#include <string>

namespace fived::testing {

enum class IoCall { kOpen, kRead, kWrite, kSync };
inline constexpr std::array<IoCall, 4> kIoCalls = {IoCall::kOpen, IoCall::kRead, IoCall::kWrite,
                                                   IoCall::kSync};
inline const char* IoCallName(IoCall call) {
  constexpr const char* kNames[] = {"open", "read", "write", "sync"};
  return kNames[static_cast<int>(call)];
}

// One at a time: it replaces the process's default VFS. Connections opened while it lives must be
// closed before it goes.
class FaultVfs {
 public:
  // Counts (and may fail) the calls on files whose path starts with `directory`.
  explicit FaultVfs(std::string directory) {
    EXPECT_EQ(state_.real, nullptr) << "one FaultVfs at a time";
    state_ = State{};
    state_.directory = std::move(directory);
    state_.real = sqlite3_vfs_find(nullptr);
    vfs_ =
        *state_.real;  // xDelete, xAccess, ... of the real VFS, which ignore their first argument
    vfs_.pNext = nullptr;
    vfs_.pAppData = state_.real->pAppData;
    vfs_.szOsFile = static_cast<int>(sizeof(File)) + state_.real->szOsFile;
    vfs_.zName = "fived-fault";
    vfs_.xOpen = Open;
    EXPECT_EQ(sqlite3_vfs_register(&vfs_, /*makeDflt=*/1), SQLITE_OK);
  }
  ~FaultVfs() {
    sqlite3_vfs_register(state_.real, /*makeDflt=*/1);
    sqlite3_vfs_unregister(&vfs_);
    state_ = State{};
  }
  FaultVfs(const FaultVfs&) = delete;
  FaultVfs& operator=(const FaultVfs&) = delete;

  // Fails the `nth` call of `call` from now on (1: the next one) with `code`; with `persistent`,
  // every later call of that kind fails too (a full disk), else only that one.
  void FailAt(IoCall call, long nth, int code, bool persistent) {
    state_.fail_call = call;
    state_.fail_at = state_.calls[static_cast<int>(call)] + nth;
    state_.code = code;
    state_.persistent = persistent;
  }
  // Lets `bytes` more bytes be written, then fails every write with SQLITE_FULL; -1 lets every
  // write through.
  void FillAfter(long bytes) { state_.budget = bytes < 0 ? -1 : state_.written + bytes; }
  // The bytes written under the directory since the FaultVfs was made (failed writes not
  // included).
  long written() const { return state_.written; }
  // Calls of `call` counted since the FaultVfs was made, and how many were failed.
  long calls(IoCall call) const { return state_.calls[static_cast<int>(call)]; }
  long failed() const { return state_.failed; }

 private:
  struct File {
    sqlite3_file base;
    bool counted;
    sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
  };
  static File* Of(sqlite3_file* file) { return reinterpret_cast<File*>(file); }
  static sqlite3_file* Real(sqlite3_file* file) { return Of(file)->real(); }

  // Counts a call; its result code when it is to fail, else SQLITE_OK.
  static int Count(IoCall call) {
    const long n = ++state_.calls[static_cast<int>(call)];
    if (state_.fail_at <= 0 || call != state_.fail_call) return SQLITE_OK;
    if (n == state_.fail_at || (state_.persistent && n > state_.fail_at)) {
      ++state_.failed;
      return state_.code;
    }
    return SQLITE_OK;
  }

  static int Open(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* out_flags) {
    File* shim = Of(file);
    shim->base.pMethods = nullptr;  // SQLite closes only a file whose open succeeded
    shim->counted = name != nullptr &&
                    std::strncmp(name, state_.directory.data(), state_.directory.size()) == 0;
    if (shim->counted) {
      if (const int rc = Count(IoCall::kOpen)) return rc;
    }
    const int rc = state_.real->xOpen(state_.real, name, shim->real(), flags, out_flags);
    if (rc == SQLITE_OK) shim->base.pMethods = &kMethods;
    return rc;
  }
  static int Read(sqlite3_file* f, void* data, int amount, sqlite3_int64 offset) {
    if (Of(f)->counted) {
      if (const int rc = Count(IoCall::kRead)) return rc;
    }
    return Real(f)->pMethods->xRead(Real(f), data, amount, offset);
  }
  static int Write(sqlite3_file* f, const void* data, int amount, sqlite3_int64 offset) {
    if (Of(f)->counted) {
      if (const int rc = Count(IoCall::kWrite)) return rc;
      if (state_.budget >= 0 && state_.written + amount > state_.budget) return SQLITE_FULL;
      state_.written += amount;
    }
    return Real(f)->pMethods->xWrite(Real(f), data, amount, offset);
  }
  static int Sync(sqlite3_file* f, int flags) {
    if (Of(f)->counted) {
      if (const int rc = Count(IoCall::kSync)) return rc;
    }
    return Real(f)->pMethods->xSync(Real(f), flags);
  }

  static constexpr sqlite3_io_methods kMethods = {
      /*iVersion=*/2, [](sqlite3_file* f) { return Real(f)->pMethods->xClose(Real(f)); }, Read,
      Write,
      [](sqlite3_file* f, sqlite3_int64 size) {
        return Real(f)->pMethods->xTruncate(Real(f), size);
      },
      Sync,
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
      // The WAL index (-shm) is shared memory, not read or written through the calls counted.
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

  struct State {
    sqlite3_vfs* real = nullptr;
    std::string directory;
    std::array<long, 4> calls{};
    IoCall fail_call = IoCall::kWrite;
    long fail_at = 0;  // the call (counted from the start) that fails; 0: none
    int code = SQLITE_OK;
    bool persistent = false;
    long failed = 0;
    long written = 0;
    long budget = -1;  // the value of `written` past which writes fail; -1: none
  };
  static State state_;
  sqlite3_vfs vfs_{};
};

inline FaultVfs::State FaultVfs::state_;

}  // namespace fived::testing

#endif  // FIVED_TESTS_INDEXER_FAULT_VFS_H_
