// Inputs by content (input.h): magic numbers decide, libarchive reads what is packed.
#include "indexer/input.h"

#include <archive.h>
#include <archive_entry.h>

#include <array>
#include <cstring>
#include <fstream>
#include <memory>
#include <streambuf>

namespace fived {
namespace {

// Bytes libarchive reads from the file at a time, and decompressed bytes handed to the stream.
constexpr size_t kReadBlock = 64 * 1024;
// ustar's magic "ustar" sits at offset 257 of a tar's first header.
constexpr size_t kTarMagicOffset = 257;

bool StartsWith(std::string_view head, std::string_view magic) {
  return head.size() >= magic.size() && head.substr(0, magic.size()) == magic;
}

using ArchivePtr = std::unique_ptr<archive, decltype(&archive_read_free)>;

// A member's data as a std::streambuf: underflow decompresses the next block. A read failure ends
// the stream (EOF) and is kept in `error`.
class MemberBuffer : public std::streambuf {
 public:
  explicit MemberBuffer(archive* a) : archive_(a) {}
  const std::string& error() const { return error_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (!error_.empty()) return traits_type::eof();
    const la_ssize_t n = archive_read_data(archive_, buffer_.data(), buffer_.size());
    if (n < 0) {
      const char* message = archive_error_string(archive_);
      error_ = message ? message : "cannot read the member's data";
      return traits_type::eof();
    }
    if (n == 0) return traits_type::eof();
    setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  archive* archive_;
  std::array<char, kReadBlock> buffer_;
  std::string error_;
};

std::string ArchiveMessage(archive* a, const char* fallback) {
  const char* message = archive_error_string(a);
  return message && *message ? message : fallback;
}

}  // namespace

InputKind SniffInput(std::string_view head) {
  if (StartsWith(head, "PK\x03\x04") || StartsWith(head, "PK\x05\x06") ||
      StartsWith(head, "PK\x07\x08")) {
    return InputKind::kArchive;  // zip (an empty zip is only its end record, PK\5\6)
  }
  if (head.size() >= kTarMagicOffset + 5 && head.substr(kTarMagicOffset, 5) == "ustar") {
    return InputKind::kArchive;
  }
  if (StartsWith(head, "\x1f\x8b") ||  // gzip
      StartsWith(head, std::string_view("\xfd"
                                        "7zXZ\0",
                                        6)) ||  // xz
      StartsWith(head, "BZh") ||                // bzip2
      StartsWith(head, "\x28\xb5\x2f\xfd")) {   // zstd
    // A compressed tar is an archive too, but that shows only once decompressed: ReadPacked
    // finds out, and reads either.
    return InputKind::kCompressed;
  }
  return InputKind::kPlain;
}

std::optional<InputKind> SniffFile(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot read the file";
    return std::nullopt;
  }
  char head[kTarMagicOffset + 8];
  in.read(head, sizeof head);
  if (in.bad()) {
    *error = path + ": read error";
    return std::nullopt;
  }
  return SniffInput(std::string_view(head, static_cast<size_t>(in.gcount())));
}

void ReadPacked(const std::string& path,
                const std::function<bool(const std::string& name, std::istream& in)>& member,
                const std::function<void(const std::string& message)>& error) {
  ArchivePtr a(archive_read_new(), &archive_read_free);
  if (!a) {
    error(path + ": out of memory");
    return;
  }
  // Only the formats the indexer promises: zip and tar, and "raw" for a single compressed stream
  // (raw bids last, so a compressed tar is read as a tar). Other formats stay off, so that a
  // compressed text is never taken for some exotic archive.
  archive_read_support_filter_all(a.get());
  archive_read_support_format_zip(a.get());
  archive_read_support_format_tar(a.get());
  archive_read_support_format_gnutar(a.get());
  archive_read_support_format_raw(a.get());
  archive_read_support_format_empty(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), kReadBlock) != ARCHIVE_OK) {
    error(path + ": " + ArchiveMessage(a.get(), "cannot read the file as an archive"));
    return;
  }
  bool member_failed = false;  // the last member's data could not be read (and was reported)
  while (true) {
    archive_entry* entry = nullptr;
    const int status = archive_read_next_header(a.get(), &entry);
    if (status == ARCHIVE_EOF) return;
    if (status == ARCHIVE_RETRY) continue;
    if (status == ARCHIVE_FATAL || entry == nullptr) {
      // After a damaged member the archive usually cannot go on: that was said already.
      if (!member_failed) error(path + ": " + ArchiveMessage(a.get(), "damaged archive"));
      return;
    }
    // ARCHIVE_WARN (an odd header field) still gives a usable entry.
    const bool raw = archive_format(a.get()) == ARCHIVE_FORMAT_RAW;
    if (!raw && archive_entry_filetype(entry) != AE_IFREG) continue;
    const char* pathname = archive_entry_pathname(entry);
    const std::string name = raw ? std::string() : std::string(pathname ? pathname : "");
    MemberBuffer buffer(a.get());
    std::istream in(&buffer);
    const bool go_on = member(name, in);
    member_failed = !buffer.error().empty();
    if (member_failed) {
      error(path + (raw ? "" : ":" + name) + ": " + buffer.error());
      // A stream cannot go on after a damaged block; an archive may, at its next member.
      if (raw) return;
    }
    if (!go_on) return;
  }
}

}  // namespace fived
