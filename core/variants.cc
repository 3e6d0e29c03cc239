// The official variants of 5D Chess With Multiverse Time Travel as data, and the lenient lookup
// of the names that [Board "..."] headers give them in real files.
//
// The boards come from the BOARDS table of adri326/5dchess-notation (MIT), converted to 5DFEN.
// The table follows ../shared/variants/official.5dpgn entry for entry; variants_test.cc checks
// it against that file when it is present.
#include "core/variants.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fived {
namespace {

const std::vector<Variant>& Table() {
  // Built on first use and never destroyed, so nothing can read a destroyed table during exit.
  static const auto* const table = new std::vector<Variant>{
      // clang-format off
      // name, width, height, boards, default promotion
      {"Standard", 8, 8,
       {"[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]"},
       "Q"},
      {"Standard - Turn Zero", 8, 8,
       {"[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:0:b]",
        "[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]"},
       "Q"},
      {"Standard - Princess", 8, 8,
       {"[r*nbsk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBSK*BNR*:0:1:w]"},
       "S"},
      {"Standard - Two Timelines", 8, 8,
       {"[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:-0:1:w]",
        "[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:+0:1:w]"},
       "Q"},
      {"Standard - Defended Pawn", 8, 8,
       {"[r*qbnk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*QBNK*BNR*:0:1:w]"},
       "Q"},
      {"Standard - Reversed Royalty", 8, 8,
       {"[r*nbycbnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBYCBNR*:0:1:w]"},
       "Q"},
      {"Small", 5, 5,
       {"[k*qbnr*/p*p*p*p*p*/5/P*P*P*P*P*/K*QBNR*:0:1:w]"},
       "Q"},
      {"Misc - Timeline Invasion", 5, 5,
       {"[nbk*r*b/p*p*p*p*p*/5/5/P*P*P*P*P*:-0:1:w]",
        "[p*p*p*p*p*/5/5/P*P*P*P*P*/NBK*R*B:+0:1:w]"},
       "Q"},
      {"Simple - No Queens", 7, 7,
       {"[r*nbk*nbr*/p*p*p*p*p*p*p*/7/7/7/P*P*P*P*P*P*P*/R*NBK*NBR*:0:1:w]"},
       "Q"},
      {"Simple - Knights vs. Bishop", 6, 6,
       {"[r*bqk*br*/p*p*p*p*p*p*/6/6/P*P*P*P*P*P*/R*NQK*NR*:0:1:w]"},
       "Q"},
      {"Simple - No Bishops", 6, 6,
       {"[r*nqk*nr*/p*p*p*p*p*p*/6/6/P*P*P*P*P*P*/R*NQK*NR*:0:1:w]"},
       "Q"},
      {"Simple - No Knights", 6, 6,
       {"[r*bqk*br*/p*p*p*p*p*p*/6/6/P*P*P*P*P*P*/R*BQK*BR*:0:1:w]"},
       "Q"},
      {"Simple - No Rooks", 6, 6,
       {"[nbqk*bn/p*p*p*p*p*p*/6/6/P*P*P*P*P*P*/NBQK*BN:0:1:w]"},
       "Q"},
      {"Simple - Simple Set", 6, 6,
       {"[r*nbqk*r*/p*p*p*p*p*p*/6/6/P*P*P*P*P*P*/R*K*QBNR*:0:1:w]"},
       "Q"},
      {"Small - Flipped", 5, 5,
       {"[nbr*qk*/p*p*p*p*p*/5/P*P*P*P*P*/K*QR*BN:0:1:w]"},
       "Q"},
      {"Small - Centered", 5, 5,
       {"[r*nk*qr*/p*p*p*p*p*/5/P*P*P*P*P*/R*QK*NR*:0:1:w]"},
       "Q"},
      {"Small - Open", 5, 5,
       {"[p*r*nbk*/3p*p*/5/P*P*3/K*BNR*P*:0:1:w]"},
       "Q"},
      {"Very Small", 4, 4,
       {"[nbr*k*/p*p*p*p*/P*P*P*P*/K*R*BN:0:1:w]"},
       "Q"},
      {"Very Small - Open", 4, 4,
       {"[nbr*k*/3p*/P*3/K*R*BN:0:1:w]"},
       "Q"},
      {"Misc - Timeline Formations", 5, 5,
       {"[p*p*p*p*p*/5/5/5/2K*2:-0:1:w]",
        "[2k*2/5/5/5/P*P*P*P*P*:+0:1:w]"},
       "Q"},
      {"Misc - Timeline Tactitian", 4, 4,
       {"[k*bnr*/p*p*p*p*/4/4:-0:1:w]",
        "[4/4/P*P*P*P*/K*BNR*:+0:1:w]"},
       "Q"},
      {"Misc - Timeline Strategos", 5, 5,
       {"[nbk*ur*/p*p*p*p*p*/5/5/5:-0:1:w]",
        "[5/5/5/P*P*P*P*P*/R*UK*BN:+0:1:w]"},
       "Q"},
      {"Misc - Timeline Battlegrounds", 5, 5,
       {"[r*r*k*r*r*/bbqbb/p*p*p*p*p*/5/P*P*P*P*P*:-1:1:w]",
        "[nnnnn/p*p*p*p*p*/5/P*P*P*P*P*/NNNNN:0:1:w]",
        "[p*p*p*p*p*/5/P*P*P*P*P*/BBQBB/R*R*K*R*R*:1:1:w]"},
       "Q"},
      {"Misc - Timeline Skirmish", 5, 5,
       {"[3r*k*/3p*p*/5/BB3/NN3:-0:1:w]",
        "[3nn/3bb/5/P*P*3/K*R*3:+0:1:w]"},
       "Q"},
      {"Misc - Timeline Fragments", 4, 4,
       {"[k*p*p*p*/4/4/NBR*U:-0:1:b]",
        "[nbr*u/4/4/K*P*P*P*:+0:1:w]"},
       "Q"},
      {"Misc - Timeline Marauders", 5, 5,
       {"[w*r*k*r*w*/1w*w*w*1/5/5/5:-1:1:w]",
        "[w*1w*1w*/5/5/5/W*1W*1W*:0:1:w]",
        "[5/5/5/1W*W*W*1/W*R*K*R*W*:1:1:w]"},
       "Q"},
      {"Misc - King of Kings", 5, 5,
       {"[cck*cc/5/5/5/CCK*CC:0:1:w]"},
       "Q"},
      {"Misc - Royal Queen Showdown", 6, 6,
       {"[4y1/6/6/6/6/1Y4:0:1:w]"},
       "Q"},
      {"Misc - Excessive", 7, 7,
       {"[k*r*uqdr*k*/r*nbk*nbr*/p*p*p*p*p*p*p*/7/P*P*P*P*P*P*P*/R*NBK*NBR*/K*R*UQDR*K*:0:1:w]"},
       "Q"},
      {"Standard - Half Reflected", 8, 8,
       {"[r*nbk*qbnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]"},
       "Q"},
      {"Misc - Global Warming", 1, 1,
       {"[1:0:1:w]"},
       "Q"},
      {"Focused - Just Knights", 5, 5,
       {"[n1k*n1/5/5/5/1NK*1N:0:1:w]"},
       "Q"},
      {"Focused - Just Bishops", 5, 5,
       {"[1bbk*1/5/5/5/1K*BB1:0:1:w]"},
       "Q"},
      {"Focused - Just Rooks", 5, 5,
       {"[1r*k*1r*/5/5/5/R*1K*R*1:0:1:w]"},
       "Q"},
      {"Focused - Just Queens", 6, 6,
       {"[1q1k*2/6/6/6/6/2K*1Q1:0:1:w]"},
       "Q"},
      {"Focused - Just Pawns", 5, 5,
       {"[p*p*p*p*k*/5/5/5/K*P*P*P*P*:0:1:w]"},
       "Q"},
      {"Focused - Just Kings", 3, 3,
       {"[2k*/3/K*2:0:1:w]"},
       "Q"},
      {"Focused - Just Unicorns", 5, 5,
       {"[1u1uk*/5/5/5/K*U1U1:0:1:w]"},
       "Q"},
      {"Focused - Just Dragons", 5, 5,
       {"[2ddk*/5/5/5/K*DD2:0:1:w]"},
       "Q"},
      {"Focused - Just Brawns", 5, 5,
       {"[w*w*w*w*k*/5/5/5/K*W*W*W*W*:0:1:w]"},
       "Q"},
      {"Checkmate Practice - Knight", 6, 6,
       {"[5n/6/6/6/6/K*5:0:1:w]"},
       "Q"},
      {"Checkmate Practice - Bishop", 6, 6,
       {"[4b1/6/6/6/6/K*5:0:1:w]"},
       "Q"},
      {"Checkmate Practice - Rook", 6, 6,
       {"[5r*/6/6/6/6/K*5:0:1:w]"},
       "Q"},
      {"Checkmate Practice - Queen", 6, 6,
       {"[4q1/6/6/6/6/K*5:0:1:w]"},
       "Q"},
      {"Checkmate Practice - Pawns", 6, 6,
       {"[2p*p*p*1/6/6/6/6/3K*2:0:1:w]"},
       "Q"},
      // clang-format on
  };
  return *table;
}

bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Keeps ASCII letters, lowercased, and digits; drops spaces, punctuation and non-ASCII bytes, so
// "Standard - Half Reflected" becomes "standardhalfreflected" and "half_reflected" "halfreflected".
std::string Normalize(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    c = AsciiLower(c);
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out.push_back(c);
  }
  return out;
}

