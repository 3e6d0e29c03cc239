# What `cmake --install` puts where, the man pages it installs, and the Debian package of
# `cpack -G DEB`. Included by the top CMakeLists.txt after the tools are defined.
# Documents under the package's name, as Debian has them (GNUInstallDirs would use the project's).
set(CMAKE_INSTALL_DOCDIR share/doc/5dpgn-db CACHE PATH "Documentation (README, LICENSE)")
include(GNUInstallDirs)

# 5d-query-serve beside 5d-query, which runs it for `5d-query serve`.
install(TARGETS 5d-index 5d-query 5d-query-serve RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES scripts/completions/5d-index scripts/completions/5d-query
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES LICENSE README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The man pages are the manuals docs/5d-index.md and docs/5d-query.md, made into roff by
# go-md2man (Debian package go-md2man) through cmake/manpage.cmake. Without it the build goes on
# without man pages and says so.
find_program(GO_MD2MAN go-md2man)
if(GO_MD2MAN)
  set(FIVED_MAN_5d-index "reads 5dpgn collections into a game database")
  set(FIVED_MAN_5d-query "searches a 5dpgn-db game database")
  set(man_pages)
  foreach(tool 5d-index 5d-query)
    set(page ${PROJECT_BINARY_DIR}/man/${tool}.1)
    add_custom_command(
      OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
      COMMAND ${CMAKE_COMMAND} -DGO_MD2MAN=${GO_MD2MAN} -DINPUT=${PROJECT_SOURCE_DIR}/docs/${tool}.md
              -DOUTPUT=${page} -DNAME=${tool} "-DSUMMARY=${FIVED_MAN_${tool}}"
              -DVERSION=${PROJECT_VERSION} -P ${PROJECT_SOURCE_DIR}/cmake/manpage.cmake
      DEPENDS ${PROJECT_SOURCE_DIR}/docs/${tool}.md ${PROJECT_SOURCE_DIR}/cmake/manpage.cmake
      COMMENT "Making the man page ${tool}.1 from docs/${tool}.md"
      VERBATIM)
    list(APPEND man_pages ${page})
  endforeach()
  add_custom_target(man_pages ALL DEPENDS ${man_pages})
  install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "go-md2man not found (Debian package go-md2man): the man pages are not built")
endif()

# cpack -G DEB in the build directory: 5dpgn-db_VERSION_ARCH.deb, its dependencies found by
# dpkg-shlibdeps (Debian package dpkg-dev) from the libraries the tools link.
set(CPACK_PACKAGE_NAME 5dpgn-db)
set(CPACK_PACKAGE_VENDOR "The 5dpgn-db authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
       "An indexer (5d-index) that reads collections of 5dpgn games, replays them under the full "
       "rules and stores them in SQLite, and a query tool (5d-query) that searches the database "
       "on the command line or as a web explorer in the browser.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "The 5dpgn-db authors")
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Loaded by 5d-index when it first reads a packed input (indexer/archive_library.h), so
# dpkg-shlibdeps cannot see it.
set(CPACK_DEBIAN_PACKAGE_DEPENDS libarchive13)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS bash-completion)
set(CPACK_STRIP_FILES ON)
include(CPack)
