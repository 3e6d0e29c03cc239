// Status and Result (core/status.h): success and failure, codes, details and places kept,
// values moved out.
#include "core/status.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace fived {
namespace {

TEST(StatusTest, DefaultIsSuccess) {
  const Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), StatusCode::kOk);
  EXPECT_EQ(ok.message(), "");
  EXPECT_EQ(ok.detail(), 0);
  EXPECT_FALSE(ok.place().has_value());
}

TEST(StatusTest, FailuresKeepCodeMessageAndDetail) {
  const Status bad = Status::InvalidArgument("--limit must be at least 0");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.message(), "--limit must be at least 0");
  EXPECT_EQ(Status::NotFound("show: there is no game 9").code(), StatusCode::kNotFound);
  // SQLite's SQLITE_IOERR_READ (266): primary code SQLITE_IOERR (10).
  const Status io = Status::Database("disk I/O error", 266);
  EXPECT_EQ(io.code(), StatusCode::kDatabase);
  EXPECT_EQ(io.detail(), 266);
  EXPECT_EQ(io.primary_detail(), 10);
}

TEST(StatusTest, PlaceIsKept) {
  const Status bad =
      Status::InvalidArgument("--moves: col 4: Qh9: no such square")
          .At({.parameter = "moves", .index = 0, .column = 4, .reason = "Qh9", .token = {}});
  ASSERT_TRUE(bad.place().has_value());
  EXPECT_EQ(bad.place()->parameter, "moves");
  EXPECT_EQ(bad.place()->column, 4u);
  EXPECT_EQ(bad.place()->line, 0u);
  EXPECT_EQ(bad.place()->reason, "Qh9");
}

TEST(StatusTest, TextErrorPointsAtTheColumn) {
  const Status bad = TextErrorAt("Q>=x", 4, "expected a number");
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.message(), "col 4: expected a number\n  Q>=x\n     ^");
  ASSERT_TRUE(bad.place().has_value());
  EXPECT_EQ(bad.place()->column, 4u);
  EXPECT_EQ(bad.place()->line, 0u);
  EXPECT_EQ(bad.place()->reason, "expected a number");
  EXPECT_EQ(bad.place()->parameter, "");
}

TEST(ResultTest, ValueOrError) {
  Result<int> seven = 7;
  ASSERT_TRUE(seven.ok());
  EXPECT_EQ(seven.value(), 7);
  EXPECT_TRUE(seven.status().ok());
  const Result<int> missing = Status::NotFound("no such game");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "no such game");
}

TEST(ResultTest, MovesValuesOut) {
  Result<std::unique_ptr<int>> owned = std::make_unique<int>(5);
  std::unique_ptr<int> taken = std::move(owned).value();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(*taken, 5);
}

}  // namespace
}  // namespace fived
