// How a game ends, as stored; see ending.h.
#include "schema/ending.h"

#include <cctype>

namespace fived {

int64_t SideToSql(Color side) { return side == Color::kWhite ? 0 : 1; }

Color SideFromSql(int64_t value) { return value == 0 ? Color::kWhite : Color::kBlack; }

int64_t VerdictToSql(Decision::Verdict verdict) {
  switch (verdict) {
    case Decision::Verdict::kCheckmate:
      return kVerdictCheckmate;
    case Decision::Verdict::kStalemate:
      return kVerdictStalemate;
    case Decision::Verdict::kPlayable:
      return kVerdictPlayable;
    case Decision::Verdict::kUnknown:
      return kVerdictUnknown;
  }
  return kVerdictUnknown;
}

std::optional<Decision::Verdict> VerdictFromSql(int64_t value) {
  switch (value) {
    case kVerdictCheckmate:
      return Decision::Verdict::kCheckmate;
    case kVerdictStalemate:
      return Decision::Verdict::kStalemate;
    case kVerdictPlayable:
      return Decision::Verdict::kPlayable;
    case kVerdictUnknown:
      return Decision::Verdict::kUnknown;
    default:
      return std::nullopt;
  }
}

std::optional<Decision::Verdict> VerdictFromName(std::string_view name) {
  for (Decision::Verdict verdict : {Decision::Verdict::kCheckmate, Decision::Verdict::kStalemate,
                                    Decision::Verdict::kPlayable, Decision::Verdict::kUnknown}) {
    const std::string_view known = VerdictName(verdict);
    if (known.size() != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < name.size() && same; ++i) {
      same = std::tolower(static_cast<unsigned char>(name[i])) == known[i];
    }
    if (same) return verdict;
  }
  return std::nullopt;
}

std::string_view ResultOfEnding(Decision::Verdict verdict, Color to_move) {
  if (verdict == Decision::Verdict::kCheckmate) return to_move == Color::kWhite ? "0-1" : "1-0";
  if (verdict == Decision::Verdict::kStalemate) return "1/2-1/2";
  return {};
}

bool ResultContradicts(std::string_view claimed, Decision::Verdict verdict, Color to_move) {
  const std::string_view settled = ResultOfEnding(verdict, to_move);
  if (settled.empty()) return false;  // playable or unknown: the game may go on or not
  const bool standard =
      claimed == "1-0" || claimed == "0-1" || claimed == "1/2-1/2" || claimed == "*";
  // Every standard token but the settled one contradicts it: for a mate of white, "1-0" says
  // white won, "1/2-1/2" a draw, "*" that nobody has; for a stalemate, either win and "*".
  return standard && claimed != settled;
}

CountedResult ResultToCount(std::string_view stored, std::optional<Decision::Verdict> verdict,
                            std::optional<Color> checked_side) {
  if ((!stored.empty() && stored != "*") || !verdict) return {stored, false};
  if (*verdict == Decision::Verdict::kStalemate) {
    return {ResultOfEnding(*verdict, Color::kWhite), true};
  }
  // A checkmate's side to move is in check; without that side the loser is not known.
  if (*verdict == Decision::Verdict::kCheckmate && checked_side) {
    return {ResultOfEnding(*verdict, *checked_side), true};
  }
  return {stored, false};
}

}  // namespace fived