// The official names in normalised form, split at their category, computed once.
struct NameIndex {
  std::vector<std::string> full;        // per variant: "standardturnzero"
  std::vector<std::string> unprefixed;  // per variant: "turnzero", or "" when it has no category
  std::vector<std::string> categories;  // distinct: "standard", "misc", "verysmall", ...
};

const NameIndex& Index() {
  static const auto* const index = [] {
    auto* built = new NameIndex;
    for (const Variant& variant : Table()) {
      built->full.push_back(Normalize(variant.name));
      const std::size_t dash = variant.name.find(" - ");
      if (dash == std::string::npos) {
        built->unprefixed.emplace_back();
        continue;
      }
      built->unprefixed.push_back(Normalize(std::string_view(variant.name).substr(dash + 3)));
      std::string category = Normalize(std::string_view(variant.name).substr(0, dash));
      bool known = false;
      for (const std::string& seen : built->categories) known = known || seen == category;
      if (!known) built->categories.push_back(std::move(category));
    }
    return built;
  }();
  return *index;
}

// What one matching level found: no variant, exactly one, or several.
struct LevelResult {
  int matches = 0;
  std::size_t first = 0;
};

// Exact comparison of the normalised query with the normalised official names.
LevelResult MatchExact(const NameIndex& index, const std::string& query) {
  LevelResult result;
  for (std::size_t i = 0; i < index.full.size(); ++i) {
    if (index.full[i] != query) continue;
    if (result.matches++ == 0) result.first = i;
  }
  return result;
}

