// libFuzzer harness: the pattern language and the board streams it is matched against. The input's
// first line is read as a board pattern, a material condition, conditions on the state and a move
// pattern (each parser must answer a value or an error, never crash; a pattern that reads must
// read again the same from its canonical text); the rest of the input is read as a board stream
// and matched (MatchGame must answer or call the stream damaged, whatever the bytes).
// Build and run: make fuzz (docs/FUZZING.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "core/board_stream.h"
#include "core/game_query.h"
#include "core/pattern.h"
#include "query/move_pattern.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t newline = input.find('\n');
  const std::string_view line = input.substr(0, newline);
  const std::string_view stream =
      newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);

  fived::GameQuery query;
  if (auto pattern = fived::ParseBoardPattern(line); pattern.ok()) {
    const fived::BoardPattern& parsed = pattern.value();
    const std::string canonical = parsed.ToString();
    auto again = fived::ParseBoardPattern(canonical);
    if (!again.ok() || again.value().ToString() != canonical ||
        again.value().squares != parsed.squares) {
      __builtin_trap();
    }
    query.boards.push_back(parsed);
  }
  if (auto material = fived::ParseMaterial(line); material.ok()) {
    query.material.push_back(std::move(material).value());
  }
  if (auto state = fived::ParseState(line); state.ok()) query.state = std::move(state).value();
  if (auto move = fived::ParseMovePattern(line); move.ok()) {
    fived::FirstMoveAction(move.value(), stream);
  }
  // Relative pins need a pattern before them: the first one is taken as absolute here.
  if (!query.boards.empty()) {
    query.boards.front().timeline_offset.reset();
    query.boards.front().turn_offset.reset();
    query.boards.front().same_color = false;
  }
  fived::BoardStreamReader reader;
  fived::GameMatch match;
  fived::MatchGame(query, stream, reader, &match);
  // The stream read with every board kept (each change checked against its parent).
  if (reader.Start(stream, /*keep_squares=*/true)) {
    reader.Read([](const fived::BoardStreamReader::Entry&) { return true; });
  }
  return 0;
}
