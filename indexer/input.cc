// Inputs by content (input.h): magic numbers decide, libarchive reads what is packed.
#include "indexer/input.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <streambuf>
#include <utility>

#include "indexer/archive_library.h"

namespace fived {
namespace {

// Bytes libarchive reads from the file at a time, and decompressed bytes handed to the stream.
constexpr size_t kReadBlock = 64 * 1024;
// ustar's magic "ustar" sits at offset 257 of a tar's first header.
constexpr size_t kTarMagicOffset = 257;

bool StartsWith(std::string_view head, std::string_view magic) {
  return head.size() >= magic.size() && head.substr(0, magic.size()) == magic;
}

// libarchive's functions; only called on readers OpenReader made, once the library is loaded.
const ArchiveLibrary& Lib() { return *LoadArchiveLibrary().value(); }

using ArchivePtr = std::unique_ptr<archive, decltype(&archive_read_free)>;

// A member's data as a std::streambuf: underflow decompresses the next block. A read failure ends
// the stream (EOF) and is kept in `error`. Peek() looks at the first bytes before anyone reads,
// and NextBlock() hands the data on block by block to a reader of archives packed inside.
class MemberBuffer : public std::streambuf {
 public:
  explicit MemberBuffer(archive* a) : archive_(a) {}
  const std::string& error() const { return error_; }

  // The member's first `n` bytes (fewer when it is shorter, or when it cannot be read: then
  // error() says why); they stay to be read.
  std::string_view Peek(size_t n) {
    size_t have = static_cast<size_t>(egptr() - eback());
    while (have < n && error_.empty()) {
      const la_ssize_t got =
          Lib().read_data(archive_, buffer_.data() + have, buffer_.size() - have);
      if (got <= 0) {
        if (got < 0) error_ = ArchiveError(archive_);
        break;
      }
      have += static_cast<size_t>(got);
    }
    setg(buffer_.data(), buffer_.data(), buffer_.data() + have);
    return std::string_view(buffer_.data(), std::min(have, n));
  }

  // The next bytes not yet read, at least one, in *data; 0 at the end, -1 when they cannot be
  // read (error() says why).
  la_ssize_t NextBlock(const void** data) {
    if (gptr() == egptr() && underflow() == traits_type::eof()) return error_.empty() ? 0 : -1;
    *data = gptr();
    const la_ssize_t n = egptr() - gptr();
    setg(eback(), egptr(), egptr());
    return n;
  }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (!error_.empty()) return traits_type::eof();
    const la_ssize_t n = Lib().read_data(archive_, buffer_.data(), buffer_.size());
    if (n < 0) {
      error_ = ArchiveError(archive_);
      return traits_type::eof();
    }
    if (n == 0) return traits_type::eof();
    setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  static std::string ArchiveError(archive* a) {
    const char* message = Lib().error_string(a);
    return message ? message : "cannot read the member's data";
  }

