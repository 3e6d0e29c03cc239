// The page checksum VFS of page_checksums.h.
#include "schema/page_checksums.h"

#include <sqlite3.h>
#include <xxhash.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace fived {
namespace {

// The header's bytes that say how pages are laid out.
constexpr int kHeaderBytes = 100;
constexpr int kPageSizeOffset = 16;  // 2 bytes, big-endian; 1 stands for 65536
constexpr int kReservedOffset = 20;  // 1 byte
constexpr char kMagic[] = "SQLite format 3";

thread_local std::optional<std::string> last_failure;

// An open file: the real VFS's file, and for the database file what its header says.
struct File {
  sqlite3_file base;
  sqlite3_file* real = nullptr;  // allocated here: the real VFS's size is known only at open
  bool main_db = false;
  bool checked = false;  // a database file whose header reserves the checksum bytes
  int page_size = 0;
  const char* name = nullptr;  // valid while the file is open (SQLite's guarantee)
  // Pages read through the memory map whose checksum held, by page index: a mapped page is
  // checked the first time it is fetched, not every time (SQLite fetches on every use).
  std::vector<uint64_t> mapped_ok;
};

File* Of(sqlite3_file* file) { return reinterpret_cast<File*>(file); }
sqlite3_file* Real(sqlite3_file* file) { return Of(file)->real; }

// Learns the layout from the first bytes of the database file, as read or written.
void Learn(File* file, const void* data, int amount, sqlite3_int64 offset) {
  if (!file->main_db || offset != 0 || amount < kHeaderBytes) return;
  const auto* header = static_cast<const uint8_t*>(data);
  if (std::memcmp(header, kMagic, sizeof kMagic) != 0) {
    file->checked = false;
    return;
  }
  const int size = header[kPageSizeOffset] << 8 | header[kPageSizeOffset + 1];
  file->page_size = size == 1 ? 65536 : size;
  file->checked = header[kReservedOffset] == kPageChecksumBytes && file->page_size >= 512;
}

// A page with a checksum: any whole page but the first. The first holds the header, which other
// programs change in place (the copy `sqlite3 DB .backup` makes rewrites its page count and change
// counter), and SQLite checks it on every open.
bool IsPage(const File* file, int amount, sqlite3_int64 offset) {
  return file->checked && amount == file->page_size && offset % file->page_size == 0 && offset > 0;
}

void StoreChecksum(uint8_t* page, int size) {
  uint64_t sum = PageChecksum(page, size);
  for (int i = 0; i < kPageChecksumBytes; ++i) {
    page[size - kPageChecksumBytes + i] = static_cast<uint8_t>(sum >> (8 * i));
  }
}

bool ChecksumHolds(const uint8_t* page, int size) {
  uint64_t stored = 0;
  for (int i = kPageChecksumBytes; i-- > 0;) {
    stored = stored << 8 | page[size - kPageChecksumBytes + i];
  }
  return stored == PageChecksum(page, size);
}

int Close(sqlite3_file* file) {
  sqlite3_file* real = Real(file);
  const int rc = real->pMethods ? real->pMethods->xClose(real) : SQLITE_OK;
  sqlite3_free(real);
  Of(file)->~File();  // SQLite frees the memory itself
  return rc;
}

// Records a page whose checksum failed; the result code to give SQLite.
int Fail(const File* f, sqlite3_int64 offset) {
  last_failure = "page " + std::to_string(offset / f->page_size + 1) + " of " +
                 (f->name ? f->name : "the database");
  sqlite3_log(SQLITE_IOERR_DATA, "page checksum fails: %s", last_failure->c_str());
  return SQLITE_IOERR_DATA;
}

int Read(sqlite3_file* file, void* data, int amount, sqlite3_int64 offset) {
  File* f = Of(file);
  const int rc = f->real->pMethods->xRead(f->real, data, amount, offset);
  if (rc != SQLITE_OK) return rc;
  Learn(f, data, amount, offset);
  if (IsPage(f, amount, offset) && !ChecksumHolds(static_cast<const uint8_t*>(data), amount)) {
    return Fail(f, offset);
  }
  return SQLITE_OK;
}

int Write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  File* f = Of(file);
  Learn(f, data, amount, offset);
  if (!IsPage(f, amount, offset)) return f->real->pMethods->xWrite(f->real, data, amount, offset);
  // The caller's buffer is left as it is (it may be checksummed by the WAL or be read-only).
  thread_local std::vector<uint8_t> copy;
  copy.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + amount);
  StoreChecksum(copy.data(), amount);
  return f->real->pMethods->xWrite(f->real, copy.data(), amount, offset);
}

