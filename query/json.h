// A small streaming JSON writer for 5d-query's --format json: objects, arrays, strings (escaped
// per RFC 8259; invalid UTF-8 bytes become U+FFFD so the output is always valid JSON), integers,
// numbers and booleans. Commas are placed automatically. Not thread-safe.
#ifndef FIVED_QUERY_JSON_H_
#define FIVED_QUERY_JSON_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fived {

class JsonWriter {
 public:
  // Writing goes to *out, which must outlive the writer.
  explicit JsonWriter(std::string* out) : out_(out) {}

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  // The key of the next value inside an object.
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& Double(double value);  // 4 significant decimals are kept
  JsonWriter& Bool(bool value);
  JsonWriter& Null();

 private:
  void BeforeValue();

  std::string* out_;
  // Per open container: whether a value has been written in it.
  std::vector<bool> has_value_;
  bool after_key_ = false;
};

// Appends `text` as a JSON string literal (with quotes) to *out.
void AppendJsonString(std::string_view text, std::string* out);

}  // namespace fived

#endif  // FIVED_QUERY_JSON_H_
