// libFuzzer harness: the 5DFEN board reader. A board that reads is written back canonically
// (pieces, timeline, turn and colour), and the canonical text must read back to the same board
// and be written the same again.
// Build and run: make fuzz (docs/FUZZING.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/fen.h"

namespace {

std::string Canonical(const fived::FenBoard& fen) {
  std::string label = fen.timeline_negative ? "-" : "+";
  if (fen.timeline_magnitude == 0 && !fen.timeline_signed_zero) label.clear();
  label += std::to_string(fen.timeline_magnitude);
  std::string text;
  fived::AppendFenBoard(fen.board, label, fen.turn, fen.color, &text);
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto parsed = fived::ParseFenBoard(text);
  if (parsed.ok()) {
    const fived::FenBoard& board = parsed.value();
    const std::string canonical = Canonical(board);
    auto again = fived::ParseFenBoard(canonical, board.board.width(), board.board.height());
    if (!again.ok() || Canonical(again.value()) != canonical ||
        fived::FenPieces(again.value().board) != fived::FenPieces(board.board)) {
      __builtin_trap();
    }
  }
  return 0;
}
