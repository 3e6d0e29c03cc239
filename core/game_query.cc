// Position queries over whole games; see game_query.h.
#include "core/game_query.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <limits>

#include "core/legal.h"

namespace fived {

namespace {

constexpr int kNever = std::numeric_limits<int>::max();

size_t SkipSpaces(std::string_view text, size_t i) {
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}

// An operator at text[i]; its length in *length, 0 when there is none.
std::optional<Comparison> ReadComparison(std::string_view text, size_t i, size_t* length) {
  auto at = [&](std::string_view op) { return text.substr(i, op.size()) == op; };
  struct Op {
    std::string_view text;
    Comparison op;
  } ops[] = {{"==", Comparison::kEqual},     {"!=", Comparison::kNotEqual},
             {"<=", Comparison::kLessEqual}, {">=", Comparison::kGreaterEqual},
             {"=", Comparison::kEqual},      {"<", Comparison::kLess},
             {">", Comparison::kGreater}};
  for (const Op& op : ops) {
    if (at(op.text)) {
      *length = op.text.size();
      return op.op;
    }
  }
  *length = 0;
  return std::nullopt;
}

// A non-negative number at text[i]; its length in *length (0 when none).
int ReadNumber(std::string_view text, size_t i, size_t* length) {
  int value = 0;
  const char* begin = text.data() + i;
  const auto [end, error] = std::from_chars(begin, text.data() + text.size(), value);
  *length = error == std::errc() && value >= 0 ? static_cast<size_t>(end - begin) : 0;
  return value;
}

// The terms of a comma-separated list, each with its offset in `text`.
std::vector<std::pair<std::string_view, size_t>> Terms(std::string_view text, size_t from) {
  std::vector<std::pair<std::string_view, size_t>> terms;
  size_t start = from;
  for (size_t i = from; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == ',') {
      size_t a = SkipSpaces(text, start);
      size_t b = i;
      while (b > a && std::isspace(static_cast<unsigned char>(text[b - 1]))) --b;
      terms.emplace_back(text.substr(a, b - a), a);
      start = i + 1;
    }
  }
  return terms;
}

int CountOf(PieceSet set, const int16_t* counts_by_piece) {
  int total = 0;
  for (PieceSet rest = set & ~PieceSet{1}; rest != 0; rest &= rest - 1) {
    total += counts_by_piece[std::countr_zero(rest)];
  }
  return total;
}

}  // namespace

bool Compare(int left, Comparison op, int right) {
  switch (op) {
    case Comparison::kEqual:
      return left == right;
    case Comparison::kNotEqual:
      return left != right;
    case Comparison::kLess:
      return left < right;
    case Comparison::kLessEqual:
      return left <= right;
    case Comparison::kGreater:
      return left > right;
    case Comparison::kGreaterEqual:
      return left >= right;
  }
  return false;
}

Result<MaterialCondition> ParseMaterial(std::string_view text) {
  MaterialCondition condition;
  size_t from = SkipSpaces(text, 0);
  for (std::string_view scope : {"board:", "present:"}) {
    if (text.substr(from, scope.size()) == scope) {
      condition.present = scope == "present:";
      from += scope.size();
    }
  }
  for (const auto& [term, at] : Terms(text, from)) {
    if (term.empty()) {
      return TextErrorAt(text, at + 1, "an empty term (write SET OP NUMBER, e.g. Q>=2)");
    }
    MaterialTerm parsed;
    size_t used = 0;
    const Result<PieceSet> left = ParseSquareToken(term, at, &used);
    if (!left.ok()) {
      const Place& place = *left.error().place();
      return TextErrorAt(text, place.column, place.reason);
    }
    parsed.left = left.value() & ~PieceSet{1};
    if (parsed.left == 0) return TextErrorAt(text, at + 1, "count pieces, not empty squares");
    size_t i = SkipSpaces(term, used);
    size_t length = 0;
    const std::optional<Comparison> op = ReadComparison(term, i, &length);
    if (!op) return TextErrorAt(text, at + i + 1, "expected = != < <= > or >= after the pieces");
    parsed.op = *op;
    i = SkipSpaces(term, i + length);
    parsed.right_number = ReadNumber(term, i, &length);
    if (length == 0) {
      const Result<PieceSet> right = ParseSquareToken(term.substr(i), at + i, &length);
      if (!right.ok()) {
        return TextErrorAt(text, at + i + 1, "expected a number or pieces to compare with");
      }
      parsed.right_set = right.value() & ~PieceSet{1};
      if (parsed.right_set == 0) {
        return TextErrorAt(text, at + i + 1, "count pieces, not empty squares");
      }
    }
    i = SkipSpaces(term, i + length);
    if (i != term.size()) return TextErrorAt(text, at + i + 1, "unexpected text after the term");
    condition.terms.push_back(parsed);
  }
  return condition;
}

