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

void AppendSquareName(Square s, std::string* out) {
  char buffer[8];
  buffer[0] = static_cast<char>('a' + s.file);
  char* end = std::to_chars(buffer + 1, buffer + sizeof buffer, s.rank + 1).ptr;
  out->append(buffer, static_cast<size_t>(end - buffer));
}

std::string TimelineLabeling::Label(int timeline) const {
  std::string out;
  AppendLabel(timeline, &out);
  return out;
}

void TimelineLabeling::AppendLabel(int timeline, std::string* out) const {
  // Even games: "+n" for n >= 0 and "-n" for the internal -n - 1; odd games: "+n", "0", "-n".
  char buffer[16];
  char* end = buffer;
  int magnitude = timeline;
  if (even) {
    *end++ = timeline >= 0 ? '+' : '-';
    magnitude = timeline >= 0 ? timeline : -timeline - 1;
  } else if (timeline != 0) {
    *end++ = timeline > 0 ? '+' : '-';
    magnitude = timeline > 0 ? timeline : -timeline;
  }
  end = std::to_chars(end, buffer + sizeof buffer, magnitude).ptr;
  out->append(buffer, static_cast<size_t>(end - buffer));
}

int TimelineLabeling::FromNotation(bool negative, int magnitude) const {
  if (!negative) return magnitude;
  if (even) return -magnitude - 1;
  return -magnitude;
}

}  // namespace fived
