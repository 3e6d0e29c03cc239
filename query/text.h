// Small text helpers the query commands share: ASCII case folding (as SQLite's NOCASE compares
// names) and aligned text tables.
#ifndef FIVED_QUERY_TEXT_H_
#define FIVED_QUERY_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

namespace fived {

// `text` with ASCII letters lowered; other bytes unchanged.
std::string AsciiLower(std::string_view text);
// <0, 0 or >0 as a is before, equal to or after b, ASCII letters compared without case.
int CompareIgnoringCase(std::string_view a, std::string_view b);

// An aligned text table of rows of cells (the first row is usually the header): columns two
// spaces apart, cells of columns whose right_aligned flag is set padded on the left, the others on
// the right; no trailing spaces. Rows may have fewer cells than others.
std::string FormatTable(const std::vector<std::vector<std::string>>& rows,
                        const std::vector<bool>& right_aligned);

}  // namespace fived

#endif  // FIVED_QUERY_TEXT_H_
