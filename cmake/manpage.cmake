# Makes a man page from a manual in docs/ (run as a script by the build, cmake/install.cmake):
#   cmake -DGO_MD2MAN=... -DINPUT=docs/5d-index.md -DOUTPUT=5d-index.1 -DNAME=5d-index
#         -DSUMMARY="..." -DVERSION=0.9.0 -P cmake/manpage.cmake
# The manual stays the one source: its Markdown is written for a reader on the web (a title, "##"
# sections, links to the other pages), so this script first turns it into what go-md2man expects
# of a man page (a title block, NAME, sections as "#", no links or pictures), lets go-md2man write
# roff, then mends the roff where go-md2man leaves a text line starting with "." or "'", which
# roff would take for a request and drop.
foreach(variable GO_MD2MAN INPUT OUTPUT NAME SUMMARY VERSION)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "manpage.cmake: -D${variable}=... is missing")
  endif()
endforeach()

file(READ "${INPUT}" text)
# The page's own title becomes the man page's title block and NAME section.
string(REGEX REPLACE "^# [^\n]*\n" "" text "${text}")
# go-md2man makes "#" and "##" sections (.SH) and "###" subsections (.SS), as the manuals have
# them. The paragraphs before the first section are the DESCRIPTION, after the SYNOPSIS when the
# first section is that.
string(FIND "${text}" "\n## " first_section)
if(first_section GREATER_EQUAL 0)
  string(SUBSTRING "${text}" 0 ${first_section} introduction)
  math(EXPR rest_start "${first_section} + 1")
  string(SUBSTRING "${text}" ${rest_start} -1 text)
else()
  set(introduction "${text}")
  set(text "")
endif()
set(description "## Description\n\n${introduction}\n\n")
if(text MATCHES "^## Synopsis\n")
  string(SUBSTRING "${text}" 1 -1 after_title)
  string(FIND "${after_title}" "\n## " next_section)
  if(next_section GREATER_EQUAL 0)
    math(EXPR next_section "${next_section} + 2")
    string(SUBSTRING "${text}" 0 ${next_section} synopsis)
    string(SUBSTRING "${text}" ${next_section} -1 text)
  else()
    set(synopsis "${text}\n")
    set(text "")
  endif()
  set(text "${synopsis}${description}${text}")
else()
  set(text "${description}${text}")
endif()
# Pictures are left out; a link to another page keeps its text (the man page has no such files).
string(REGEX REPLACE "!\\[[^]\n]*\\]\\([^)\n]*\\)\n*" "" text "${text}")
string(REGEX REPLACE "\\[([^]\n]*)\\]\\([^):\n]*\\)" "\\1" text "${text}")

string(TOUPPER "${NAME}" title)
set(markdown "% ${title} 1 \"\" \"5dpgn-db ${VERSION}\" \"5dpgn-db manual\"\n\n")
string(APPEND markdown "# NAME\n${NAME} - ${SUMMARY}\n\n${text}")
set(temporary "${OUTPUT}.md")
file(WRITE "${temporary}" "${markdown}")
execute_process(COMMAND "${GO_MD2MAN}" -in "${temporary}" -out "${OUTPUT}.roff"
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "manpage.cmake: ${GO_MD2MAN} failed on ${INPUT} (${status})")
endif()

file(READ "${OUTPUT}.roff" roff)
# Every line that starts with "." or "'" gets "\&" (a zero-width character, so the line is text),
# then the requests go-md2man writes itself are given back their dot. A line of text that starts
# like one of them would still be taken as a request; the manuals have none.
string(PREPEND roff "\n")
string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" roff "${roff}")
foreach(request TH SH SS PP RS RE IP TP nf fi nh TS TE br sp B I)
  string(REGEX REPLACE "\n\\\\&\\.${request}([ \n])" "\n.${request}\\1" roff "${roff}")
endforeach()
# Section titles in capitals, as man pages have them (a title with roff escapes as it is).
string(REGEX MATCHALL "\n\\.SH [^\\\n]*\n" sections "${roff}")
foreach(section IN LISTS sections)
  string(TOUPPER "${section}" upper)
  string(REPLACE "${section}" "${upper}" roff "${roff}")
endforeach()
string(SUBSTRING "${roff}" 1 -1 roff)
file(WRITE "${OUTPUT}" "${roff}")
file(REMOVE "${temporary}" "${OUTPUT}.roff")