// Comparison with a category taken off either the query or the official name, never both (a
// wrong category is not a category left out): "Misc - Small" finds "Small", "Princess" finds
// "Standard - Princess". A category is only taken off the query when something is left after it,
// so "Small" alone stays the variant "Small".
LevelResult MatchWithoutCategory(const NameIndex& index, const std::string& query) {
  std::vector<std::string_view> query_forms;
  for (const std::string& category : index.categories) {
    if (query.size() > category.size() && query.starts_with(category)) {
      query_forms.push_back(std::string_view(query).substr(category.size()));
    }
  }
  LevelResult result;
  for (std::size_t i = 0; i < index.full.size(); ++i) {
    const std::string& unprefixed = index.unprefixed[i];
    bool match = !unprefixed.empty() && unprefixed == query;
    for (std::string_view form : query_forms) {
      match = match || form == index.full[i];
    }
    if (!match) continue;
    if (result.matches++ == 0) result.first = i;
  }
  return result;
}

}  // namespace

std::span<const Variant> OfficialVariants() { return Table(); }

const Variant* FindVariant(std::string_view name) {
  bool blank = true;
  for (char c : name) blank = blank && IsAsciiSpace(c);
  if (blank) return &Table().front();  // no name means Standard, the first entry
  if (IsCustomBoardName(name)) return nullptr;

  const std::string query = Normalize(name);
  if (query.empty()) return nullptr;

  const NameIndex& index = Index();
  // The levels go from strict to lenient and the first level that finds anything decides: a
  // name that fits several variants equally well is refused rather than guessed.
  const std::string with_final_s = query + "s";
  const LevelResult levels[] = {
      MatchExact(index, query),
      MatchWithoutCategory(index, query),
      MatchExact(index, with_final_s),
      MatchWithoutCategory(index, with_final_s),
  };
  for (const LevelResult& level : levels) {
    if (level.matches == 1) return &Table()[level.first];
    if (level.matches > 1) return nullptr;
  }
  return nullptr;
}

bool IsCustomBoardName(std::string_view name) {
  while (!name.empty() && IsAsciiSpace(name.front())) name.remove_prefix(1);
  while (!name.empty() && IsAsciiSpace(name.back())) name.remove_suffix(1);
  constexpr std::string_view kCustom = "custom";
  if (name.size() != kCustom.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (AsciiLower(name[i]) != kCustom[i]) return false;
  }
  return true;
}

}  // namespace fived
