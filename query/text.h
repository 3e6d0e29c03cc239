// Small text helpers the query commands share: ASCII case folding (as SQLite's NOCASE compares
// header names) and aligned text tables for terminals.
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

// Cells wider than this many terminal columns are cut (FormatTable).
inline constexpr size_t kMaxCellWidth = 40;

// An aligned text table of rows of cells (the first row is usually the header): columns two
// spaces apart, cells of columns whose right_aligned flag is set padded on the left, the others on
// the right; no trailing spaces. Rows may have fewer cells than others.
//
// Cells are measured in terminal columns, not bytes (libunistring's u8_width: a CJK character
// takes two, a combining accent none), so names in any script line up. A cell wider than its
// column's limit (max_widths[i], kMaxCellWidth for columns it does not list) is cut to the limit
// with an ellipsis ("…") as its last column, so that one odd value does not widen a whole column.
// Cells are escaped with EscapeForTerminal (core/utf8.h) first: control characters and bytes that
// are not UTF-8 never reach the terminal raw.
std::string FormatTable(const std::vector<std::vector<std::string>>& rows,
                        const std::vector<bool>& right_aligned,
                        const std::vector<size_t>& max_widths = {});

// The terminal columns `text` (UTF-8) takes; a byte that is not UTF-8 counts one.
size_t DisplayWidth(std::string_view text);
// `text` cut to at most `max_width` terminal columns, ending with "…" when it was cut.
std::string FitWidth(std::string_view text, size_t max_width);

}  // namespace fived

#endif  // FIVED_QUERY_TEXT_H_
