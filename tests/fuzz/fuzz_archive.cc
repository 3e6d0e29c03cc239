// libFuzzer harness: the archive reader (indexer/input.h). The input is written to a file and
// read by its content as 5d-index reads one: sniffed, then, when packed, decompressed and read
// member by member, each member cut into games. Memory stays bounded (libFuzzer's -rss_limit_mb
// catches a leak or an unbounded buffer).
// Build and run: make fuzz (docs/FUZZING.md).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "core/game_splitter.h"
#include "indexer/input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/fived-fuzz-archive-" + std::to_string(getpid());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  std::string error;
  const std::optional<fived::InputKind> kind = fived::SniffFile(path, &error);
  if (!kind || *kind == fived::InputKind::kPlain) return 0;
  long games = 0;
  fived::ReadPacked(
      path,
      [&](const std::string&, std::istream& in) {
        fived::GameSplitter splitter(in);
        while (std::optional<fived::RawGame> raw = splitter.Next()) {
          if (raw->text.size() > fived::GameSplitter::kMaxGameBytes) __builtin_trap();
          ++games;
        }
        return true;
      },
      [](const std::string&) {});
  return 0;
}
