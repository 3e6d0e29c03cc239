// libFuzzer harness: the archive reader (indexer/input.h). The input is written to a file and
// read by its content as 5d-index reads one: sniffed, then, when packed, decompressed and read
// member by member, each member cut into games; then the same bytes are read as a stream, as from
// standard input. Memory stays bounded (libFuzzer's -rss_limit_mb catches a leak or an unbounded
// buffer).
// Build and run: make fuzz (docs/FUZZING.md).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "core/game_splitter.h"
#include "indexer/input.h"

namespace {

const std::string& InputPath() {
  static const std::string path = "/tmp/fived-fuzz-archive-" + std::to_string(getpid());
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = InputPath();
  // The file is removed when the process ends normally (make test runs this harness every time);
  // registered after the path was made, so that it runs before the path is destroyed.
  static const bool removed_at_exit = std::atexit([] { std::remove(InputPath().c_str()); }) == 0;
  (void)removed_at_exit;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  long games = 0;
  auto split = [&](const std::string&, std::istream& in) {
    fived::TextReader text(in);  // UTF-16 read as UTF-8, as the indexer reads a member
    fived::GameSplitter splitter(text.stream());
    while (std::optional<fived::RawGame> raw = splitter.Next()) {
      if (raw->text.size() > fived::GameSplitter::kMaxGameBytes) __builtin_trap();
      ++games;
    }
    return true;
  };
  const fived::Result<fived::InputKind> kind = fived::SniffFile(path);
  if (kind.ok() && kind.value() != fived::InputKind::kPlain) {
    fived::ReadPacked(path, split, [](const std::string&) {});
  }
  // The same bytes as standard input would give them, plain text included.
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  fived::ReadStream(in, "-", split, [](const std::string&) {});
  return 0;
}
