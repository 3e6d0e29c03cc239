# Turns the explorer's files (query/web/*) into one C++ source that defines them as string
# constants (cmake -P script), so that 5d-query serve never reads a page from disk.
#   cmake -DWEB_DIR=query/web -DOUTPUT=web_files_data.cc -P embed_web.cmake
# defines fived::WebFiles() (query/web_files.h): every file of WEB_DIR with its exact bytes,
# sorted by name, and the content type its extension gives.
if(NOT DEFINED WEB_DIR OR NOT DEFINED OUTPUT)
  message(FATAL_ERROR "embed_web.cmake needs -DWEB_DIR=<dir> -DOUTPUT=<file.cc>")
endif()

file(GLOB files RELATIVE ${WEB_DIR} ${WEB_DIR}/*)
list(SORT files)
set(delimiter "fived_web")
set(entries "")
foreach(name IN LISTS files)
  if(name MATCHES "\\.html$")
    set(type "text/html; charset=utf-8")
  elseif(name MATCHES "\\.css$")
    set(type "text/css; charset=utf-8")
  elseif(name MATCHES "\\.js$")
    set(type "text/javascript; charset=utf-8")
  elseif(name MATCHES "\\.svg$")
    set(type "image/svg+xml")
  else()
    # Only text goes in: a raw string literal holds no arbitrary bytes.
    message(FATAL_ERROR "${WEB_DIR}/${name}: embed_web.cmake embeds .html, .css, .js and .svg")
  endif()
  if(NOT name MATCHES "^[A-Za-z0-9_.-]+$")
    message(FATAL_ERROR "${WEB_DIR}/${name}: names are letters, digits, '.', '_' and '-'")
  endif()
  file(READ ${WEB_DIR}/${name} content)
  string(FIND "${content}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${WEB_DIR}/${name} contains the raw string delimiter )${delimiter}\"")
  endif()
  string(APPEND entries
    "    {\"${name}\", \"${type}\",\n     R\"${delimiter}(${content})${delimiter}\"},\n")
endforeach()

set(text "// Generated from the files of ${WEB_DIR} by query/embed_web.cmake. Do not edit.\n")
string(APPEND text "#include \"query/web_files.h\"\n\nnamespace fived {\n\n")
string(APPEND text "std::span<const WebFile> WebFiles() {\n  static const WebFile kFiles[] = {\n")
# Never expanded unquoted: the files' semicolons would split it as a list.
string(APPEND text "${entries}")
string(APPEND text "  };\n  return kFiles;\n}\n\n}  // namespace fived\n")
file(WRITE ${OUTPUT} "${text}")
