// Move patterns; see move_pattern.h.
#include "query/move_pattern.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

#include "core/legal.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "schema/record.h"

namespace fived {

namespace {

bool ReadBound(std::string_view text, int* value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return error == std::errc() && end == text.data() + text.size() && *value >= 1;
}

// What a canonical move text says: "(0T5)Nf3", "(0T5)e4", "(0T4)Bd7>>(0T3)d6",
// "(0T5)Qh5>>x(0T3)f7", "(0T5)O-O", "(0T7)exd8=Q".
struct MoveFacts {
  PieceType piece = PieceType::kPawn;
  bool jump = false, branch = false, capture = false;
};

MoveFacts ReadMove(std::string_view token) {
  MoveFacts facts;
  const size_t close = token.find(')');
  std::string_view rest = close == std::string_view::npos ? token : token.substr(close + 1);
  if (rest.substr(0, 3) == "O-O") {
    facts.piece = PieceType::kKing;
    return facts;
  }
  if (!rest.empty() && std::isupper(static_cast<unsigned char>(rest.front()))) {
    const PieceType type = PieceTypeFromLetter(rest.front());
    if (type != PieceType::kNone) facts.piece = type;
  }
  const size_t arrow = rest.find('>');
  facts.jump = arrow != std::string_view::npos;
  facts.branch = rest.find(">>") != std::string_view::npos;
  // Square names use files a to p: an 'x' is a capture.
  facts.capture = rest.find('x') != std::string_view::npos;
  return facts;
}

}  // namespace

Result<MovePattern> ParseMovePattern(std::string_view text) {
  MovePattern pattern;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() &&
           (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == ',')) {
      ++i;
    }
    if (i == text.size()) break;
    const size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) &&
           text[i] != ',') {
      ++i;
    }
    const std::string_view word = text.substr(start, i - start);
    auto bad = [&] {
      return TextErrorAt(text, start + 1,
                         "'" + std::string(word) +
                             "' is not a piece letter, physical, jump, branch, travel, capture, "
                             "check or actions=A-B");
    };
    if (word.size() == 1 && std::isalpha(static_cast<unsigned char>(word[0]))) {
      const PieceType type = PieceTypeFromLetter(word[0]);
      if (type == PieceType::kNone) return bad();
      pattern.piece = type;
      pattern.color =
          std::isupper(static_cast<unsigned char>(word[0])) ? Color::kWhite : Color::kBlack;
    } else if (word == "physical") {
      pattern.kind = MovePattern::Kind::kPhysical;
    } else if (word == "jump") {
      pattern.kind = MovePattern::Kind::kJump;
    } else if (word == "branch") {
      pattern.kind = MovePattern::Kind::kBranch;
    } else if (word == "travel") {
      pattern.kind = MovePattern::Kind::kTravel;
    } else if (word == "capture") {
      pattern.capture = true;
    } else if (word == "check") {
      pattern.check = true;
    } else if (word.substr(0, 8) == "actions=") {
      const std::string_view range = word.substr(8);
      const size_t dash = range.find('-');
      const std::string_view from = range.substr(0, dash);
      const std::string_view to = dash == std::string_view::npos ? from : range.substr(dash + 1);
      if ((!from.empty() && !ReadBound(from, &pattern.first_action)) ||
          (!to.empty() && !ReadBound(to, &pattern.last_action)) || range.empty() ||
          pattern.first_action > pattern.last_action) {
        return TextErrorAt(text, start + 9, "actions=A-B takes action numbers from 1, A at most B");
      }
    } else {
      return bad();
    }
  }
  return pattern;
}

namespace {

// The actions with a move `pattern` matches, leaving `check` aside: all of them, or the first.
std::vector<int> MatchingActions(const MovePattern& pattern, std::string_view movetext, bool all) {
  std::vector<int> actions;
  int action = 0;
  Color mover = Color::kWhite;
  ForEachCanonicalToken(movetext, [&](std::string_view token, bool opens_action) {
    if (opens_action) {
      ++action;
      // "12." opens white's action, "12b." and "/" black's.
      mover = token == "/" || (token.size() >= 2 && token[token.size() - 2] == 'b') ? Color::kBlack
                                                                                    : Color::kWhite;
      return action <= pattern.last_action;
    }
    if (action < pattern.first_action) return true;
    if (!actions.empty() && actions.back() == action) return true;
    if (pattern.color && *pattern.color != mover) return true;
    const MoveFacts move = ReadMove(token);
    if (pattern.piece && *pattern.piece != move.piece) return true;
    if (pattern.capture && !move.capture) return true;
    switch (pattern.kind) {
      case MovePattern::Kind::kAny:
        break;
      case MovePattern::Kind::kPhysical:
        if (move.jump) return true;
        break;
      case MovePattern::Kind::kJump:
        if (!move.jump || move.branch) return true;
        break;
      case MovePattern::Kind::kBranch:
        if (!move.branch) return true;
        break;
      case MovePattern::Kind::kTravel:
        if (!move.jump) return true;
        break;
    }
    actions.push_back(action);
    return all;
  });
  return actions;
}

}  // namespace

std::vector<int> MoveActions(const MovePattern& pattern, std::string_view movetext) {
  return MatchingActions(pattern, movetext, true);
}

int FirstMoveAction(const MovePattern& pattern, std::string_view movetext,
                    std::span<const int> checking) {
  for (int action : MatchingActions(pattern, movetext, pattern.check)) {
    if (!pattern.check || std::binary_search(checking.begin(), checking.end(), action)) {
      return action;
    }
  }
  return -1;
}

std::vector<int> CheckingActions(std::string_view game_text, std::span<const int> actions) {
  std::vector<int> checking;
  if (actions.empty()) return checking;
  const SyntaxResult syntax = ParseGameSyntax(game_text);
  if (!syntax.status.ok()) return checking;
  ReplayGame(syntax.game, [&](int action, const Position& pos) {
    if (std::binary_search(actions.begin(), actions.end(), action) && InCheck(pos)) {
      checking.push_back(action);
    }
  });
  return checking;
}

}  // namespace fived
