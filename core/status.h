// The one error type of every library. A Status says whether an operation succeeded and, when it
// did not, what kind of failure it was (StatusCode), a message for people, the code of the library
// underneath when there is one (SQLite's extended result code), and, for text read a character at
// a time (a pattern, moves, a 5dpgn file), the place at fault. Result<T> is a value or the Status
// that prevented it. Libraries return these and print nothing; a tool's main() prints the message
// and picks its exit status from the code.
#ifndef FIVED_CORE_STATUS_H_
#define FIVED_CORE_STATUS_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace fived {

enum class StatusCode : uint8_t {
  kOk = 0,
  kInvalidArgument,  // input that does not read, a request that is wrong: the message says why
  kNotFound,         // what was asked for does not exist (a game id)
  kDatabase,         // the database could not be read or written, or holds what it should not
  kIo,               // a file (an input, not the database) could not be opened or read
};

// Where in a text a problem is. The message already says it; these let a program point at the
// character (the server adds them to its answer) or keep the parts apart (the indexer stores a
// rejected game's line, column and token).
struct Place {
  std::string parameter;  // the request's parameter holding the text; empty for a file
  int index = 0;          // which of the parameter's values, from 0
  size_t line = 0;        // 1-based; 0 when the text is one line
  size_t column = 0;      // 1-based; 0 when the problem is about no one character
  std::string reason;     // the reason alone, without the place or the text
  std::string token;      // the offending text as written (a move, a header); may be empty
  int action = 0;         // in a game's moves, the 1-based action at fault; 0 when none
};

// Success, or a failure with its code and message. Copyable; thread-compatible.
class [[nodiscard]] Status {
 public:
  // Success.
  Status() = default;
  // A failure (`code` is not kOk). `detail` is the code of the library underneath (SQLite's
  // extended result code for kDatabase), 0 when none.
  Status(StatusCode code, std::string message, int detail = 0)
      : code_(code), detail_(detail), message_(std::move(message)) {
    assert(code != StatusCode::kOk);
  }

  static Status InvalidArgument(std::string message) {
    return Status(StatusCode::kInvalidArgument, std::move(message));
  }
  static Status NotFound(std::string message) {
    return Status(StatusCode::kNotFound, std::move(message));
  }
  static Status Database(std::string message, int detail = 0) {
    return Status(StatusCode::kDatabase, std::move(message), detail);
  }
  static Status Io(std::string message) { return Status(StatusCode::kIo, std::move(message)); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  // One line for people (several when a caret points at a character on the line below); empty
  // on success.
  const std::string& message() const { return message_; }
  int detail() const { return detail_; }
  // The extension stripped from detail() (SQLite's primary result code).
  int primary_detail() const { return detail_ & 0xff; }
  const std::optional<Place>& place() const { return place_; }
  // Sets the place and returns the status, for `return Status::InvalidArgument(...).At(...)`.
  Status&& At(Place place) && {
    place_ = std::move(place);
    return std::move(*this);
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  int detail_ = 0;
  std::string message_;
  std::optional<Place> place_;
};

// A failure to read the one-line `text` at the character in `column` (1-based): kInvalidArgument,
// the place (column and reason) and the message "col 7: reason" followed by the text and a caret
// under the column, each on a line of its own indented by two spaces.
inline Status TextErrorAt(std::string_view text, size_t column, std::string reason) {
  std::string message = "col " + std::to_string(column) + ": " + reason + "\n  ";
  message += text;
  message += "\n  ";
  message.append(column > 0 ? column - 1 : 0, ' ');
  message += '^';
  Place place;
  place.column = column;
  place.reason = std::move(reason);
  return Status::InvalidArgument(std::move(message)).At(std::move(place));
}

// A value, or the failed Status that prevented it. Check ok() before value(); value() on a
// failure and error() on a value are bugs (asserted).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::in_place_index<0>, std::move(value)) {}
  Result(Status error) : value_(std::in_place_index<1>, std::move(error)) {
    assert(!std::get_if<1>(&value_)->ok());
  }

  bool ok() const { return value_.index() == 0; }
  T& value() & {
    assert(ok());
    return *std::get_if<0>(&value_);
  }
  const T& value() const& {
    assert(ok());
    return *std::get_if<0>(&value_);
  }
  T&& value() && {
    assert(ok());
    return std::move(*std::get_if<0>(&value_));
  }
  const Status& error() const {
    assert(!ok());
    return *std::get_if<1>(&value_);
  }
  // The failure, or success when there is a value.
  Status status() const { return ok() ? Status() : error(); }

 private:
  std::variant<T, Status> value_;
};

}  // namespace fived

#endif  // FIVED_CORE_STATUS_H_
