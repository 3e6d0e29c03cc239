// Text from the input made safe to print on a terminal. Messages about games quote the input (an
// offending move, a header, a file name), and the input can hold anything: bytes that are not
// UTF-8, or control characters such as ESC, which a terminal reads as commands (move the cursor,
// change colours, retitle the window, erase the screen). Those are written escaped instead, so a
// message always shows what the input holds and never acts on the terminal. The database keeps
// the raw text; only what is printed for people goes through here.
#ifndef FIVED_CORE_UTF8_H_
#define FIVED_CORE_UTF8_H_

#include <string>
#include <string_view>

namespace fived {

// Returns `text` with every byte that could act on a terminal or is not part of valid UTF-8
// written as the four characters `\xNN` (NN: two lowercase hexadecimal digits of the byte):
//   - the C0 controls U+0000 to U+001F, tab and newline included (a message is one line), and
//     DEL (U+007F);
//   - the C1 controls U+0080 to U+009F (each of their two bytes, `\xc2\x9b`), which some
//     terminals obey like ESC sequences;
//   - every byte that does not start a well-formed UTF-8 sequence in the sense of the Unicode
//     standard (table 3-7): stray continuation bytes, truncated sequences, overlong forms,
//     surrogates (U+D800 to U+DFFF) and values above U+10FFFF. Decoding resumes at the next
//     byte, so a valid character right after a broken sequence is kept.
// Everything else is copied unchanged: printable ASCII, the backslash itself (so the output is
// not meant to be unescaped: a `\x41` in the input stays as is), and every other code point,
// letters of any script, CJK and emoji included. Valid UTF-8 without controls comes back
// identical. Pure and thread-safe; the result is a new string.
std::string EscapeForTerminal(std::string_view text);
// A message of several lines, each escaped as EscapeForTerminal does, the line breaks between them
// kept: messages quote what people typed and what files hold, and some point at a character of
// it with a caret on the line below. Pure and thread-safe.
std::string EscapeLinesForTerminal(std::string_view message);

}  // namespace fived

#endif  // FIVED_CORE_UTF8_H_
