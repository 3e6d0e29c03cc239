// Letters, names and labels of the small values in types.h.
#include "core/types.h"

#include <cassert>
#include <cctype>

namespace fived {

namespace {
constexpr char kLetters[kPieceTypeCount] = {'?', 'P', 'W', 'K', 'C', 'Q', 'Y',
                                            'S', 'N', 'R', 'B', 'U', 'D'};
constexpr std::string_view kNames[kPieceTypeCount] = {
    "nothing",  "pawn",   "brawn", "king",   "common king", "queen", "royal queen",
    "princess", "knight", "rook",  "bishop", "unicorn",     "dragon"};
}  // namespace

char PieceLetter(PieceType t) {
  assert(static_cast<int>(t) < kPieceTypeCount);
  return kLetters[static_cast<int>(t)];
}

PieceType PieceTypeFromLetter(char c) {
  const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (int i = 1; i < kPieceTypeCount; ++i) {
    if (kLetters[i] == upper) return static_cast<PieceType>(i);
  }
  return PieceType::kNone;
}

std::string_view PieceName(PieceType t) {
  assert(static_cast<int>(t) < kPieceTypeCount);
  return kNames[static_cast<int>(t)];
}

std::string SquareName(Square s) {
  std::string out(1, static_cast<char>('a' + s.file));
  out += std::to_string(s.rank + 1);
  return out;
}

std::string TimelineLabeling::Label(int timeline) const {
  if (even) {
    if (timeline >= 0) return "+" + std::to_string(timeline);
    return "-" + std::to_string(-timeline - 1);
  }
  if (timeline > 0) return "+" + std::to_string(timeline);
  return std::to_string(timeline);
}

int TimelineLabeling::FromNotation(bool negative, int magnitude) const {
  if (!negative) return magnitude;
  if (even) return -magnitude - 1;
  return -magnitude;
}

}  // namespace fived
