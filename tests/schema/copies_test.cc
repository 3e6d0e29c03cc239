// What makes a game a copy (schema/copies.h), table by table: dates and results as compared,
// which headers agree and which conflict, the hashed keys saying the same as the values, and the
// originals of an identity found in id order.
#include "schema/copies.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fived {
namespace {

TEST(CopiesTest, DatesAreComparedWithDotsAndUnknownOnesSayNothing) {
  const struct {
    const char* date;
    const char* compared;
  } cases[] = {
      {"2021.03.04", "2021.03.04"},
      {"2021-03-04", "2021.03.04"},
      {"2021/03/04", "2021.03.04"},
      {" 2021.03 ", "2021.03"},
      {"2021.??.??", "2021.??.??"},
      {"6-14-2021", "6.14.2021"},
      {"", ""},
      {"   ", ""},
      {"?", ""},
      {"????.??.??", ""},
      {"?-?-?", ""},
  };
  for (const auto& c : cases) EXPECT_EQ(CopyDate(c.date), c.compared) << c.date;
}

TEST(CopiesTest, OnlyDecisiveAndDrawnResultsAreCompared) {
  for (const char* result : {"1-0", "0-1", "1/2-1/2"}) EXPECT_EQ(CopyResult(result), result);
  for (const char* result : {"*", "", "1-0 (time)", "½-½", "draw"}) {
    EXPECT_EQ(CopyResult(result), "") << result;
  }
}

TEST(CopiesTest, HeadersAgreeWhereBothGamesHaveThem) {
  const CopyHeaders full{"ann", "bob", "2021.03.04", "1-0"};
  const struct {
    CopyHeaders other;
    bool agree;
  } cases[] = {
      {{"ann", "bob", "2021.03.04", "1-0"}, true},
      {{"ann", "bob", "2021-03-04", "1-0"}, true},   // the same date, written with dashes
      {{"", "", "", ""}, true},                      // nothing to conflict with
      {{"ann", "", "", "*"}, true},                  // '*' claims no result
      {{"", "bob", "????.??.??", ""}, true},         // an unknown date is none
      {{"cat", "bob", "2021.03.04", "1-0"}, false},  // another white player
      {{"ann", "cat", "2021.03.04", "1-0"}, false},  // another black player
      {{"bob", "ann", "2021.03.04", "1-0"}, false},  // the colours the other way round
      {{"ann", "bob", "2021.03.05", "1-0"}, false},  // another day
      {{"ann", "bob", "2021.03", "1-0"}, false},     // another precision is another date
      {{"ann", "bob", "2021.03.04", "0-1"}, false},  // another result
      {{"ann", "bob", "2021.03.04", "1/2-1/2"}, false},
      {{"", "", "", "0-1"}, false},
  };
  for (const auto& c : cases) {
    const std::string label = std::string(c.other.white_key) + "|" +
                              std::string(c.other.black_key) + "|" + std::string(c.other.date) +
                              "|" + std::string(c.other.result);
    EXPECT_EQ(HeadersAgree(full, c.other), c.agree) << label;
    EXPECT_EQ(HeadersAgree(c.other, full), c.agree) << label;
    // Without a hash collision the keys say what the values say.
    EXPECT_EQ(MayAgree(CopyKey::Of(full), CopyKey::Of(c.other)), c.agree) << label;
  }
  EXPECT_EQ(CopyKey::Of({"", "", "????.??.??", "*"}).date, 0u);
  EXPECT_EQ(CopyKey::Of({"", "", "", "*"}).result, 0u);
}

TEST(CopiesTest, OriginalsOfAnIdentityComeInIdOrderAndOnlyThoseThatMayAgree) {
  OriginalsByIdentity originals;
  const CopyKey ann = CopyKey::Of({"ann", "bob", "", "1-0"});
  const CopyKey cat = CopyKey::Of({"cat", "dan", "", ""});
  const CopyKey none = CopyKey::Of({"", "", "", ""});
  originals.Add(7, 1, ann);
  originals.Add(8, 2, none);
  originals.Add(7, 3, cat);
  originals.Add(7, 4, none);
  const auto found = [&](uint64_t identity, const CopyKey& key, int64_t stop_at) {
    std::vector<int64_t> ids;
    const bool stopped = originals.FindAgreeing(identity, key, [&](const auto& original) {
      ids.push_back(original.id);
      return original.id == stop_at;
    });
    EXPECT_EQ(stopped, !ids.empty() && ids.back() == stop_at);
    return ids;
  };
  EXPECT_EQ(found(7, none, 0), (std::vector<int64_t>{1, 3, 4}));
  EXPECT_EQ(found(7, cat, 0), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(found(7, CopyKey::Of({"ann", "", "", "0-1"}), 0), (std::vector<int64_t>{4}));
  EXPECT_EQ(found(7, none, 3), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(found(8, ann, 0), (std::vector<int64_t>{2}));
  EXPECT_EQ(found(9, none, 0), (std::vector<int64_t>{}));
}

}  // namespace
}  // namespace fived
