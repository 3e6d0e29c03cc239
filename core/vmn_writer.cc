// Verbose Matrix Notation; see vmn_writer.h.
#include "core/vmn_writer.h"

#include <algorithm>
#include <vector>

#include "core/pgn_writer.h"

namespace fived {

namespace {

// What a cell says of the board of `timeline` at `half_turn`.
std::string_view HalfCell(const std::map<std::pair<int, int>, std::string>& cells,
                          const Position& final, int timeline, int half_turn) {
  if (final.BoardAt(timeline, half_turn) == nullptr) return "0";
  const auto it = cells.find({timeline, half_turn});
  return it == cells.end() ? std::string_view("-") : std::string_view(it->second);
}

// `text` then spaces up to `width` characters (every text here is ASCII).
void AppendPadded(std::string_view text, size_t width, std::string* out) {
  out->append(text);
  out->append(width - std::min(width, text.size()), ' ');
}

}  // namespace

void VmnBuilder::AddMove(const Position& before, const Move& move) {
  std::string text = MoveText(before, move);
  // The cell names the source board: the writer's "(LTn)" in front goes.
  text.erase(0, text.find(')') + 1);
  std::string& cell = cells_[{move.src_timeline, move.src_half}];
  if (!cell.empty()) cell += ' ';
  cell += text;
  const bool onto_tip = move.IsJump() && before.TipHalf(move.dst_timeline) == move.dst_half;
  if (onto_tip) {
    std::string& target = cells_[{move.dst_timeline, move.dst_half}];
    if (!target.empty()) target += ' ';
    target += '<';
    AppendBoardRef(before, move.src_timeline, move.src_half, &target);
  }
}

std::string VmnBuilder::Finish(const Position& final) const {
  std::vector<int> columns;  // white's newest timeline first
  int first_turn = 0, last_turn = 0;
  for (int l = final.max_timeline(); l >= final.min_timeline(); --l) {
    if (!final.HasTimeline(l)) continue;
    const int start = TurnOf(final.StartHalf(l)), tip = TurnOf(final.TipHalf(l));
    first_turn = columns.empty() ? start : std::min(first_turn, start);
    last_turn = columns.empty() ? tip : std::max(last_turn, tip);
    columns.push_back(l);
  }
  // Rows of cells, the column labels first; then each column's width.
  std::vector<std::string> labels;
  std::vector<std::vector<std::string>> rows;
  labels.push_back("L");
  rows.emplace_back();
  for (int l : columns) rows.back().push_back(final.labeling().Label(l));
  for (int turn = first_turn; turn <= last_turn && !columns.empty(); ++turn) {
    labels.push_back("T" + std::to_string(turn));
    rows.emplace_back();
    for (int l : columns) {
      const std::string_view white = HalfCell(cells_, final, l, HalfTurn(turn, Color::kWhite));
      const std::string_view black = HalfCell(cells_, final, l, HalfTurn(turn, Color::kBlack));
      std::string cell(white);
      if (white != "0" || black != "0") (cell += '/') += black;
      rows.back().push_back(std::move(cell));
    }
  }
  size_t label_width = 0;
  for (const std::string& label : labels) label_width = std::max(label_width, label.size());
  std::vector<size_t> widths(columns.size(), 0);
  for (const std::vector<std::string>& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string out;
  for (size_t r = 0; r < rows.size(); ++r) {
    // Labels line up on the right, so that each row still reads "T12[".
    out.append(label_width - labels[r].size(), ' ');
    out += labels[r];
    out += '[';
    for (size_t c = 0; c < rows[r].size(); ++c) {
      if (c > 0) out += " | ";
      AppendPadded(rows[r][c], widths[c], &out);
    }
    out += "]\n";
  }
  return out;
}

}  // namespace fived
