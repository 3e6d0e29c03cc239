// Board streams (core/board_stream.h): every board of random games of every default variant read
// back with its coordinates, content and action; the features; and damaged streams read safely.
#include "core/board_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "core/game_query.h"
#include "tests/support/random_game.h"
#include "tests/support/random_positions.h"

namespace fived {
namespace {

struct Replayed {
  Position position;
  std::vector<size_t> boards_after;
};

std::vector<Replayed> RandomGames(int count, uint64_t seed) {
  CollectionOptions options;
  options.seed = seed;
  options.min_actions = 4;
  options.max_actions = 40;
  options.jump_bias = 0.5;
  std::vector<Replayed> games;
  std::vector<size_t> boards_after;
  const std::string error = ForEachRandomPosition(
      options, count, [&](const RandomGameReplay& game, const Position& pos, size_t action) {
        boards_after.push_back(pos.board_count());
        if (action < game.replayer.actions().size()) return;
        games.push_back({game.replayer.position(), std::move(boards_after)});
        boards_after.clear();
      });
  EXPECT_EQ(error, "");
  return games;
}

TEST(BoardStreamTest, EveryBoardReadsBackWhereAndWhenItWasAdded) {
  const std::vector<Replayed> games = RandomGames(56, 7);
  ASSERT_GE(games.size(), 50u);
  BoardStreamReader reader;
  size_t branches = 0;
  for (const Replayed& game : games) {
    std::string stream;
    std::vector<uint32_t> features;
    EncodeBoardStream(game.position, game.boards_after, &stream, &features);
    ASSERT_TRUE(reader.Start(stream, /*keep_squares=*/true));
    const Position& pos = game.position;
    EXPECT_EQ(reader.width(), pos.width());
    EXPECT_EQ(reader.height(), pos.height());
    EXPECT_EQ(reader.labeling().even, pos.labeling().even);
    ASSERT_EQ(reader.board_count(), static_cast<int>(pos.board_count()));
    std::vector<BoardStreamReader::Entry> entries;
    ASSERT_TRUE(reader.Read([&](const BoardStreamReader::Entry& entry) {
      entries.push_back(entry);
      return true;
    }));
    EXPECT_TRUE(reader.Done());
    EXPECT_FALSE(reader.Damaged());
    ASSERT_EQ(entries.size(), pos.board_count());
    // Read again a few boards at a time (visit stopping, Read resuming): the same entries.
    BoardStreamReader piecewise;
    ASSERT_TRUE(piecewise.Start(stream));
    size_t resumed = 0;
    for (int call = 0; !piecewise.Done(); ++call) {
      ASSERT_LT(call, reader.board_count() + 1);
      int taken = 0;
      ASSERT_TRUE(piecewise.Read([&](const BoardStreamReader::Entry& entry) {
        const BoardStreamReader::Entry& whole = entries[resumed++];
        EXPECT_EQ(entry.index, whole.index);
        EXPECT_EQ(entry.timeline, whole.timeline);
        EXPECT_EQ(entry.half_turn, whole.half_turn);
        EXPECT_EQ(entry.action, whole.action);
        EXPECT_EQ(entry.parent, whole.parent);
        EXPECT_EQ(entry.change_count, whole.change_count);
        return ++taken < 1 + call % 3;
      }));
    }
    EXPECT_EQ(resumed, entries.size());
    std::set<uint32_t> expected_features;
    int index = 0;
    pos.ForEachBoardInOrder([&](int timeline, int half_turn, uint64_t) {
      const BoardStreamReader::Entry& entry = entries[static_cast<size_t>(index)];
      EXPECT_EQ(entry.index, index);
      EXPECT_EQ(entry.timeline, timeline);
      EXPECT_EQ(entry.half_turn, half_turn);
      // The action that added it: the first state whose board count exceeds its index.
      int action = 0;
      while (action < static_cast<int>(game.boards_after.size()) &&
             static_cast<size_t>(index) >= game.boards_after[action]) {
        ++action;
      }
      EXPECT_EQ(entry.action, action) << "board " << index;
      const Board& board = *pos.BoardAt(timeline, half_turn);
      const uint8_t* squares = reader.Squares(index);
      for (int rank = 0; rank < pos.height(); ++rank) {
        for (int file = 0; file < pos.width(); ++file) {
          const uint8_t piece = board.at(file, rank).bits();
          ASSERT_EQ(squares[rank * pos.width() + file], piece)
              << "board " << index << " square " << file << "," << rank;
          if (piece != 0) {
            expected_features.insert(
                PieceFeature(pos.width(), pos.height(), rank * pos.width() + file, piece));
          }
        }
      }
      if (entry.parent >= 0) {
        // The changed squares are exactly those that differ from the parent.
        const uint8_t* parent = reader.Squares(entry.parent);
        int differing = 0;
        for (int s = 0; s < pos.width() * pos.height(); ++s) differing += parent[s] != squares[s];
        EXPECT_EQ(entry.change_count, differing);
        for (int c = 0; c < entry.change_count; ++c) {
          EXPECT_EQ(entry.changes[c].before, parent[entry.changes[c].square]);
          EXPECT_EQ(entry.changes[c].after, squares[entry.changes[c].square]);
        }
      }
      if (entry.parent >= 0 && pos.BoardAt(timeline, half_turn - 1) == nullptr) ++branches;
      EXPECT_EQ(reader.IndexAt(timeline, half_turn), index);
      ++index;
    });
    EXPECT_EQ(std::set<uint32_t>(features.begin(), features.end()), expected_features);
    // The features read back from the stream alone (as a merge copies a game) are the same.
    std::vector<uint32_t> read_back;
    BoardStreamReader other;
    ASSERT_TRUE(BoardStreamFeatures(stream, other, &read_back));
    EXPECT_EQ(std::set<uint32_t>(read_back.begin(), read_back.end()), expected_features);
  }
  EXPECT_GT(branches, 20u) << "the games should branch (jump_bias)";
}

TEST(BoardStreamTest, DamagedStreamsReadSafely) {
  const std::vector<Replayed> games = RandomGames(14, 3);
  BoardStreamReader reader;
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  for (const Replayed& game : games) {
    std::string stream;
    EncodeBoardStream(game.position, game.boards_after, &stream);
    // Every prefix: read to the end or to the damage, never past the data.
    for (size_t length = 0; length < stream.size(); ++length) {
      const std::string cut = stream.substr(0, length);
      if (!reader.Start(cut, length % 2 == 0)) continue;
      const bool read = reader.Read([](const BoardStreamReader::Entry&) { return true; });
      EXPECT_NE(read, reader.Damaged());
      EXPECT_TRUE(reader.Damaged() || reader.Done());
    }
    // Random bytes changed.
    for (int trial = 0; trial < 200; ++trial) {
      std::string changed = stream;
      for (int k = 0; k < 3; ++k) changed[next() % changed.size()] = static_cast<char>(next());
      if (!reader.Start(changed, trial % 2 == 0)) continue;
      int read = 0;
      reader.Read([&](const BoardStreamReader::Entry&) { return ++read <= reader.board_count(); });
      EXPECT_LE(read, reader.board_count());
    }
  }
}

// A whole query (patterns with relations, material, the state) matched on damaged streams answers
// or calls the stream damaged: it never reads past the data nor trusts a damaged parent.
TEST(BoardStreamTest, QueriesOnDamagedStreamsNeverCrash) {
  const std::vector<Replayed> games = RandomGames(14, 5);
  GameQuery query;
  std::string any;
  for (int rank = 0; rank < 7; ++rank) any += std::string(8, '?') + "/";
  for (const std::string& text :
       {any + "!???????", any + "????????:=:=+1:=", any + "A???????:*:*:*"}) {
    Result<BoardPattern> parsed = ParseBoardPattern(text);
    ASSERT_TRUE(parsed.ok()) << text;
    query.boards.push_back(std::move(parsed).value());
  }
  query.material.push_back(ParseMaterial("present: A>=1").value());
  query.material.push_back(ParseMaterial("board: !<=32").value());
  query.state = ParseState("timelines>=1").value();
  BoardStreamReader reader;
  GameMatch match;
  uint64_t state = 99;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  int matched = 0;
  for (const Replayed& game : games) {
    std::string stream;
    EncodeBoardStream(game.position, game.boards_after, &stream);
    ASSERT_TRUE(MatchGame(query, stream, reader, &match));
    matched += match.action >= 0;
    for (int trial = 0; trial < 300; ++trial) {
      std::string changed = stream;
      for (int k = 0; k < 1 + trial % 4; ++k) {
        changed[next() % changed.size()] = static_cast<char>(next());
      }
      if (trial % 5 == 0) changed.resize(next() % changed.size());
      MatchGame(query, changed, reader, &match);
      EXPECT_GE(match.action, -1);
    }
  }
  EXPECT_GT(matched, 0);
}

}  // namespace
}  // namespace fived
