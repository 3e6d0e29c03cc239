// Exports (query/export.h through WriteGames' 5dpgn output and ExportUnique) read back game for
// game: a collection is indexed by the 5d-index binary, exported in each form, the export indexed
// again, and every game compared with the one it was written from (final state, actions,
// variant, headers, result), in the order written. The collections: generated games dressed in
// odd ways by a seeded RNG (no headers, no result, headers only, odd Result values, escaped and
// UTF-8 header values, comments, CRLF and CR line ends, several files), a few texts made by hand
// for the cases that random dressing does not reach, and, when ../shared is present, the public
// corpus and the oracle games.
#include "query/export.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/pgn_syntax.h"
#include "query/duplicates.h"
#include "query/find.h"
#include "tests/query/query_test_util.h"
#include "tests/support/random_game.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::RunIndexer;
using ::fived::testing::TempDir;

using Headers = std::vector<std::pair<std::string, std::string>>;

// What must survive an export, of one game.
struct Facts {
  int64_t id = 0;
  std::string variant, result, final_md5;
  int actions = 0;
  Headers headers;
  bool starts_with_header = false;  // its text's first visible byte is '[' (after a BOM)
};

Result<GameStore> Open(const std::string& path) { return GameStore::Open(path); }

// Every game of `store`, in id order.
std::vector<Facts> AllGames(GameStore& store) {
  std::vector<Facts> games;
  Result<Statement> ids = store.db().Prepare("SELECT id FROM games ORDER BY id");
  EXPECT_TRUE(ids.ok());
  if (!ids.ok()) return games;
  while (true) {
    Result<StepResult> step = ids.value().Step();
    EXPECT_TRUE(step.ok());
    if (!step.ok() || step.value() != StepResult::kRow) break;
    const int64_t id = ids.value().Int64(0);
    Result<std::optional<GameRow>> row = store.Row(id);
    Result<GameTexts> texts = store.Texts(id);
    EXPECT_TRUE(row.ok() && row.value() && texts.ok());
    if (!row.ok() || !row.value() || !texts.ok()) break;
    Facts facts;
    facts.id = id;
    facts.variant = row.value()->variant;
    facts.result = row.value()->result;
    facts.final_md5 = row.value()->final_md5;
    facts.actions = row.value()->actions;
    // The headers as the indexer reads them (GameStore::Headers reads only the lines that
    // start with '[', so not those of a text that starts with a byte-order mark).
    for (const Header& header : ParseGameSyntax(texts.value().text).game.headers) {
      facts.headers.emplace_back(header.name, header.value);
    }
    std::string_view text = texts.value().text;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    const size_t first = text.find_first_not_of(" \t\r\n\v\f");
    facts.starts_with_header = first != std::string::npos && text[first] == '[';
    games.push_back(std::move(facts));
  }
  return games;
}

// Indexes `text` as DIR/NAME.5dpgn into DIR/NAME.sqlite and returns its games; every game of the
// export must be indexed (none rejected).
std::vector<Facts> ReadBack(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string input = dir.File(name + ".5dpgn");
  std::ofstream(input, std::ios::binary) << text;
  const int status = RunIndexer(dir.File(name + ".sqlite"), {input});
  EXPECT_EQ(status, 0) << name << ": 5d-index rejected games of the export (or failed)";
  Result<GameStore> store = Open(dir.File(name + ".sqlite"));
  EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error().message());
  if (!store.ok()) return {};
  return AllGames(store.value());
}

// `written` (games of the first database, in the order exported) against `read` (the export
// indexed). A game whose text did not start with a header line gains the Board header naming
// its variant; nothing else may change.
void ExpectSameGames(const std::vector<Facts>& written, const std::vector<Facts>& read,
                     const std::string& what) {
  ASSERT_EQ(written.size(), read.size()) << what << ": games written and read back";
  int failures = 0;
  for (size_t i = 0; i < written.size() && failures < 5; ++i) {
    const Facts& w = written[i];
    const Facts& r = read[i];
    Headers headers = w.headers;
    if (!w.starts_with_header) headers.insert(headers.begin(), {"Board", w.variant});
    const bool same = w.variant == r.variant && w.result == r.result &&
                      w.final_md5 == r.final_md5 && w.actions == r.actions && headers == r.headers;
    EXPECT_TRUE(same) << what << ": game " << i + 1 << " of the export (id " << w.id << ")";
    if (same) continue;
    ++failures;
    EXPECT_EQ(w.variant, r.variant);
    EXPECT_EQ(w.result, r.result);
    EXPECT_EQ(w.final_md5, r.final_md5);
    EXPECT_EQ(w.actions, r.actions);
    EXPECT_EQ(headers, r.headers);
  }
}