int Truncate(sqlite3_file* file, sqlite3_int64 size) {
  return Real(file)->pMethods->xTruncate(Real(file), size);
}
int Sync(sqlite3_file* file, int flags) { return Real(file)->pMethods->xSync(Real(file), flags); }
int FileSize(sqlite3_file* file, sqlite3_int64* size) {
  return Real(file)->pMethods->xFileSize(Real(file), size);
}
int Lock(sqlite3_file* file, int level) { return Real(file)->pMethods->xLock(Real(file), level); }
int Unlock(sqlite3_file* file, int level) {
  return Real(file)->pMethods->xUnlock(Real(file), level);
}
int CheckReservedLock(sqlite3_file* file, int* out) {
  return Real(file)->pMethods->xCheckReservedLock(Real(file), out);
}
int FileControl(sqlite3_file* file, int op, void* arg) {
  return Real(file)->pMethods->xFileControl(Real(file), op, arg);
}
int SectorSize(sqlite3_file* file) { return Real(file)->pMethods->xSectorSize(Real(file)); }
int DeviceCharacteristics(sqlite3_file* file) {
  return Real(file)->pMethods->xDeviceCharacteristics(Real(file));
}
int ShmMap(sqlite3_file* file, int page, int size, int extend, void volatile** out) {
  const sqlite3_io_methods* m = Real(file)->pMethods;
  return m->iVersion >= 2 ? m->xShmMap(Real(file), page, size, extend, out) : SQLITE_IOERR_SHMMAP;
}
int ShmLock(sqlite3_file* file, int offset, int n, int flags) {
  const sqlite3_io_methods* m = Real(file)->pMethods;
  return m->iVersion >= 2 ? m->xShmLock(Real(file), offset, n, flags) : SQLITE_IOERR_SHMLOCK;
}
void ShmBarrier(sqlite3_file* file) {
  const sqlite3_io_methods* m = Real(file)->pMethods;
  if (m->iVersion >= 2) m->xShmBarrier(Real(file));
}
int ShmUnmap(sqlite3_file* file, int remove) {
  const sqlite3_io_methods* m = Real(file)->pMethods;
  return m->iVersion >= 2 ? m->xShmUnmap(Real(file), remove) : SQLITE_OK;
}
// A page SQLite reads through the memory map (without calling Read) is checked the first time.
int Fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
  File* f = Of(file);
  const sqlite3_io_methods* m = f->real->pMethods;
  *out = nullptr;
  if (m->iVersion < 3) return SQLITE_OK;
  const int rc = m->xFetch(f->real, offset, amount, out);
  if (rc != SQLITE_OK || *out == nullptr || !f->checked) return rc;
  if (!IsPage(f, amount, offset)) {  // not a whole page: let SQLite read it instead
    m->xUnfetch(f->real, offset, *out);
    *out = nullptr;
    return SQLITE_OK;
  }
  const size_t page = static_cast<size_t>(offset / f->page_size);
  if (page / 64 >= f->mapped_ok.size()) f->mapped_ok.resize(page / 64 + 1, 0);
  uint64_t& word = f->mapped_ok[page / 64];
  const uint64_t bit = uint64_t{1} << (page % 64);
  if (word & bit) return SQLITE_OK;
  if (!ChecksumHolds(static_cast<const uint8_t*>(*out), amount)) {
    m->xUnfetch(f->real, offset, *out);
    *out = nullptr;
    return Fail(f, offset);
  }
  word |= bit;
  return SQLITE_OK;
}
int Unfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) {
  const sqlite3_io_methods* m = Real(file)->pMethods;
  return m->iVersion >= 3 ? m->xUnfetch(Real(file), offset, page) : SQLITE_OK;
}

const sqlite3_io_methods kMethods = {3,
                                     Close,
                                     Read,
                                     Write,
                                     Truncate,
                                     Sync,
                                     FileSize,
                                     Lock,
                                     Unlock,
                                     CheckReservedLock,
                                     FileControl,
                                     SectorSize,
                                     DeviceCharacteristics,
                                     ShmMap,
                                     ShmLock,
                                     ShmBarrier,
                                     ShmUnmap,
                                     Fetch,
                                     Unfetch};

// The VFS below: whatever is the default when a file is opened (tests put a fault-injecting VFS
// there, tests/indexer/fault_vfs.h).
sqlite3_vfs* Below() { return sqlite3_vfs_find(nullptr); }

int Open(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* out_flags) {
  File* f = new (file) File{};
  f->base.pMethods = nullptr;
  sqlite3_vfs* below = Below();
  f->real = static_cast<sqlite3_file*>(sqlite3_malloc(below->szOsFile));
  if (f->real == nullptr) return SQLITE_NOMEM;
  std::memset(f->real, 0, static_cast<size_t>(below->szOsFile));
  const int rc = below->xOpen(below, name, f->real, flags, out_flags);
  if (rc != SQLITE_OK) {
    if (f->real->pMethods) f->real->pMethods->xClose(f->real);
    sqlite3_free(f->real);
    f->real = nullptr;
    return rc;
  }
  f->main_db = (flags & SQLITE_OPEN_MAIN_DB) != 0;
  f->name = name;
  f->base.pMethods = &kMethods;
  return SQLITE_OK;
}