Result<std::vector<StateTerm>> ParseState(std::string_view text) {
  std::vector<StateTerm> terms;
  for (const auto& [term, at] : Terms(text, 0)) {
    if (term.empty()) {
      return TextErrorAt(text, at + 1, "an empty term (write e.g. timelines>=4, to-move=b)");
    }
    StateTerm parsed;
    size_t i = 0;
    while (i < term.size() &&
           (std::isalpha(static_cast<unsigned char>(term[i])) || term[i] == '-')) {
      ++i;
    }
    const std::string_view name = term.substr(0, i);
    if (name == "timelines") {
      parsed.field = StateTerm::Field::kTimelines;
    } else if (name == "active") {
      parsed.field = StateTerm::Field::kActive;
    } else if (name == "turn") {
      parsed.field = StateTerm::Field::kTurn;
    } else if (name == "to-move") {
      parsed.field = StateTerm::Field::kToMove;
    } else if (name == "check") {
      parsed.field = StateTerm::Field::kCheck;
    } else if (name == "checks") {
      parsed.field = StateTerm::Field::kChecks;
    } else {
      return TextErrorAt(
          text, at + 1,
          "'" + std::string(name) + "' is not timelines, active, turn, to-move, check or checks");
    }
    i = SkipSpaces(term, i);
    size_t length = 0;
    const std::optional<Comparison> op = ReadComparison(term, i, &length);
    if (!op) return TextErrorAt(text, at + i + 1, "expected = != < <= > or >= after the name");
    parsed.op = *op;
    i = SkipSpaces(term, i + length);
    if (parsed.field == StateTerm::Field::kToMove) {
      if (*op != Comparison::kEqual && *op != Comparison::kNotEqual) {
        return TextErrorAt(text, at + 1, "to-move takes = or != (w or b)");
      }
      const std::string_view side = term.substr(i);
      if (side != "w" && side != "b") return TextErrorAt(text, at + i + 1, "to-move is w or b");
      parsed.value = side == "w" ? 0 : 1;
    } else if (parsed.field == StateTerm::Field::kCheck) {
      if (*op != Comparison::kEqual && *op != Comparison::kNotEqual) {
        return TextErrorAt(text, at + 1, "check takes = or != (w, b or none)");
      }
      const std::string_view side = term.substr(i);
      if (side != "w" && side != "b" && side != "none") {
        return TextErrorAt(text, at + i + 1, "check is w, b or none");
      }
      parsed.value = side == "none" ? 0 : side == "w" ? 1 : 2;
    } else {
      parsed.value = ReadNumber(term, i, &length);
      if (length == 0 || i + length != term.size()) {
        return TextErrorAt(text, at + i + 1, "expected a number");
      }
    }
    terms.push_back(parsed);
  }
  return terms;
}

bool GameQuery::needs_position() const {
  return std::any_of(state.begin(), state.end(), [](const StateTerm& t) {
    return t.field == StateTerm::Field::kCheck || t.field == StateTerm::Field::kChecks;
  });
}