// Exports the games of DIR/NAME.sqlite in each form (original and canonical in `order`, a
// permutation of their ids' places, and the unique collection), indexes each export and compares.
// Returns the number of games each export wrote: original, canonical, unique.
std::vector<size_t> ExpectExportsReadBack(const TempDir& dir, const std::string& name,
                                          const std::vector<size_t>& order = {}) {
  Result<GameStore> opened = Open(dir.File(name + ".sqlite"));
  EXPECT_TRUE(opened.ok()) << (opened.ok() ? "" : opened.error().message());
  if (!opened.ok()) return {};
  GameStore& store = opened.value();
  const std::vector<Facts> games = AllGames(store);
  std::vector<Facts> ordered;
  std::vector<FoundGame> found;
  for (size_t i = 0; i < games.size(); ++i) {
    const Facts& facts = games[order.empty() ? i : order[i]];
    ordered.push_back(facts);
    Result<std::optional<GameRow>> row = store.Row(facts.id);
    EXPECT_TRUE(row.ok() && row.value());
    if (!row.ok() || !row.value()) return {};
    found.push_back({*row.value(), -1, {}});
  }
  std::vector<size_t> counts;
  for (const bool canonical : {false, true}) {
    const std::string what = name + (canonical ? " --canonical" : " --format 5dpgn");
    std::ostringstream out;
    const Status error = WriteGames(store, found, OutputFormat::kPgn, false, canonical, out);
    EXPECT_TRUE(error.ok()) << what << ": " << error.message();
    ExpectSameGames(
        ordered, ReadBack(dir, name + (canonical ? "-canonical" : "-original"), out.str()), what);
    counts.push_back(found.size());
  }
  Result<std::vector<DuplicateGroup>> groups = FindDuplicates(store, DuplicateOptions());
  EXPECT_TRUE(groups.ok());
  if (!groups.ok()) return counts;
  std::ostringstream out;
  std::vector<int64_t> ids;
  Result<int> written = ExportUnique(store, groups.value(), out, {}, &ids);
  EXPECT_TRUE(written.ok());
  if (!written.ok()) return counts;
  EXPECT_EQ(static_cast<size_t>(written.value()), ids.size());
  std::vector<Facts> unique;
  for (int64_t id : ids) {
    auto it = std::find_if(games.begin(), games.end(), [&](const Facts& f) { return f.id == id; });
    EXPECT_NE(it, games.end());
    if (it != games.end()) unique.push_back(*it);
  }
  ExpectSameGames(unique, ReadBack(dir, name + "-unique", out.str()), name + " --export-unique");
  counts.push_back(unique.size());
  return counts;
}

// --- Generated collections ---------------------------------------------------------------------

// A generated game taken apart: its variant and its movetext without result.
struct Played {
  std::string variant;
  std::string movetext;  // turn lines, each ending with '\n'; empty when no action was found
};

Played TakeApart(const std::string& text) {
  Played played;
  const size_t board = text.find("[Board \"");
  if (board != std::string::npos) {
    const size_t start = board + 8;
    played.variant = text.substr(start, text.find('"', start) - start);
  }
  const size_t body = text.find("\n\n");
  std::string movetext = body == std::string::npos ? "" : text.substr(body + 2);
  // Drop the result "*", the blank line after it and the space before it.
  while (!movetext.empty() &&
         (movetext.back() == '\n' || movetext.back() == '*' || movetext.back() == ' ')) {
    movetext.pop_back();
  }
  if (!movetext.empty()) movetext += '\n';
  played.movetext = movetext;
  return played;
}

// Dresses generated games in the ways real collections do. Everything depends on the seed.
class Dresser {
 public:
  explicit Dresser(uint64_t seed) : rng_(seed) {}

