# Turns one SQL file into a C++ source defining it as a string_view (cmake -P script).
#   cmake -DINPUT=schema/drop_indexes.sql -DOUTPUT=drop_indexes_sql.cc -P embed_sql.cmake
# defines `const std::string_view fived::sql::kDropIndexesSql` with the file's exact bytes.
if(NOT DEFINED INPUT OR NOT DEFINED OUTPUT)
  message(FATAL_ERROR "embed_sql.cmake needs -DINPUT=<file.sql> -DOUTPUT=<file.cc>")
endif()

get_filename_component(stem ${INPUT} NAME_WE)
# drop_indexes -> kDropIndexesSql (Google style constant name).
string(REGEX MATCHALL "[^_]+" words "${stem}")
set(name "k")
foreach(word IN LISTS words)
  string(SUBSTRING "${word}" 0 1 first)
  string(SUBSTRING "${word}" 1 -1 rest)
  string(TOUPPER "${first}" first)
  string(APPEND name "${first}${rest}")
endforeach()
string(APPEND name "Sql")

file(READ ${INPUT} content)
set(delimiter "fived_sql")
string(FIND "${content}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw string delimiter )${delimiter}\"")
endif()

file(WRITE ${OUTPUT}
  "// Generated from ${INPUT} by schema/embed_sql.cmake. Do not edit.\n"
  "#include \"schema/sql.h\"\n\n"
  "namespace fived::sql {\n\n"
  "const std::string_view ${name} = R\"${delimiter}(${content})${delimiter}\";\n\n"
  "}  // namespace fived::sql\n")
