// Opening an input of 5d-index by its content, not its name: plain text is read as it is; gzip,
// xz, bzip2 and zstd streams are decompressed; zip and tar archives (compressed or not) are read
// member by member (libarchive). Nothing is ever written to disk, so member paths with "../" or
// bytes that are not UTF-8 are only names. Memory is bounded by libarchive's buffers and the
// caller's reading, however large the decompressed data, and archives inside archives are read
// to a fixed depth.
#ifndef FIVED_INDEXER_INPUT_H_
#define FIVED_INDEXER_INPUT_H_

#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"

namespace fived {

enum class InputKind : uint8_t {
  kPlain,       // text as it is (or anything that is none of the below)
  kCompressed,  // one compressed stream (gzip, xz, bzip2, zstd) of plain text
  kArchive,     // a zip or tar archive, maybe compressed
};

// What the first bytes of a file say it is (its magic numbers). `head` holds at least its first
// 262 bytes, or the whole file when shorter.
InputKind SniffInput(std::string_view head);

// The kind of the file at `path`, or why it cannot be read (kIo: "PATH: cannot read the file",
// "PATH: read error").
Result<InputKind> SniffFile(const std::string& path);

// Reads a compressed stream or an archive at `path`, calling `member(name, stream)` for each
// stream of text in it, in archive order: a compressed stream is one member named "" (the file
// itself); an archive's regular files are members named by their path in the archive (as stored,
// not checked), directories and links are passed over. A member that is itself compressed or an
// archive (by its content) is read the same way, up to three levels deep: a compressed member is
// named as it is ("jan.5dpgn.gz"), the members of an archive inside "INNER/MEMBER"
// ("2024.zip/jan.5dpgn"). The stream is valid during the call only; reading it decompresses on
// the fly. `member` returns false to stop.
//
// Problems go to `error(message)`, which may be called several times: "PATH: MESSAGE" when the
// file cannot be opened or read as an archive, or is damaged between members (reading stops), and
// "PATH:MEMBER: MESSAGE" when a member's data cannot be read (its stream ends there, then reading
// goes on with the next member where the format allows it), or a member is packed too deep. Not
// thread-safe; one call per thread.
void ReadPacked(const std::string& path,
                const std::function<bool(const std::string& name, std::istream& in)>& member,
                const std::function<void(const std::string& message)>& error);

// The same for a stream read once from its start, standard input: its first bytes decide
// whether it is plain text, given whole to member("", stream), or packed, read as ReadPacked
// reads a file; `label` stands for the path in messages.
void ReadStream(std::istream& in, const std::string& label,
                const std::function<bool(const std::string& name, std::istream& in)>& member,
                const std::function<void(const std::string& message)>& error);

// A text stream in UTF-8 whatever encoding its first bytes announce: a stream that starts with a
// UTF-16 byte order mark (little or big endian, as Windows PowerShell writes files) is read
// transcoded to UTF-8, the mark dropped (a lone surrogate or a last odd byte reads as U+FFFD);
// any other stream is read as it is, through the same object. Offsets in a transcoded stream
// count UTF-8 bytes, not the input's.
class TextReader {
 public:
  explicit TextReader(std::istream& in);
  ~TextReader();
  TextReader(const TextReader&) = delete;
  TextReader& operator=(const TextReader&) = delete;

  std::istream& stream() { return stream_ ? *stream_ : in_; }
  bool transcoded() const { return transcoded_; }

 private:
  std::istream& in_;
  std::unique_ptr<std::streambuf> buffer_;
  std::unique_ptr<std::istream> stream_;
  bool transcoded_ = false;
};

}  // namespace fived

#endif  // FIVED_INDEXER_INPUT_H_
