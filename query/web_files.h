// The explorer's pages, scripts and styles (the files of query/web/), compiled into the
// executable: query/embed_web.cmake turns them into string constants at build time, so that
// 5d-query serve never reads a file from disk and its user has nothing to install.
#ifndef FIVED_QUERY_WEB_FILES_H_
#define FIVED_QUERY_WEB_FILES_H_

#include <span>
#include <string_view>

namespace fived {

struct WebFile {
  std::string_view name;          // the file's name in query/web/, e.g. "explorer.js"
  std::string_view content_type;  // from its extension: "text/javascript; charset=utf-8"
  std::string_view content;       // its exact bytes
};

// Every embedded file, sorted by name. The views point into static storage and are valid for
// the whole program; thread-safe.
std::span<const WebFile> WebFiles();

// The embedded file called `name` (a name alone, never a path), or nullptr.
const WebFile* FindWebFile(std::string_view name);

}  // namespace fived

#endif  // FIVED_QUERY_WEB_FILES_H_
