// The brute force of the pattern tests, on text: a 5DFEN board's squares as tokens and a pattern
// token matched against one, written apart from core/pattern.h so that the tests hold the
// pattern index to something it does not share code with.
#ifndef FIVED_TESTS_QUERY_TEXT_BOARDS_H_
#define FIVED_TESTS_QUERY_TEXT_BOARDS_H_

#include <cctype>
#include <string>
#include <vector>

namespace fived::testing {

// The squares of a 5DFEN pieces field, top rank first: "K*", "p", "." (empty).
inline std::vector<std::string> SquareTokens(const std::string& pieces) {
  std::vector<std::string> out;
  for (size_t i = 0; i < pieces.size();) {
    const char c = pieces[i];
    if (c == '/') {
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      int run = 0;
      while (i < pieces.size() && std::isdigit(static_cast<unsigned char>(pieces[i]))) {
        run = run * 10 + (pieces[i++] - '0');
      }
      out.insert(out.end(), static_cast<size_t>(run), ".");
    } else {
      std::string token(1, c);
      ++i;
      if (i < pieces.size() && pieces[i] == '*') {
        token += '*';
        ++i;
      }
      out.push_back(token);
    }
  }
  return out;
}

// Whether the square token `square` ("K*", "p", ".") satisfies the pattern token `token`.
inline bool TokenAccepts(const std::string& token, const std::string& square) {
  if (token == "?") return true;
  if (token == ".") return square == ".";
  if (token == "!") return square != ".";
  if (token == "A") return square != "." && std::isupper(static_cast<unsigned char>(square[0]));
  if (token == "a") return square != "." && std::islower(static_cast<unsigned char>(square[0]));
  if (token.front() == '[') {
    const bool negated = token[1] == '^';
    // The listed items: a letter with its '*', '.', '!', 'A' or 'a'.
    bool any = false;
    for (size_t i = negated ? 2 : 1; i + 1 < token.size(); ++i) {
      std::string item(1, token[i]);
      if (i + 2 < token.size() && token[i + 1] == '*') item += token[++i];
      any = any || TokenAccepts(item, square);
    }
    return negated ? !any : any;
  }
  if (token.size() == 2) return square == token;  // "K*": unmoved only
  return square[0] == token[0];                   // a letter: moved or not
}

}  // namespace fived::testing

#endif  // FIVED_TESTS_QUERY_TEXT_BOARDS_H_
