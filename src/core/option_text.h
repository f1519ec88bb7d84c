// core/option_text.h — the one wording of a bad command-line value, shared by every module
// that checks an option (config's run options, app's access-spec and command options, the
// report formats, the purge method): "--bs: '3000' is not a block size (...)". The flag comes
// first, then the value as typed, then what is wrong with it. May use: the standard library.
#pragma once

#include <string>
#include <string_view>

namespace pts::core {

/// "FLAG: 'VALUE' WHAT", e.g. bad_option_value("--oio", "0", "is not a queue depth (1…4096)").
inline std::string bad_option_value(std::string_view flag, std::string_view value, std::string_view what) {
  std::string out(flag);
  out += ": '";
  out += value;
  out += "' ";
  out += what;
  return out;
}

}  // namespace pts::core
