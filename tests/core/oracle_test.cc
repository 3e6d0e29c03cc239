// Replays the public oracle set (../shared/oracle/public: 1494 random legal games written by the
// reference implementation, 5d-chess-js) and checks the full-state MD5 after every action and the
// 5DFEN of every board of the final state against oracle.jsonl.
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/pgn_syntax.h"
#include "core/position.h"
#include "core/replay.h"
#include "tests/core/test_util.h"

namespace fived {
namespace {

constexpr int kOracleGames = 1494;
constexpr int kOracleActions = 36899;
constexpr int kMaxReported = 10;  // failure messages beyond this are only counted

// The position of the value of "key" in one JSON object line, or npos.
std::size_t FindValue(std::string_view line, std::string_view key) {
  std::string quoted = "\"";
  quoted += key;
  quoted += "\":";
  const std::size_t at = line.find(quoted);
  if (at == std::string_view::npos) return at;
  std::size_t value = at + quoted.size();
  while (value < line.size() && line[value] == ' ') ++value;
  return value;
}

// The string value of "key", or nullopt. The oracle's strings hold no escapes.
std::optional<std::string> ExtractString(std::string_view line, std::string_view key) {
  const std::size_t value = FindValue(line, key);
  if (value == std::string_view::npos || value >= line.size() || line[value] != '"') {
    return std::nullopt;
  }
  const std::size_t end = line.find('"', value + 1);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(line.substr(value + 1, end - value - 1));
}

// The array of strings of "key", or nullopt when absent or not such an array.
std::optional<std::vector<std::string>> ExtractStringArray(std::string_view line,
                                                           std::string_view key) {
  std::size_t i = FindValue(line, key);
  if (i == std::string_view::npos || i >= line.size() || line[i] != '[') return std::nullopt;
  std::vector<std::string> out;
  ++i;
  while (i < line.size()) {
    const char c = line[i];
    if (c == ']') return out;
    if (c == ',' || c == ' ') {
      ++i;
    } else if (c == '"') {
      const std::size_t end = line.find('"', i + 1);
      if (end == std::string_view::npos) return std::nullopt;
      out.emplace_back(line.substr(i + 1, end - i - 1));
      i = end + 1;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// Counts problems; only the first few are worth a failure message each.
class Problems {
 public:
  // Counts one more; true while it should still be reported.
  bool Count() { return ++count_ <= kMaxReported; }
  int count() const { return count_; }

 private:
  int count_ = 0;
};

TEST(Oracle, EveryGameReplaysWithEveryHash) {
  const std::string shared = testing::SharedDir();
  if (shared.empty()) GTEST_SKIP() << "../shared is absent";
  const std::filesystem::path dir = std::filesystem::path(shared) / "oracle" / "public";
  if (!std::filesystem::is_regular_file(dir / "all.5dpgn") ||
      !std::filesystem::is_regular_file(dir / "oracle.jsonl")) {
    GTEST_SKIP() << "the oracle files are absent from " << dir;
  }
  std::ifstream games_file(dir / "all.5dpgn", std::ios::binary);
  std::ifstream oracle_file(dir / "oracle.jsonl", std::ios::binary);
  ASSERT_TRUE(games_file && oracle_file);

  GameSplitter splitter(games_file);
  Problems errors;      // games that do not replay, or oracle lines that cannot be read
  Problems mismatches;  // games that replay to other states than the reference's
  int games = 0;
  int actions = 0;
  std::string line;
  while (std::optional<RawGame> raw = splitter.Next()) {
    const int index = games++;
    if (!std::getline(oracle_file, line)) {
      if (errors.Count()) ADD_FAILURE() << "game " << index << " has no oracle line";
      continue;
    }
    const std::string file = ExtractString(line, "file").value_or("?");
    const std::optional<std::vector<std::string>> hashes = ExtractStringArray(line, "hashes");
    const std::optional<std::vector<std::string>> final_boards =
        ExtractStringArray(line, "final_boards");
    if (!hashes || hashes->empty() || !final_boards) {
      if (errors.Count()) ADD_FAILURE() << "game " << index << " (" << file << "): bad oracle line";
      continue;
    }
    actions += static_cast<int>(hashes->size()) - 1;

    const SyntaxResult syntax = ParseGameSyntax(raw->text, raw->first_line);
    if (!syntax.status.ok()) {
      if (errors.Count()) {
        ADD_FAILURE() << "game " << index << " (" << file << "): line "
                      << syntax.status.place()->line << ", col " << syntax.status.place()->column
                      << ": " << syntax.status.place()->reason;
      }
      continue;
    }
    std::vector<std::string> seen;
    const ReplayOutcome outcome = ReplayGame(syntax.game, [&](int action, const Position& pos) {
      EXPECT_EQ(action, static_cast<int>(seen.size())) << "game " << index;
      seen.push_back(pos.StateMd5());
    });
    if (!outcome.status.ok() || !outcome.replayer || !outcome.warnings.empty()) {
      if (errors.Count()) {
        ADD_FAILURE() << "game " << index << " (" << file << "): "
                      << (!outcome.status.ok() ? outcome.status.message()
                          : outcome.replayer   ? outcome.warnings.front().message()
                                               : "no replayer");
      }
      continue;
    }
    if (seen != *hashes) {
      std::size_t first = 0;
      while (first < seen.size() && first < hashes->size() && seen[first] == (*hashes)[first]) {
        ++first;
      }
      if (mismatches.Count()) {
        ADD_FAILURE() << "game " << index << " (" << file << "): " << seen.size() - 1
                      << " actions, oracle " << hashes->size() - 1
                      << "; first differing state after action " << first;
      }
      continue;
    }
    std::string expected_fen;
    for (const std::string& board : *final_boards) expected_fen += board;
    const Position& final_position = outcome.replayer->position();
    if (final_position.StateFen() != expected_fen && mismatches.Count()) {
      std::vector<std::string> boards;
      final_position.ForEachBoard([&](int timeline, int half_turn, const Board&) {
        boards.push_back(final_position.BoardFen(timeline, half_turn));
      });
      std::size_t first = 0;
      while (first < boards.size() && first < final_boards->size() &&
             boards[first] == (*final_boards)[first]) {
        ++first;
      }
      ADD_FAILURE() << "game " << index << " (" << file << "): " << boards.size()
                    << " final boards, oracle " << final_boards->size() << "; board " << first
                    << " is " << (first < boards.size() ? boards[first] : "missing") << ", oracle "
                    << (first < final_boards->size() ? (*final_boards)[first] : "missing");
    }
  }
  EXPECT_FALSE(std::getline(oracle_file, line)) << "oracle.jsonl has more lines than games";
  EXPECT_EQ(games, kOracleGames);
  EXPECT_EQ(actions, kOracleActions);
  EXPECT_EQ(errors.count(), 0);
  EXPECT_EQ(mismatches.count(), 0);
}

}  // namespace
}  // namespace fived
