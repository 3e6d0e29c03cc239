// The official variants of 5D Chess With Multiverse Time Travel, with their starting boards in
// 5DFEN, and the lenient matching of `[Board "..."]` names that real files need.
#ifndef FIVED_CORE_VARIANTS_H_
#define FIVED_CORE_VARIANTS_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fived {

struct Variant {
  std::string name;  // canonical name, e.g. "Standard - Turn Zero"
  int width = 8;
  int height = 8;
  std::vector<std::string> boards;  // starting boards, 5DFEN with brackets: "[...:0:1:w]"
  std::string default_promotion;    // "Q", or "S" where the variant has princesses but no queen
};

// Every official variant, in the order of ../shared/variants/official.5dpgn. The table is built
// once and lives for the whole program; thread-safe.
std::span<const Variant> OfficialVariants();

// Finds an official variant by a [Board] header value. Matching ignores case, spaces and
// punctuation ("half_reflected" is "Standard - Half Reflected"), accepts a leading category
// ("Standard - ", "Misc - ", "Simple - ", ...) that is written but not in the official name or
// omitted where the official name has it ("Misc - Small" and "Small", "Princess" for
// "Standard - Princess"), and a missing final "s" ("Misc - Timeline Battleground"). An empty
// name means Standard.
// Returns nullptr when nothing matches or when the name is ambiguous; `custom` is not a variant
// (the caller handles it).
const Variant* FindVariant(std::string_view name);

// Whether a [Board] value asks for a custom position from 5DFEN headers ("custom", any case).
bool IsCustomBoardName(std::string_view name);

}  // namespace fived

#endif  // FIVED_CORE_VARIANTS_H_
