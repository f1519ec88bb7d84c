// core/utf8.h — bytes that are not UTF-8 (a drive's serial or model, a path) must never abort
// a JSON write: valid_utf8() replaces every invalid sequence with U+FFFD, so what is kept in
// memory equals what a record says. May use: std.
#pragma once

#include <string>
#include <string_view>

namespace pts::core {

/// `text` with each byte that does not start or continue a well-formed UTF-8 sequence (RFC
/// 3629: no overlongs, no surrogates, ≤ U+10FFFF) replaced by U+FFFD.
std::string valid_utf8(std::string_view text);

}  // namespace pts::core
