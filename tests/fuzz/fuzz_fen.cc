// libFuzzer harness: the 5DFEN board reader. A board that reads is written back canonically,
// and the canonical text must read back to the same board.
// Build and run: make fuzz (docs/FUZZING.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "core/fen.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto parsed = fived::ParseFenBoard(text);
  if (const auto* board = std::get_if<fived::FenBoard>(&parsed)) {
    const std::string pieces = fived::FenPieces(board->board);
    auto again =
        fived::ParseFenBoard("[" + pieces + "]", board->board.width(), board->board.height());
    const auto* same = std::get_if<fived::FenBoard>(&again);
    if (same == nullptr || fived::FenPieces(same->board) != pieces) __builtin_trap();
  }
  return 0;
}