  // One game's text (without the blank line after it): headers or none, comments, a result token
  // or none, the given line ends. `standard` games may go without headers.
  std::string Dress(const Played& played) {
    const int kind = static_cast<int>(rng_.Below(10));
    const bool headerless = played.variant == "Standard" && kind < 4;
    const bool header_only = !headerless && kind == 9;
    std::string text;
    if (!headerless) text += Headers(played.variant);
    if (!header_only && !played.movetext.empty()) {
      if (!text.empty() && rng_.Chance(0.8)) text += '\n';
      text += Movetext(played.movetext);
    } else if (header_only && rng_.Chance(0.3)) {
      text += Result() + "\n";  // a result and nothing else
    }
    if (text.empty()) text = "[Board \"" + played.variant + "\"]\n";
    const uint32_t ends = rng_.Below(10);
    if (ends == 0) return Replace(text, "\n", "\r\n");
    if (ends == 1 && text.find('{') == std::string::npos) return Replace(text, "\n", "\r");
    return text;
  }

  uint32_t Below(uint32_t n) { return rng_.Below(n); }
  bool Chance(double p) { return rng_.Chance(p); }

 private:
  static std::string Replace(std::string text, std::string_view from, std::string_view to) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text.compare(i, from.size(), from) == 0) {
        out += to;
        i += from.size() - 1;
      } else {
        out += text[i];
      }
    }
    return out;
  }

  std::string Result() {
    static constexpr const char* kResults[] = {"1-0", "0-1", "1/2-1/2", "*"};
    return kResults[rng_.Below(4)];
  }

  // A header value: plain, escaped quotes and backslashes, UTF-8, brackets and braces.
  std::string Value() {
    static constexpr const char* kPieces[] = {"Ann",
                                              "Bob Smith",
                                              "\\\"quoted\\\"",
                                              "back\\\\slash",
                                              "caf\xC3\xA9",
                                              "\xE6\xBC\xA2\xE5\xAD\x97",
                                              "\xF0\x9F\x98\x80",
                                              "[x]",
                                              "{not a comment}",
                                              "a/b",
                                              "2021.03.??",
                                              " ",
                                              "1-0",
                                              "(0T1)e3"};
    std::string value;
    const uint32_t pieces = rng_.Below(4);
    for (uint32_t i = 0; i < pieces; ++i) value += kPieces[rng_.Below(std::size(kPieces))];
    return value;
  }

  std::string Headers(const std::string& variant) {
    static constexpr const char* kNames[] = {"Event", "Site", "Date",  "Round",    "White",
                                             "Black", "Mode", "white", "Annotator"};
    static constexpr const char* kOddResults[] = {
        "1-0", "0-1", "1/2-1/2", "*", "Stuck looking for legal moves", "1-0 (time)", "", "0-1 {x}"};
    std::vector<std::string> lines;
    const uint32_t count = rng_.Below(5);
    for (uint32_t i = 0; i < count; ++i) {
      lines.push_back(std::string("[") + kNames[rng_.Below(std::size(kNames))] + " \"" + Value() +
                      "\"]");
    }
    if (rng_.Chance(0.6)) {
      lines.push_back(std::string("[Result \"") + kOddResults[rng_.Below(std::size(kOddResults))] +
                      "\"]");
    }
    if (variant != "Standard" || rng_.Chance(0.5)) {
      lines.insert(lines.begin() + rng_.Below(static_cast<uint32_t>(lines.size()) + 1),
                   "[Board \"" + variant + "\"]");
    }
    std::string text;
    for (size_t i = 0; i < lines.size(); ++i) {
      text += lines[i];
      // Sometimes two headers share a line.
      text += i + 1 < lines.size() && rng_.Chance(0.2) ? " " : "\n";
    }
    return text;
  }

  // The movetext with comments between tokens (some over several lines, hiding '[' and blank
  // lines), a result token or none, and comments after it.
  std::string Movetext(const std::string& movetext) {
    static constexpr const char* kComments[] = {
        "{1:23}", "{good}", "{a\n[not a header]\n}", "{over\n\nlines}", "{\"}", "{(}"};
    std::string out;
    size_t i = 0;
    while (i < movetext.size()) {
      const size_t end = movetext.find_first_of(" \n", i);
      out += movetext.substr(i, end - i + 1);
      i = end + 1;
      if (rng_.Chance(0.06)) {
        out += kComments[rng_.Below(std::size(kComments))];
        out += ' ';
      }
    }
    if (rng_.Chance(0.5)) {
      out.pop_back();
      out += ' ' + Result() + '\n';
    }
    if (rng_.Chance(0.15)) out += "{the end}\n";
    return out;
  }

  GameRng rng_;
};