bool HoldsAt(const GameQuery& query, const Position& pos) {
  int active = 0;
  int16_t present_counts[64] = {};
  for (int t = pos.min_timeline(); t <= pos.max_timeline(); ++t) {
    if (!pos.HasTimeline(t) || !pos.IsActive(t)) continue;
    ++active;
    const Board& tip = pos.Tip(t);
    for (int rank = 0; rank < tip.height(); ++rank) {
      for (int file = 0; file < tip.width(); ++file)
        ++present_counts[tip.at(file, rank).bits() & 63];
    }
  }
  for (const StateTerm& term : query.state) {
    int value = 0;
    switch (term.field) {
      case StateTerm::Field::kTimelines:
        value = pos.timeline_count();
        break;
      case StateTerm::Field::kActive:
        value = active;
        break;
      case StateTerm::Field::kTurn:
        value = TurnOf(pos.Present());
        break;
      case StateTerm::Field::kToMove:
        value = pos.ToMove() == Color::kWhite ? 0 : 1;
        break;
      case StateTerm::Field::kCheck:
        value = !InCheck(pos) ? 0 : pos.ToMove() == Color::kWhite ? 1 : 2;
        break;
      case StateTerm::Field::kChecks:
        value = BoardsInCheck(Checks(pos));
        break;
    }
    if (!Compare(value, term.op, term.value)) return false;
  }
  for (const MaterialCondition& condition : query.material) {
    if (!condition.present) continue;
    for (const MaterialTerm& term : condition.terms) {
      const int right =
          term.right_set ? CountOf(term.right_set, present_counts) : term.right_number;
      if (!Compare(CountOf(term.left, present_counts), term.op, right)) return false;
    }
  }
  return true;
}

Status CheckGameQuery(const GameQuery& query) {
  if (!query.boards.empty() && query.boards.front().relative()) {
    return Status::InvalidArgument(
        "the first pattern's pins cannot be relative ('='): there is no pattern before it");
  }
  return Status();
}

