// device/sysfs.h — small readers for /sys and /proc files. Every path is joined to a root
// prefix ("" on a real system, a temp tree in tests). May use: std, POSIX.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pts::device::sysfs {

/// Whole file, or nullopt when it cannot be read.
std::optional<std::string> read_text(const std::string& path);
/// Whole file; on failure nullopt and `err` = the errno of the failed open or read.
std::optional<std::string> read_text(const std::string& path, int& err);
/// First line, surrounding blanks removed; nullopt when missing.
std::optional<std::string> read_line(const std::string& path);
/// Entry names of a directory (no "." / ".."), sorted; empty when missing.
std::vector<std::string> list_dir(const std::string& path);
bool exists(const std::string& path);
/// Target of a symlink, or nullopt.
std::optional<std::string> read_link(const std::string& path);
/// Target of a symlink; on failure nullopt and `err` = errno.
std::optional<std::string> read_link(const std::string& path, int& err);
/// Text with leading and trailing blanks removed.
std::string trim(std::string s);

}  // namespace pts::device::sysfs
