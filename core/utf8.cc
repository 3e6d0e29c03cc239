// Escaping text for terminals; see utf8.h.
#include "core/utf8.h"

#include <cstddef>
#include <cstdint>

namespace fived {

namespace {

void AppendEscaped(uint8_t byte, std::string* out) {
  constexpr char kHex[] = "0123456789abcdef";
  out->append("\\x");
  out->push_back(kHex[byte >> 4]);
  out->push_back(kHex[byte & 0xf]);
}

// The length of the well-formed UTF-8 sequence of 2 to 4 bytes at the start of `text`, or 0 when
// there is none. The bounds of the second byte are those of the Unicode standard's table 3-7:
// they rule out overlong forms (E0, F0), surrogates (ED) and code points above U+10FFFF (F4).
size_t SequenceLength(std::string_view text) {
  const uint8_t lead = static_cast<uint8_t>(text[0]);
  size_t length = 0;
  uint8_t low = 0x80, high = 0xbf;  // the second byte's range
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  } else {
    return 0;  // ASCII, a continuation byte, the overlong leads C0 and C1, or F5 to FF
  }
  if (text.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    const uint8_t byte = static_cast<uint8_t>(text[i]);
    if (byte < (i == 1 ? low : 0x80) || byte > (i == 1 ? high : 0xbf)) return 0;
  }
  return length;
}

}  // namespace

std::string EscapeForTerminal(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const uint8_t byte = static_cast<uint8_t>(text[i]);
    if (byte < 0x80) {
      if (byte < 0x20 || byte == 0x7f) {
        AppendEscaped(byte, &out);
      } else {
        out.push_back(static_cast<char>(byte));
      }
      ++i;
      continue;
    }
    const size_t length = SequenceLength(text.substr(i));
    // U+0080 to U+009F are C2 80 to C2 9F.
    const bool c1_control = length == 2 && byte == 0xc2 && static_cast<uint8_t>(text[i + 1]) < 0xa0;
    if (length == 0 || c1_control) {
      // Of a broken sequence only the first byte is escaped: what follows is decoded afresh.
      const size_t escaped = c1_control ? 2 : 1;
      for (size_t k = 0; k < escaped; ++k) AppendEscaped(static_cast<uint8_t>(text[i + k]), &out);
      i += escaped;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

std::string EscapeLinesForTerminal(std::string_view message) {
  std::string out;
  size_t begin = 0;
  while (true) {
    const size_t end = message.find('\n', begin);
    out += EscapeForTerminal(message.substr(begin, end - begin));
    if (end == std::string_view::npos) return out;
    out += '\n';
    begin = end + 1;
  }
}

}  // namespace fived
