// Whether this build checks the asserts of core/ and schema/. `make test` (and CI) builds with
// FIVED_ASSERTIONS, an optimized build without NDEBUG, and this test fails if the asserts were
// compiled out after all; a plain Release build skips it and says so.
#include <gtest/gtest.h>

#include <cassert>

namespace fived {
namespace {

TEST(AssertionsTest, AssertsRunWhereTheBuildPromisesThem) {
#ifdef NDEBUG
#ifdef FIVED_ASSERTIONS_EXPECTED
  FAIL() << "built with FIVED_ASSERTIONS, yet NDEBUG is defined: the asserts do not run";
#else
  GTEST_SKIP() << "a build without assertions (NDEBUG); make test builds with them";
#endif
#else
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(assert(1 + 1 == 3), "1 \\+ 1 == 3");
#endif
}

}  // namespace
}  // namespace fived
