// core/result.h — the one error type of ptsuite and a small Result<T> (g++ 12 has no
// <expected>). Every module returns failures as values; only app turns them into exit codes.
// May use: the standard library only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace pts::core {

/// What kind of failure, which also fixes the process exit code (design.md CLI contract).
enum class ErrorKind {
  Internal = 1,      ///< a bug or an unexpected environment failure
  BadInput = 2,      ///< flags, definition files, targets, CSVs: the operator's input
  Refused = 3,       ///< the destructive-target guard said no
  Device = 4,        ///< device or purge failure (admin command, verification)
  Io = 5,            ///< I/O error during a run
  Interrupted = 130  ///< SIGINT: stopped cleanly after the current cell
};

/// The process exit code for an error kind.
constexpr int exit_code(ErrorKind kind) { return static_cast<int>(kind); }

/// NVMe completion status as returned by the controller (kept apart from errno).
struct NvmeStatus {
  uint8_t sct = 0;  ///< Status Code Type
  uint8_t sc = 0;   ///< Status Code
  bool dnr = false; ///< Do Not Retry
};

/// One failure. `messages` holds every problem found (config validation reports all at
/// once); `message()` joins them. `sys_errno` and `nvme` keep the two device error channels
/// apart so neither is lost.
struct Error {
  ErrorKind kind = ErrorKind::Internal;
  std::vector<std::string> messages;
  int sys_errno = 0;
  std::optional<NvmeStatus> nvme;

  Error() = default;
  Error(ErrorKind k, std::string msg, int err = 0) : kind(k), messages{std::move(msg)}, sys_errno(err) {}
  Error(ErrorKind k, std::vector<std::string> msgs) : kind(k), messages(std::move(msgs)) {}

  /// All messages, one per line.
  std::string message() const {
    std::string out;
    for (size_t i = 0; i < messages.size(); ++i) {
      if (i) out += '\n';
      out += messages[i];
    }
    return out;
  }
};

inline Error bad_input(std::string msg) { return Error(ErrorKind::BadInput, std::move(msg)); }

/// A value or an Error. Deliberately small: check ok(), then value() or error().
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  T& operator*() & { return std::get<0>(v_); }
  const T& operator*() const& { return std::get<0>(v_); }
  const Error& error() const { return std::get<1>(v_); }
  Error&& take_error() { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Error> v_;
};

/// Result for operations with no value.
struct Ok {};
using Status = Result<Ok>;
inline Status ok_status() { return Ok{}; }

}  // namespace pts::core
