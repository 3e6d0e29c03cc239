// JSON for 5d-query's --format json and the server's API, on nlohmann-json. Objects keep their
// keys in the order they are set (ordered_json), so the output reads as the documentation lists
// it, and the text is compact (no spaces), one document per call.
#ifndef FIVED_QUERY_JSON_H_
#define FIVED_QUERY_JSON_H_

#include <nlohmann/json.hpp>
#include <string>

namespace fived {

using Json = nlohmann::ordered_json;

// A share or a score kept to 4 significant decimals, as the tables show them: 0.6154, 1, 0.5;
// null when it is not finite.
Json JsonNumber(double value);

// `value` as compact JSON text. Strings that are not valid UTF-8 (game texts are kept as their
// files have them) get U+FFFD for each invalid sequence, so the text is always valid JSON.
std::string DumpJson(const Json& value);

}  // namespace fived

#endif  // FIVED_QUERY_JSON_H_
