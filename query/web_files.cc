// Looking up the embedded web files; the files themselves are generated (query/embed_web.cmake).
#include "query/web_files.h"

#include <algorithm>

namespace fived {

const WebFile* FindWebFile(std::string_view name) {
  const std::span<const WebFile> files = WebFiles();
  const auto it =
      std::lower_bound(files.begin(), files.end(), name,
                       [](const WebFile& file, std::string_view n) { return file.name < n; });
  return it != files.end() && it->name == name ? &*it : nullptr;
}

}  // namespace fived
