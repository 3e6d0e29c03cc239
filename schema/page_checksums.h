// Page checksums: every page of a 5dpgn-db database file but the first (the header, which SQLite
// checks itself and other programs rewrite) ends with an 8-byte checksum of the rest of the page,
// written whenever the page is written to the database file and checked whenever it is read from
// it, so that a damaged page (a flipped byte anywhere in it, a torn or misplaced write) fails the
// statement that reads it with SQLITE_IOERR_DATA instead of giving an answer.
// SQLite's b-tree checks see only damage that breaks their structure; a byte flipped in a game's
// result or a count still reads as a value.
//
// How: a VFS shim (SQLite's own mechanism for this, as its cksumvfs extension does) over the
// process's default VFS, used by every connection schema/sqlite.h opens. The checksum lives in the
// page's reserved bytes (the database header's byte 20, "bytes of reserved space at the end of
// each page", is 8): CreateIfEmpty (schema/db.cc) reserves them before the first page is written,
// and a file whose header says otherwise (made before checksums, or by another program) is read
// and written without them. Only the database file is checked: the WAL's frames carry SQLite's own
// checksums and are left alone (their pages get their checksum when a checkpoint copies them into
// the database file). A page read through SQLite's memory map is checked the first time the
// connection fetches it (a long-lived connection does not see damage done to the file after).
//
// What this asks of other programs: reading the file (sqlite3 -readonly), copying it (cp, the
// sqlite3 shell's .backup) keep the checksums; writing to it does not (a VACUUM or a checkpoint
// made by another program leaves pages whose checksum fails, which 5d-index verify reports).
#ifndef FIVED_SCHEMA_PAGE_CHECKSUMS_H_
#define FIVED_SCHEMA_PAGE_CHECKSUMS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fived {

// Bytes reserved at the end of each page for its checksum.
inline constexpr int kPageChecksumBytes = 8;

// The name of the shim's VFS, registered by the first call (thread-safe); pass it to
// sqlite3_open_v2. The shim opens files with whatever VFS is the default at the time.
const char* PageChecksumVfs();

// The checksum of a page as stored in its last kPageChecksumBytes bytes (little-endian), computed
// over the rest of the page.
uint64_t PageChecksum(const uint8_t* page, int page_size);

// The last page whose checksum failed in this thread ("page 5 of /path/db.sqlite"), for the error
// message of the statement that read it; nullopt when none has failed since the last take.
std::optional<std::string> TakeChecksumFailure();

// What a file's pages say, read straight from the file (no SQLite), for `5d-index verify`:
// whether it carries checksums, and the pages (numbered from 1; the first is not checked) whose
// checksum does not match.
struct PageChecksumReport {
  bool checked = false;  // the header reserves kPageChecksumBytes: the file carries checksums
  int page_size = 0;
  int64_t pages = 0;
  std::vector<int64_t> bad_pages;
  std::string error;  // the file could not be read (then the rest says nothing)
};
PageChecksumReport CheckPageChecksums(const std::string& path);

}  // namespace fived

#endif  // FIVED_SCHEMA_PAGE_CHECKSUMS_H_