int Delete(sqlite3_vfs*, const char* name, int sync_dir) {
  return Below()->xDelete(Below(), name, sync_dir);
}
int Access(sqlite3_vfs*, const char* name, int flags, int* out) {
  return Below()->xAccess(Below(), name, flags, out);
}
int FullPathname(sqlite3_vfs*, const char* name, int size, char* out) {
  return Below()->xFullPathname(Below(), name, size, out);
}
void* DlOpen(sqlite3_vfs*, const char* name) { return Below()->xDlOpen(Below(), name); }
void DlError(sqlite3_vfs*, int size, char* out) { Below()->xDlError(Below(), size, out); }
void (*DlSym(sqlite3_vfs*, void* handle, const char* symbol))(void) {
  return Below()->xDlSym(Below(), handle, symbol);
}
void DlClose(sqlite3_vfs*, void* handle) { Below()->xDlClose(Below(), handle); }
int Randomness(sqlite3_vfs*, int size, char* out) {
  return Below()->xRandomness(Below(), size, out);
}
int Sleep(sqlite3_vfs*, int microseconds) { return Below()->xSleep(Below(), microseconds); }
int CurrentTime(sqlite3_vfs*, double* out) { return Below()->xCurrentTime(Below(), out); }
int GetLastError(sqlite3_vfs*, int size, char* out) {
  return Below()->xGetLastError(Below(), size, out);
}
int CurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) {
  sqlite3_vfs* below = Below();
  if (below->iVersion >= 2 && below->xCurrentTimeInt64) return below->xCurrentTimeInt64(below, out);
  double days = 0;
  const int rc = below->xCurrentTime(below, &days);
  *out = static_cast<sqlite3_int64>(days * 86400000.0);
  return rc;
}

}  // namespace

uint64_t PageChecksum(const uint8_t* page, int page_size) {
  return XXH3_64bits(page, static_cast<size_t>(page_size - kPageChecksumBytes));
}

const char* PageChecksumVfs() {
  static sqlite3_vfs vfs = [] {
    sqlite3_vfs v{};
    v.iVersion = 2;
    v.szOsFile = static_cast<int>(sizeof(File));
    v.mxPathname = Below()->mxPathname;
    v.zName = "fived-checksum";
    v.xOpen = Open;
    v.xDelete = Delete;
    v.xAccess = Access;
    v.xFullPathname = FullPathname;
    v.xDlOpen = DlOpen;
    v.xDlError = DlError;
    v.xDlSym = DlSym;
    v.xDlClose = DlClose;
    v.xRandomness = Randomness;
    v.xSleep = Sleep;
    v.xCurrentTime = CurrentTime;
    v.xGetLastError = GetLastError;
    v.xCurrentTimeInt64 = CurrentTimeInt64;
    return v;
  }();
  static std::once_flag registered;
  std::call_once(registered, [] { sqlite3_vfs_register(&vfs, /*makeDflt=*/0); });
  return vfs.zName;
}

std::optional<std::string> TakeChecksumFailure() { return std::exchange(last_failure, {}); }

PageChecksumReport CheckPageChecksums(const std::string& path) {
  PageChecksumReport report;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    report.error = path + ": cannot open";
    return report;
  }
  uint8_t header[kHeaderBytes];
  if (std::fread(header, 1, sizeof header, file) != sizeof header ||
      std::memcmp(header, kMagic, sizeof kMagic) != 0) {
    std::fclose(file);
    report.error = path + ": not an SQLite database (its header is unreadable)";
    return report;
  }
  const int size = header[kPageSizeOffset] << 8 | header[kPageSizeOffset + 1];
  report.page_size = size == 1 ? 65536 : size;
  report.checked = header[kReservedOffset] == kPageChecksumBytes && report.page_size >= 512 &&
                   (report.page_size & (report.page_size - 1)) == 0;
  if (!report.checked) {
    std::fclose(file);
    return report;
  }
  std::rewind(file);
  std::vector<uint8_t> page(static_cast<size_t>(report.page_size));
  while (std::fread(page.data(), 1, page.size(), file) == page.size()) {
    ++report.pages;
    if (report.pages > 1 && !ChecksumHolds(page.data(), report.page_size)) {
      report.bad_pages.push_back(report.pages);
    }
  }
  if (std::ferror(file))
    report.error = path + ": read error after page " + std::to_string(report.pages);
  std::fclose(file);
  return report;
}

}  // namespace fived
