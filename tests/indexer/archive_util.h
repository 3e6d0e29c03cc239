// Writing compressed files and archives for the tests, with libarchive's writer, so that the
// tests need no zip, tar or compressor programs.
#ifndef FIVED_TESTS_INDEXER_ARCHIVE_UTIL_H_
#define FIVED_TESTS_INDEXER_ARCHIVE_UTIL_H_

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fived::testing {

enum class Packing { kZip, kTar, kTarGz, kTarZstd, kGzip, kXz, kBzip2, kZstd };

// A member's name and bytes.
using Member = std::pair<std::string, std::string>;

// Writes `members` to `path` packed as `packing`. The single-stream packings (gzip, xz, bzip2,
// zstd) take exactly one member, whose name is not stored.
inline void WritePacked(const std::string& path, Packing packing,
                        const std::vector<Member>& members) {
  archive* a = archive_write_new();
  switch (packing) {
    case Packing::kZip:
      archive_write_set_format_zip(a);
      break;
    case Packing::kTar:
      archive_write_set_format_pax_restricted(a);
      break;
    case Packing::kTarGz:
      archive_write_set_format_pax_restricted(a);
      archive_write_add_filter_gzip(a);
      break;
    case Packing::kTarZstd:
      archive_write_set_format_pax_restricted(a);
      archive_write_add_filter_zstd(a);
      break;
    case Packing::kGzip:
    case Packing::kXz:
    case Packing::kBzip2:
    case Packing::kZstd:
      ASSERT_EQ(members.size(), 1u);
      archive_write_set_format_raw(a);
      if (packing == Packing::kGzip) archive_write_add_filter_gzip(a);
      if (packing == Packing::kXz) archive_write_add_filter_xz(a);
      if (packing == Packing::kBzip2) archive_write_add_filter_bzip2(a);
      if (packing == Packing::kZstd) archive_write_add_filter_zstd(a);
      break;
  }
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK) << archive_error_string(a);
  for (const auto& [name, data] : members) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, name.c_str());
    archive_entry_set_size(entry, static_cast<la_int64_t>(data.size()));
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_perm(entry, 0644);
    ASSERT_EQ(archive_write_header(a, entry), ARCHIVE_OK) << archive_error_string(a);
    if (!data.empty()) {
      ASSERT_EQ(archive_write_data(a, data.data(), data.size()),
                static_cast<la_ssize_t>(data.size()));
    }
    archive_entry_free(entry);
  }
  ASSERT_EQ(archive_write_close(a), ARCHIVE_OK) << archive_error_string(a);
  archive_write_free(a);
}

// The bytes of `members` packed as `packing`, to pack again as a member of another archive;
// `scratch` is a file the packing is written to on the way.
inline std::string PackedBytes(const std::string& scratch, Packing packing,
                               const std::vector<Member>& members) {
  WritePacked(scratch, packing, members);
  std::ifstream in(scratch, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace fived::testing

#endif  // FIVED_TESTS_INDEXER_ARCHIVE_UTIL_H_
