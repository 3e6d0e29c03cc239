// Loading libarchive on first use; see archive_library.h.
#include "indexer/archive_library.h"

#include <dlfcn.h>

#include <string>

namespace fived {
namespace {

// libarchive 3 keeps the shared library's major version 13 (Debian's libarchive13).
static_assert(ARCHIVE_VERSION_NUMBER >= 3000000 && ARCHIVE_VERSION_NUMBER < 4000000,
              "libarchive 3 is libarchive.so.13");
constexpr char kLibrary[] = "libarchive.so.13";

// Sets *function to the library's `name`; false when it has none.
template <typename Function>
bool Find(void* library, const char* name, Function* function) {
  *function = reinterpret_cast<Function>(dlsym(library, name));
  return *function != nullptr;
}

Result<const ArchiveLibrary*> Load() {
  // Never closed: the functions are used until the process ends.
  void* library = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    return Status::Io(std::string("cannot load ") + kLibrary + " (Debian package libarchive13) " +
                      "to read compressed files and archives: " + (why ? why : "unknown reason"));
  }
  static ArchiveLibrary lib;
  const bool found =
      Find(library, "archive_read_new", &lib.read_new) &&
      Find(library, "archive_read_free", &lib.read_free) &&
      Find(library, "archive_read_support_filter_all", &lib.read_support_filter_all) &&
      Find(library, "archive_read_support_format_zip", &lib.read_support_format_zip) &&
      Find(library, "archive_read_support_format_tar", &lib.read_support_format_tar) &&
      Find(library, "archive_read_support_format_gnutar", &lib.read_support_format_gnutar) &&
      Find(library, "archive_read_support_format_raw", &lib.read_support_format_raw) &&
      Find(library, "archive_read_support_format_empty", &lib.read_support_format_empty) &&
      Find(library, "archive_read_open", &lib.read_open) &&
      Find(library, "archive_read_open_filename", &lib.read_open_filename) &&
      Find(library, "archive_read_next_header", &lib.read_next_header) &&
      Find(library, "archive_read_data", &lib.read_data) &&
      Find(library, "archive_set_error", &lib.set_error) &&
      Find(library, "archive_error_string", &lib.error_string) &&
      Find(library, "archive_format", &lib.format) &&
      Find(library, "archive_entry_filetype", &lib.entry_filetype) &&
      Find(library, "archive_entry_pathname", &lib.entry_pathname);
  if (!found) {
    const char* why = dlerror();
    return Status::Io(std::string(kLibrary) +
                      " lacks a function 5d-index uses: " + (why ? why : "unknown reason"));
  }
  return &lib;
}

}  // namespace

Result<const ArchiveLibrary*> LoadArchiveLibrary() {
  static const Result<const ArchiveLibrary*> loaded = Load();
  return loaded;
}

}  // namespace fived