  archive* archive_;
  std::array<char, kReadBlock> buffer_;
  std::string error_;
};

std::string ArchiveMessage(archive* a, const char* fallback) {
  const char* message = Lib().error_string(a);
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

Result<InputKind> SniffFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Io(path + ": cannot read the file");
  char head[kTarMagicOffset + 8];
  in.read(head, sizeof head);
  if (in.bad()) return Status::Io(path + ": read error");
  return SniffInput(std::string_view(head, static_cast<size_t>(in.gcount())));
}

namespace {

// Archives and compressed streams packed in a member, one within the other, that are read (the
// file's own packing not counted): a .tar.gz of zips of .5dpgn.gz files is two. Deeper packings are
// errors: each level holds a reader, and archives of archives (the bomb that multiplies at each
// level) stop here.
constexpr int kMaxNesting = 3;
// Bytes enough to sniff a member (SniffInput): a tar's magic ends at byte 262.
constexpr size_t kSniffBytes = kTarMagicOffset + 8;

using MemberCallback = std::function<bool(const std::string& name, std::istream& in)>;
using ErrorCallback = std::function<void(const std::string& message)>;

// Only the formats the indexer promises: zip and tar, and "raw" for a single compressed stream
// (raw bids last, so a compressed tar is read as a tar). Other formats stay off, so that a
// compressed text is never taken for some exotic archive.
void SupportFormats(archive* a) {
  Lib().read_support_filter_all(a);
  Lib().read_support_format_zip(a);
  Lib().read_support_format_tar(a);
  Lib().read_support_format_gnutar(a);
  Lib().read_support_format_raw(a);
  Lib().read_support_format_empty(a);
}

// A new reader of the formats above, opened by open(reader) (one of libarchive's
// archive_read_open calls); null once it has said why it could not be ("WHERE: MESSAGE").
template <typename Open>
ArchivePtr OpenReader(const std::string& where, const char* fallback, const ErrorCallback& error,
                      Open open) {
  const Result<const ArchiveLibrary*> lib = LoadArchiveLibrary();
  if (!lib.ok()) {
    error(where + ": " + lib.error().message());
    return ArchivePtr(nullptr, nullptr);
  }
  ArchivePtr a(lib.value()->read_new(), lib.value()->read_free);
  if (!a) {
    error(where + ": out of memory");
    return a;
  }
  SupportFormats(a.get());
  if (open(a.get()) != ARCHIVE_OK) {
    error(where + ": " + ArchiveMessage(a.get(), fallback));
    a.reset();
  }
  return a;
}

// libarchive's read callback for an archive packed in a member: the member's data, block by block.
la_ssize_t ReadFromMember(archive* inner, void* member, const void** block) {
  auto* from = static_cast<MemberBuffer*>(member);
  const la_ssize_t n = from->NextBlock(block);
  if (n < 0) Lib().set_error(inner, EIO, "%s", from->error().c_str());
  return n;
}

// Reads the members of the opened archive `a` of the file `path`, packed in the member `outer` of
// it ("" for the file itself) at nesting `depth`: see ReadPacked. A member packed again (by its
// content) is read in turn, its members named "OUTER/MEMBER", a compressed stream named as the
// member that holds it. Returns false when `member` asked to stop.
bool ReadMembers(archive* a, const std::string& path, const std::string& outer, int depth,
                 const MemberCallback& member, const ErrorCallback& error) {
  const std::string where = outer.empty() ? path : path + ":" + outer;
  bool member_failed = false;  // the last member's data could not be read (and was reported)
  while (true) {
    archive_entry* entry = nullptr;
    const int status = Lib().read_next_header(a, &entry);
    if (status == ARCHIVE_EOF) return true;
    if (status == ARCHIVE_RETRY) continue;
    if (status == ARCHIVE_FATAL || entry == nullptr) {
      // After a damaged member the archive usually cannot go on: that was said already.
      if (!member_failed) error(where + ": " + ArchiveMessage(a, "damaged archive"));
      return true;
    }
    // ARCHIVE_WARN (an odd header field) still gives a usable entry.
    const bool raw = Lib().format(a) == ARCHIVE_FORMAT_RAW;
    if (!raw && Lib().entry_filetype(entry) != AE_IFREG) continue;
    const char* pathname = Lib().entry_pathname(entry);
    const std::string own = pathname ? pathname : "";
    const std::string name = raw ? outer : outer.empty() ? own : outer + "/" + own;
    MemberBuffer buffer(a);
    bool go_on = true;
    const std::string_view head = raw ? std::string_view() : buffer.Peek(kSniffBytes);
    if (!head.empty() && SniffInput(head) != InputKind::kPlain) {
      // Packed again: read by a reader of its own, on the member's data as it comes.
      if (depth >= kMaxNesting) {
        error(path + ":" + name + ": packed more than " + std::to_string(kMaxNesting + 1) +
              " levels deep; not read");
        continue;
      }
      const ArchivePtr inner =
          OpenReader(path + ":" + name, "cannot read the member", error, [&](archive* reader) {
            return Lib().read_open(reader, &buffer, nullptr, ReadFromMember, nullptr);
          });
      if (inner) go_on = ReadMembers(inner.get(), path, name, depth + 1, member, error);
      // A failure of this member's data was reported by the reader inside.
      member_failed = !buffer.error().empty();
    } else {
      std::istream in(&buffer);
      go_on = member(name, in);
      member_failed = !buffer.error().empty();
      if (member_failed) {
        error(path + (name.empty() ? "" : ":" + name) + ": " + buffer.error());
        // A stream cannot go on after a damaged block; an archive may, at its next member.
        if (raw) return go_on;
      }
    }
    if (!go_on) return false;
  }
}

}  // namespace

void ReadPacked(const std::string& path, const MemberCallback& member, const ErrorCallback& error) {
  const ArchivePtr a = OpenReader(
      path, "cannot read the file as an archive", error,
      [&](archive* reader) { return Lib().read_open_filename(reader, path.c_str(), kReadBlock); });
  if (a) ReadMembers(a.get(), path, "", 0, member, error);
}

namespace {

// A stream whose first bytes were taken to sniff it: `head`, then the rest of `rest`, as one.
class PrefixedBuffer : public std::streambuf {
 public:
  PrefixedBuffer(std::string head, std::istream& rest) : head_(std::move(head)), rest_(rest) {
    setg(head_.data(), head_.data(), head_.data() + head_.size());
  }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    rest_.read(block_.data(), static_cast<std::streamsize>(block_.size()));
    const std::streamsize n = rest_.gcount();
    if (n <= 0) return traits_type::eof();
    setg(block_.data(), block_.data(), block_.data() + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::string head_;
  std::istream& rest_;
  std::array<char, kReadBlock> block_;
};

// libarchive's read callback for a packed stream: the prefixed stream's bytes, block by block.
struct StreamSource {
  std::istream* in = nullptr;
  std::array<char, kReadBlock> block;
};
la_ssize_t ReadFromStream(archive* a, void* data, const void** block) {
  auto* source = static_cast<StreamSource*>(data);
  const std::streamsize n = source->in->rdbuf()->sgetn(
      source->block.data(), static_cast<std::streamsize>(source->block.size()));
  if (n < 0) {
    Lib().set_error(a, EIO, "read error");
    return -1;
  }
  *block = source->block.data();
  return static_cast<la_ssize_t>(n);
}

}  // namespace

void ReadStream(std::istream& in, const std::string& label, const MemberCallback& member,
                const ErrorCallback& error) {
  std::string head(kSniffBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  const InputKind kind = SniffInput(head);
  PrefixedBuffer buffer(std::move(head), in);
  std::istream whole(&buffer);
  if (kind == InputKind::kPlain) {
    member("", whole);
    if (in.bad()) error(label + ": read error");
    return;
  }
  StreamSource source;
  source.in = &whole;
  const ArchivePtr a =
      OpenReader(label, "cannot read the stream as an archive", error, [&](archive* reader) {
        return Lib().read_open(reader, &source, nullptr, ReadFromStream, nullptr);
      });
  if (a) ReadMembers(a.get(), label, "", 0, member, error);
}

namespace {

// UTF-16 code units from a byte stream, decoded to UTF-8 a block at a time.
class Utf16Buffer : public std::streambuf {
 public:
  Utf16Buffer(std::streambuf* source, bool big_endian) : source_(source), big_(big_endian) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    size_t out = 0;
    while (out + 4 <= out_.size()) {
      int unit = pending_ >= 0 ? std::exchange(pending_, -1) : NextUnit();
      if (unit == kEnd) break;
      uint32_t code = unit == kOddByte ? 0xFFFD : static_cast<uint32_t>(unit);
      if (code >= 0xD800 && code < 0xDC00) {
        const int low = NextUnit();
        if (low >= 0xDC00 && low < 0xE000) {
          code = 0x10000 + ((code - 0xD800) << 10) + (static_cast<uint32_t>(low) - 0xDC00);
        } else {
          code = 0xFFFD;
          pending_ = low;  // read again on its own (kEnd included)
        }
      } else if (code >= 0xDC00 && code < 0xE000) {
        code = 0xFFFD;
      }
      out += PutUtf8(code, &out_[out]);
    }
    if (out == 0) return traits_type::eof();
    setg(out_.data(), out_.data(), out_.data() + out);
    return traits_type::to_int_type(*gptr());
  }

 private:
  static constexpr int kEnd = -1;
  static constexpr int kOddByte = -2;  // a last byte without its pair

  // The next code unit, kEnd at the end, kOddByte for a last lone byte.
  int NextUnit() {
    if (in_end_ - in_pos_ < 2) {
      // Keep a byte left over, then refill behind it.
      const size_t left = in_end_ - in_pos_;
      if (left == 1) in_[0] = in_[in_pos_];
      in_pos_ = 0;
      in_end_ = left;
      const std::streamsize n =
          source_->sgetn(in_.data() + left, static_cast<std::streamsize>(in_.size() - left));
      if (n > 0) in_end_ += static_cast<size_t>(n);
      if (in_end_ == 0) return kEnd;
      if (in_end_ == 1) {
        in_end_ = 0;
        return kOddByte;
      }
    }
    const auto first = static_cast<unsigned char>(in_[in_pos_]);
    const auto second = static_cast<unsigned char>(in_[in_pos_ + 1]);
    in_pos_ += 2;
    return big_ ? first << 8 | second : second << 8 | first;
  }

  static size_t PutUtf8(uint32_t code, char* out) {
    if (code < 0x80) {
      out[0] = static_cast<char>(code);
      return 1;
    }
    if (code < 0x800) {
      out[0] = static_cast<char>(0xC0 | code >> 6);
      out[1] = static_cast<char>(0x80 | (code & 0x3F));
      return 2;
    }
    if (code < 0x10000) {
      out[0] = static_cast<char>(0xE0 | code >> 12);
      out[1] = static_cast<char>(0x80 | (code >> 6 & 0x3F));
      out[2] = static_cast<char>(0x80 | (code & 0x3F));
      return 3;
    }
    out[0] = static_cast<char>(0xF0 | code >> 18);
    out[1] = static_cast<char>(0x80 | (code >> 12 & 0x3F));
    out[2] = static_cast<char>(0x80 | (code >> 6 & 0x3F));
    out[3] = static_cast<char>(0x80 | (code & 0x3F));
    return 4;
  }

  std::streambuf* source_;
  bool big_;
  int pending_ = -1;  // a unit read after a high surrogate that was not its pair
  std::array<char, kReadBlock> in_;
  size_t in_pos_ = 0, in_end_ = 0;
  std::array<char, kReadBlock> out_;
};

}  // namespace

TextReader::TextReader(std::istream& in) : in_(in) {
  std::streambuf* source = in.rdbuf();
  const int first = source ? source->sgetc() : std::char_traits<char>::eof();
  if (first != 0xFF && first != 0xFE) return;  // the common case: nothing taken from the stream
  std::string head(2, '\0');
  head.resize(static_cast<size_t>(source->sgetn(head.data(), 2)));
  if (head == "\xFF\xFE" || head == "\xFE\xFF") {
    transcoded_ = true;
    buffer_ = std::make_unique<Utf16Buffer>(source, head[0] == '\xFE');
  } else {
    buffer_ = std::make_unique<PrefixedBuffer>(std::move(head), in);
  }
  stream_ = std::make_unique<std::istream>(buffer_.get());
}

TextReader::~TextReader() = default;

}  // namespace fived