namespace {

// What a game's evaluation keeps, per thread: nothing is allocated once a game as large was
// read.
struct Scratch {
  std::vector<int16_t> misses;  // board * patterns + p
  std::vector<int16_t> counts;  // board * 64 + piece byte (only with material)
  std::vector<int> half;        // board -> half-turn (only with conditions on the state)
  std::vector<std::vector<PatternHit>> matches;  // per pattern (every match, with relations)
  std::vector<uint8_t> state_ok;                 // per action: the state conditions held
  std::vector<int> tips[2];  // timeline t >= 0 at [0][t], t < 0 at [1][-t-1]: its last board
};

int& Slot(std::vector<int> (&sides)[2], int timeline) {
  std::vector<int>& side = sides[timeline < 0 ? 1 : 0];
  const size_t i = static_cast<size_t>(timeline < 0 ? -timeline - 1 : timeline);
  if (i >= side.size()) side.resize(i + 1, -1);
  return side[i];
}

bool Related(const BoardPattern& pattern, const PatternHit& before, const PatternHit& hit) {
  if (pattern.timeline_offset && hit.timeline != before.timeline + *pattern.timeline_offset) {
    return false;
  }
  if (pattern.turn_offset &&
      TurnOf(hit.half_turn) != TurnOf(before.half_turn) + *pattern.turn_offset) {
    return false;
  }
  if (pattern.same_color && ColorOf(hit.half_turn) != ColorOf(before.half_turn)) return false;
  return true;
}

// The constrained squares of entry's board that pattern p (of `patterns`) does not accept: a
// whole board's counted, a changed board's from its parent's count in `misses` (board *
// patterns
// + p), the changed squares only.
inline int Missing(const BoardPattern& pattern, const BoardStreamReader::Entry& entry,
                   const int16_t* misses, size_t patterns, size_t p) {
  int missing = 0;
  if (entry.whole) {
    for (uint16_t i : pattern.constrained) missing += !pattern.Accepts(i, entry.whole[i]);
    return missing;
  }
  missing = misses[static_cast<size_t>(entry.parent) * patterns + p];
  for (int c = 0; c < entry.change_count; ++c) {
    const BoardStreamReader::Change& change = entry.changes[c];
    missing += static_cast<int>(pattern.Accepts(change.square, change.before)) -
               static_cast<int>(pattern.Accepts(change.square, change.after));
  }
  return missing;
}

// MatchGame for board patterns without relations, nothing else asked: each board's misses from
// its parent's, and the first match of the last pattern still missing is the answer.
// kPatterns: the number of patterns when known at compile time (1), 0 otherwise.
template <size_t kPatterns>
bool MatchUnrelated(const GameQuery& query, BoardStreamReader& reader, int16_t* misses,
                    GameMatch* match) {
  const size_t patterns = kPatterns ? kPatterns : query.boards.size();
  size_t hit_patterns = 0;
  bool found = false;
  const bool read = reader.Read([&](const BoardStreamReader::Entry& entry) {
    for (size_t p = 0; p < patterns; ++p) {
      const BoardPattern& pattern = query.boards[p];
      const int missing = Missing(pattern, entry, misses, patterns, p);
      misses[static_cast<size_t>(entry.index) * patterns + p] = static_cast<int16_t>(missing);
      if (missing != 0 || match->boards[p].board >= 0 ||
          !pattern.PinsAccept(reader.labeling(), entry.timeline, entry.half_turn)) {
        continue;
      }
      match->boards[p] = PatternHit{entry.index, entry.timeline, entry.half_turn, entry.action};
      ++hit_patterns;
    }
    if (hit_patterns < patterns) return true;
    // Boards come in the order of their actions: this one's is the latest of the hits.
    match->action = entry.action;
    found = true;
    return false;
  });
  if (!found) match->action = -1;
  return read;
}

// The earliest action at which every pattern has a match related to the previous pattern's as
// its pins say, and those matches; kNever when there is no such chain. reach[m] of a match of
// pattern p: the earliest action at which a chain of patterns 0..p ends on it.
int ChainAction(const GameQuery& query, const std::vector<std::vector<PatternHit>>& matches,
                std::vector<PatternHit>* chain) {
  const size_t patterns = query.boards.size();
  std::vector<std::vector<int>> reach(patterns), from(patterns);
  for (size_t p = 0; p < patterns; ++p) {
    reach[p].assign(matches[p].size(), kNever);
    from[p].assign(matches[p].size(), -1);
    for (size_t m = 0; m < matches[p].size(); ++m) {
      const PatternHit& hit = matches[p][m];
      if (p == 0) {
        reach[p][m] = hit.action;
        continue;
      }
      for (size_t q = 0; q < matches[p - 1].size(); ++q) {
        if (reach[p - 1][q] == kNever) continue;
        if (query.boards[p].relative() && !Related(query.boards[p], matches[p - 1][q], hit)) {
          continue;
        }
        const int action = std::max(reach[p - 1][q], hit.action);
        if (action < reach[p][m]) {
          reach[p][m] = action;
          from[p][m] = static_cast<int>(q);
        }
      }
    }
  }
  int best = kNever, end = -1;
  for (size_t m = 0; m < matches[patterns - 1].size(); ++m) {
    if (reach[patterns - 1][m] < best) {
      best = reach[patterns - 1][m];
      end = static_cast<int>(m);
    }
  }
  if (end < 0) return kNever;
  chain->assign(patterns, PatternHit{});
  for (size_t p = patterns; p-- > 0;) {
    (*chain)[p] = matches[p][static_cast<size_t>(end)];
    end = from[p][static_cast<size_t>(end)];
  }
  return best;
}

}  // namespace