TEST(Export, GeneratedCollectionsReadBackGameForGame) {
  TempDir dir;
  CollectionOptions standard_options;
  standard_options.seed = 7;
  standard_options.min_actions = 2;
  standard_options.max_actions = 12;
  standard_options.variants = {"Standard"};
  CollectionOptions mixed_options = standard_options;
  mixed_options.variants = DefaultCollectionVariants();
  CollectionGenerator standard;
  CollectionGenerator mixed;
  ASSERT_EQ(standard.Init(standard_options), "");
  ASSERT_EQ(mixed.Init(mixed_options), "");

  Dresser dresser(20261123);
  std::vector<std::string> inputs;
  int games = 0;
  for (int file = 0; file < 12; ++file) {
    std::string collection;
    const int count = 1 + static_cast<int>(dresser.Below(20));
    for (int i = 0; i < count; ++i, ++games) {
      const bool standard_game = dresser.Chance(0.5);
      const Played played = TakeApart(standard_game ? standard.Game(games) : mixed.Game(games));
      collection += dresser.Dress(played);
      // Games apart by blank lines (CRLF ones sometimes), the last sometimes without a newline.
      if (collection.back() != '\n') collection += '\n';
      if (i + 1 < count) collection += dresser.Chance(0.2) ? "\r\n" : "\n";
    }
    if (dresser.Chance(0.3) && collection.back() == '\n') collection.pop_back();
    inputs.push_back(dir.File("input" + std::to_string(file) + ".5dpgn"));
    std::ofstream(inputs.back(), std::ios::binary) << collection;
  }
  const int status = RunIndexer(dir.File("generated.sqlite"), inputs);
  ASSERT_TRUE(status == 0 || status == 1) << "5d-index exited with " << status;

  Result<GameStore> store = Open(dir.File("generated.sqlite"));
  ASSERT_TRUE(store.ok());
  const std::vector<Facts> indexed = AllGames(store.value());
  // The dressing must reach what it is for: games without headers, with odd results.
  int headerless = 0, odd_results = 0;
  for (const Facts& facts : indexed) {
    headerless += !facts.starts_with_header;
    odd_results += facts.result == "Stuck looking for legal moves" || facts.result == "1-0 (time)";
  }
  EXPECT_GT(indexed.size(), 50u);
  EXPECT_GT(headerless, 5);
  EXPECT_GT(odd_results, 2);

  // Written in a shuffled order, so that games meet neighbours they never had.
  std::vector<size_t> order(indexed.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[dresser.Below(static_cast<uint32_t>(i))]);
  }
  ExpectExportsReadBack(dir, "generated", order);
}

// Texts the random dressing does not make, each the last game of its own file (so that what the
// splitter reads as an open comment runs to the end of the file): a header name with '{', a game
// after two byte-order marks, a game in CR line ends without a final line break, header-only
// games, and a game whose only "movetext" is a result.
TEST(Export, OddTextsReadBackGameForGame) {
  TempDir dir;
  const std::vector<std::string> files = {
      "[White \"A\"]\n\n1. e3 / e6\n\n[a{b \"v\"]\n\n1. e3 / e6\n",
      "\xEF\xBB\xBF\xEF\xBB\xBF[White \"bom\"]\n\n1. d3 / d6 1-0\n",
      "\xEF\xBB\xBF\xEF\xBB\xBF"
      "1. d3 / d6\n",
      "[White \"cr\"]\r[Result \"1-0 (time)\"]\r\r1. e3 / e6\r2. Nf3",
      "[White \"only headers\"]\n[Result \"Stuck looking for legal moves\"]\n",
      "1. e3 / e6 {open",
      "[Black \"x\"]\n\n{just a comment}\n",
      "[Result \"0-1\"]\n\n1/2-1/2\n",
  };
  std::vector<std::string> inputs;
  for (size_t i = 0; i < files.size(); ++i) {
    inputs.push_back(dir.File("odd" + std::to_string(i) + ".5dpgn"));
    std::ofstream(inputs.back(), std::ios::binary) << files[i];
  }
  const int status = RunIndexer(dir.File("odd.sqlite"), inputs);
  ASSERT_TRUE(status == 0 || status == 1) << "5d-index exited with " << status;
  Result<GameStore> store = Open(dir.File("odd.sqlite"));
  ASSERT_TRUE(store.ok());
  // The first file holds two games; the unterminated comment is rejected.
  const size_t games = AllGames(store.value()).size();
  EXPECT_EQ(games, files.size());
  std::vector<size_t> reversed;
  for (size_t i = games; i-- > 0;) reversed.push_back(i);
  ExpectExportsReadBack(dir, "odd", reversed);
}

