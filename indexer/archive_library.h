// libarchive, loaded the first time a packed input (a compressed file, a zip or a tar) needs it
// instead of at every start of 5d-index: the library and the nine it brings (libxml2, ICU,
// nettle, lzma...) took about 2 of the 5 ms every run spent starting, even runs that read no
// packed file (a --check of one position, --version). The functions input.cc uses, as pointers
// into the loaded library, under libarchive's own names and types (archive.h).
#ifndef FIVED_INDEXER_ARCHIVE_LIBRARY_H_
#define FIVED_INDEXER_ARCHIVE_LIBRARY_H_

#include <archive.h>
#include <archive_entry.h>

#include "core/status.h"

namespace fived {

struct ArchiveLibrary {
  decltype(&::archive_read_new) read_new;
  decltype(&::archive_read_free) read_free;
  decltype(&::archive_read_support_filter_all) read_support_filter_all;
  decltype(&::archive_read_support_format_zip) read_support_format_zip;
  decltype(&::archive_read_support_format_tar) read_support_format_tar;
  decltype(&::archive_read_support_format_gnutar) read_support_format_gnutar;
  decltype(&::archive_read_support_format_raw) read_support_format_raw;
  decltype(&::archive_read_support_format_empty) read_support_format_empty;
  decltype(&::archive_read_open) read_open;
  decltype(&::archive_read_open_filename) read_open_filename;
  decltype(&::archive_read_next_header) read_next_header;
  decltype(&::archive_read_data) read_data;
  decltype(&::archive_set_error) set_error;
  decltype(&::archive_error_string) error_string;
  decltype(&::archive_format) format;
  decltype(&::archive_entry_filetype) entry_filetype;
  decltype(&::archive_entry_pathname) entry_pathname;
};

// The library of the libarchive version the build's headers declare, loaded on the first call
// and kept (thread-safe: every call returns the same answer). An I/O error naming the library
// and the loader's reason when it cannot be loaded or lacks one of the functions.
Result<const ArchiveLibrary*> LoadArchiveLibrary();

}  // namespace fived

#endif  // FIVED_INDEXER_ARCHIVE_LIBRARY_H_