bool MatchGame(const GameQuery& query, std::string_view stream, BoardStreamReader& reader,
               GameMatch* match) {
  match->action = -1;
  match->boards.assign(query.boards.size(), PatternHit{});
  if (!reader.Start(stream)) return false;
  const int width = reader.width();
  const int height = reader.height();
  for (const BoardPattern& pattern : query.boards) {
    if (pattern.width != width || pattern.height != height) return true;  // cannot match
  }
  thread_local Scratch s;
  const size_t patterns = query.boards.size();
  const bool relations = std::any_of(query.boards.begin(), query.boards.end(),
                                     [](const BoardPattern& p) { return p.relative(); });
  const bool with_material = !query.material.empty();
  const bool with_state =
      !query.state.empty() || std::any_of(query.material.begin(), query.material.end(),
                                          [](const MaterialCondition& m) { return m.present; });
  const size_t boards = static_cast<size_t>(reader.board_count());
  s.misses.resize(boards * std::max<size_t>(patterns, 1));
  if (with_material) s.counts.assign(boards * 64, 0);
  if (with_state) s.half.resize(boards);
  s.matches.resize(patterns);
  for (auto& m : s.matches) m.clear();
  s.state_ok.clear();
  for (auto& side : s.tips) std::fill(side.begin(), side.end(), -1);
  // The first board each board-scope material condition held on (its action).
  int board_material = query.material.empty() ? 0 : kNever;
  size_t hit_patterns = 0;  // patterns with a match so far
  int initial_min = 0, initial_max = -1, min_timeline = 0, max_timeline = -1;
  bool any_board = false;
  int current = 0;  // the action whose boards are being read

  // Whether the conditions on the state hold after the boards read so far.
  auto state_holds = [&]() {
    int timelines = 0, active = 0, present = kNever;
    int16_t present_counts[64] = {};
    const int white_created = max_timeline - initial_max;
    const int black_created = initial_min - min_timeline;
    for (int t = min_timeline; t <= max_timeline; ++t) {
      const int tip = Slot(s.tips, t);
      if (tip < 0) continue;
      ++timelines;
      // The n-th timeline a player created is active while the other created at least n - 1.
      const bool is_active = t > initial_max   ? t - initial_max <= black_created + 1
                             : t < initial_min ? initial_min - t <= white_created + 1
                                               : true;
      if (!is_active) continue;
      ++active;
      // The present is the earliest tip among active timelines; its boards are those tips.
      present = std::min(present, s.half[static_cast<size_t>(tip)]);
      if (with_material) {
        for (int p = 0; p < 64; ++p) {
          present_counts[p] =
              static_cast<int16_t>(present_counts[p] + s.counts[static_cast<size_t>(tip) * 64 + p]);
        }
      }
    }
    for (const StateTerm& term : query.state) {
      int value = 0;
      switch (term.field) {
        case StateTerm::Field::kTimelines:
          value = timelines;
          break;
        case StateTerm::Field::kActive:
          value = active;
          break;
        case StateTerm::Field::kTurn:
          value = TurnOf(present);
          break;
        case StateTerm::Field::kToMove:
          value = ColorOf(present) == Color::kWhite ? 0 : 1;
          break;
        case StateTerm::Field::kCheck:
        case StateTerm::Field::kChecks:
          continue;  // not in the stream: HoldsAt decides it on the replayed position
      }
      if (!Compare(value, term.op, term.value)) return false;
    }
    for (const MaterialCondition& condition : query.material) {
      if (!condition.present) continue;
      for (const MaterialTerm& term : condition.terms) {
        const int left = CountOf(term.left, present_counts);
        const int right =
            term.right_set ? CountOf(term.right_set, present_counts) : term.right_number;
        if (!Compare(left, term.op, right)) return false;
      }
    }
    return true;
  };
  // Without relations, the action of a state where everything holds ends the reading.
  auto everything_by = [&](int action) {
    if (relations || hit_patterns < patterns || board_material > action) return false;
    for (const PatternHit& hit : match->boards) {
      if (hit.action > action) return false;
    }
    return true;
  };
  auto finish_state = [&]() {
    if (!with_state) return false;
    s.state_ok.push_back(state_holds() ? 1 : 0);
    if (s.state_ok.back() && everything_by(current)) {
      match->action = current;
      return true;
    }
    return false;
  };

  // Board patterns alone, unrelated (the common search, one pattern the most common of all).
  if (!relations && !with_material && !with_state) {
    return patterns == 1 ? MatchUnrelated<1>(query, reader, s.misses.data(), match)
                         : MatchUnrelated<0>(query, reader, s.misses.data(), match);
  }

  bool stopped = false;
  const bool read = reader.Read([&](const BoardStreamReader::Entry& entry) {
    const size_t board = static_cast<size_t>(entry.index);
    // A board of the next action: the state after the previous one is complete.
    while (entry.action > current) {
      if (finish_state()) {
        stopped = true;
        return false;
      }
      ++current;
    }
    if (!any_board || entry.timeline < min_timeline) min_timeline = entry.timeline;
    if (!any_board || entry.timeline > max_timeline) max_timeline = entry.timeline;
    any_board = true;
    if (entry.action == 0) {
      initial_min = min_timeline;
      initial_max = max_timeline;
    }
    if (with_state) {
      s.half[board] = entry.half_turn;
      Slot(s.tips, entry.timeline) = static_cast<int>(board);
    }
    if (with_material) {
      int16_t* counts = &s.counts[board * 64];
      if (entry.whole) {
        for (int i = 0; i < width * height; ++i) ++counts[entry.whole[i] & 63];
      } else {
        std::copy_n(&s.counts[static_cast<size_t>(entry.parent) * 64], 64, counts);
        for (int c = 0; c < entry.change_count; ++c) {
          --counts[entry.changes[c].before & 63];
          ++counts[entry.changes[c].after & 63];
        }
      }
      if (board_material == kNever) {
        bool holds = true;
        for (const MaterialCondition& condition : query.material) {
          if (condition.present) continue;
          for (const MaterialTerm& term : condition.terms) {
            const int right = term.right_set ? CountOf(term.right_set, counts) : term.right_number;
            holds = holds && Compare(CountOf(term.left, counts), term.op, right);
          }
        }
        if (holds) board_material = entry.action;
      }
    }
    for (size_t p = 0; p < patterns; ++p) {
      const BoardPattern& pattern = query.boards[p];
      const int missing = Missing(pattern, entry, s.misses.data(), patterns, p);
      s.misses[board * patterns + p] = static_cast<int16_t>(missing);
      if (missing != 0 || !pattern.PinsAccept(reader.labeling(), entry.timeline, entry.half_turn)) {
        continue;
      }
      const PatternHit hit{entry.index, entry.timeline, entry.half_turn, entry.action};
      if (relations) {
        s.matches[p].push_back(hit);
      } else if (match->boards[p].board < 0) {
        match->boards[p] = hit;
        ++hit_patterns;
      }
    }
    // Board patterns alone: the first match of the last pattern still missing is the answer.
    if (!with_state && everything_by(entry.action)) {
      match->action = entry.action;
      for (const PatternHit& hit : match->boards)
        match->action = std::max(match->action, hit.action);
      match->action = std::max(match->action, board_material);
      stopped = true;
      return false;
    }
    return true;
  });
  if (stopped) return true;
  if (!read) return false;
  if (with_state && finish_state()) return true;
  // What holds at the end holds from some action on: the patterns' (chain's) and the board
  // material's action, then the first state from there where the state conditions held.
  int from = board_material;
  if (patterns > 0) {
    if (relations) {
      std::vector<PatternHit> chain;
      const int chained = ChainAction(query, s.matches, &chain);
      if (chained == kNever) return true;
      match->boards = chain;
      from = std::max(from, chained);
    } else {
      if (hit_patterns < patterns) return true;
      for (const PatternHit& hit : match->boards) from = std::max(from, hit.action);
    }
  }
  if (from == kNever) return true;
  if (!with_state) {
    match->action = from;
    return true;
  }
  for (size_t a = static_cast<size_t>(from); a < s.state_ok.size(); ++a) {
    if (s.state_ok[a]) {
      match->action = static_cast<int>(a);
      return true;
    }
  }
  return true;
}

}  // namespace fived
