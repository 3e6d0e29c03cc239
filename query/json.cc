// JSON helpers; see json.h.
#include "query/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace fived {

Json JsonNumber(double value) {
  if (!std::isfinite(value)) return nullptr;
  // The 4 significant decimals printf's %.4g keeps; whole numbers are written without a
  // fraction (1, not 1.0), as %.4g writes them.
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  const double rounded = std::strtod(text, nullptr);
  if (rounded == std::trunc(rounded) && std::fabs(rounded) < 1e15) {
    return static_cast<int64_t>(rounded);
  }
  return rounded;
}

std::string DumpJson(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace fived
