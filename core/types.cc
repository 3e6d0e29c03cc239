// Letters, names and labels of the small values in types.h.
#include "core/types.h"

#include <cassert>
#include <cctype>
#include <charconv>

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
  std::string out;
  AppendSquareName(s, &out);
  return out;
}

char* PutSquareName(Square s, char* end) {
  *end++ = static_cast<char>('a' + s.file);
  return std::to_chars(end, end + 4, s.rank + 1).ptr;
}

void AppendSquareName(Square s, std::string* out) {
  char buffer[kMaxSquareNameChars];
  out->append(buffer, static_cast<size_t>(PutSquareName(s, buffer) - buffer));
}

std::string TimelineLabeling::Label(int timeline) const {
  std::string out;
  AppendLabel(timeline, &out);
  return out;
}

void TimelineLabeling::AppendLabel(int timeline, std::string* out) const {
  char buffer[kMaxLabelChars];
  out->append(buffer, static_cast<size_t>(PutLabel(timeline, buffer) - buffer));
}

char* TimelineLabeling::PutLabel(int timeline, char* end) const {
  // Even games: "+n" for n >= 0 and "-n" for the internal -n - 1; odd games: "+n", "0", "-n".
  int magnitude = timeline;
  if (even) {
    *end++ = timeline >= 0 ? '+' : '-';
    magnitude = timeline >= 0 ? timeline : -timeline - 1;
  } else if (timeline != 0) {
    *end++ = timeline > 0 ? '+' : '-';
    magnitude = timeline > 0 ? timeline : -timeline;
  }
  return std::to_chars(end, end + 11, magnitude).ptr;
}

int TimelineLabeling::FromNotation(bool negative, int magnitude) const {
  if (!negative) return magnitude;
  if (even) return -magnitude - 1;
  return -magnitude;
}

}  // namespace fived