TEST(Export, TextsStandAlone) {
  GameRow row;
  row.variant = "Standard - Turn Zero";
  row.result = "Stuck looking for legal moves";
  GameTexts texts{"1. d3 / d6\n", "1. (0T1)d3 / (0T1)d6\n"};
  EXPECT_EQ(ExportedGameText(row, texts, ExportForm::kOriginal).value_or("none"),
            "[Board \"Standard - Turn Zero\"]\n1. d3 / d6\n");
  EXPECT_EQ(ExportedGameText(row, texts, ExportForm::kCanonical).value_or("none"),
            "[Board \"Standard - Turn Zero\"]\n\n1. (0T1)d3 / (0T1)d6\n");
  row.result = "1-0";
  texts.text = "[W \"q\\\"\\\\\"][a{b \"v\"]\n1. d3 / d6";
  EXPECT_EQ(ExportedGameText(row, texts, ExportForm::kOriginal).value_or("none"),
            texts.text + "\n{}\n");
  EXPECT_EQ(ExportedGameText(row, texts, ExportForm::kCanonical).value_or("none"),
            "[W \"q\\\"\\\\\"]\n[a{b \"v\"]\n\n1. (0T1)d3 / (0T1)d6 1-0\n{}\n");
  EXPECT_TRUE(StandsAlone("[A \"b\"]\n"));
  EXPECT_TRUE(StandsAlone("[A \"b\"]\n\n1. e3\n"));
  EXPECT_FALSE(StandsAlone("1. e3\n"));
  EXPECT_FALSE(StandsAlone("[A \"b\"]\n{\n"));
  EXPECT_FALSE(StandsAlone("[A \"b\"]\n\n1. e3\n\n"));
}

// --- ../shared ---------------------------------------------------------------------------------

TEST(Export, PublicCorpusReadsBackGameForGame) {
  const std::filesystem::path corpus = std::filesystem::path(FIVED_SHARED_DIR) / "corpus/public";
  if (!std::filesystem::is_directory(corpus)) {
    GTEST_SKIP() << corpus.string() << " is absent";
  }
  TempDir dir;
  const int status = RunIndexer(dir.File("public.sqlite"), {corpus.string()});
  ASSERT_TRUE(status == 0 || status == 1) << "5d-index exited with " << status;
  const std::vector<size_t> counts = ExpectExportsReadBack(dir, "public");
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_GT(counts[0], 150u);
  EXPECT_LT(counts[2], counts[0]);
}

TEST(Export, OracleGamesReadBackGameForGame) {
  const std::filesystem::path oracle =
      std::filesystem::path(FIVED_SHARED_DIR) / "oracle/public/all.5dpgn";
  if (!std::filesystem::is_regular_file(oracle)) {
    GTEST_SKIP() << oracle.string() << " is absent";
  }
  TempDir dir;
  const int status = RunIndexer(dir.File("oracle.sqlite"), {oracle.string()});
  ASSERT_TRUE(status == 0 || status == 1) << "5d-index exited with " << status;
  const std::vector<size_t> counts = ExpectExportsReadBack(dir, "oracle");
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_GT(counts[0], 1000u);
}

}  // namespace
}  // namespace fived
