// Shared text helpers; see text.h.
#include "query/text.h"

#include <unistr.h>
#include <uniwidth.h>

#include <algorithm>

#include "core/utf8.h"

namespace fived {

namespace {

char LowerChar(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = LowerChar(c);
  return out;
}

int CompareIgnoringCase(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const unsigned char x = static_cast<unsigned char>(LowerChar(a[i]));
    const unsigned char y = static_cast<unsigned char>(LowerChar(b[i]));
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

size_t DisplayWidth(std::string_view text) {
  size_t width = 0;
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  for (size_t i = 0; i < text.size();) {
    ucs4_t c = 0;
    const int length = u8_mbtouc(&c, bytes + i, text.size() - i);
    const int w = uc_width(c, "UTF-8");
    // Controls (-1) do not reach here escaped; count them one like a broken byte.
    width += w < 0 ? 1 : static_cast<size_t>(w);
    i += static_cast<size_t>(length > 0 ? length : 1);
  }
  return width;
}

std::string FitWidth(std::string_view text, size_t max_width) {
  if (DisplayWidth(text) <= max_width) return std::string(text);
  if (max_width == 0) return {};
  // Whole characters while they fit in all but the last column, which the ellipsis takes;
  // zero-width ones (combining accents) stay with the character before them.
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  size_t width = 0;
  size_t end = 0;
  while (end < text.size()) {
    ucs4_t c = 0;
    const int length = u8_mbtouc(&c, bytes + end, text.size() - end);
    const int w = uc_width(c, "UTF-8");
    const size_t cell = w < 0 ? 1 : static_cast<size_t>(w);
    if (width + cell > max_width - 1) break;
    width += cell;
    end += static_cast<size_t>(length > 0 ? length : 1);
  }
  return std::string(text.substr(0, end)) + "\xE2\x80\xA6";  // U+2026
}

std::string FormatTable(const std::vector<std::vector<std::string>>& rows,
                        const std::vector<bool>& right_aligned,
                        const std::vector<size_t>& max_widths) {
  // The cells as shown, with their widths.
  std::vector<std::vector<std::pair<std::string, size_t>>> shown(rows.size());
  std::vector<size_t> widths;
  for (size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) {
      const size_t limit = i < max_widths.size() ? max_widths[i] : kMaxCellWidth;
      std::string cell = FitWidth(EscapeForTerminal(row[i]), limit);
      const size_t width = DisplayWidth(cell);
      widths[i] = std::max(widths[i], width);
      shown[r].emplace_back(std::move(cell), width);
    }
  }
  std::string out;
  for (const auto& row : shown) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      if (i > 0) line += "  ";
      const std::string pad(widths[i] - row[i].second, ' ');
      const bool right = i < right_aligned.size() && right_aligned[i];
      line += right ? pad + row[i].first : row[i].first + pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace fived
