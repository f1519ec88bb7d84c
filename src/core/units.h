// core/units.h — size parsing and formatting with explicit units (KiB = 1024 B, MB = 10^6 B,
// as the PTS uses them). May use: std only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pts::core {

constexpr uint64_t KiB = 1024;
constexpr uint64_t MiB = 1024 * KiB;
constexpr uint64_t GiB = 1024 * MiB;
constexpr double MB = 1e6;  ///< throughput unit: MB/s = 10^6 bytes per second

/// Parses "4096", "4k", "4K", "4KiB", "0.5k", "128k", "1m", "2g", "1t" into bytes (binary
/// multiples). Returns nullopt for anything else, including non-integral byte counts.
std::optional<uint64_t> parse_size_bytes(std::string_view text);

/// Block size in SNIA style: "0.5 KiB", "4 KiB", "1024 KiB"; other sizes as "<n> B".
std::string format_block_size(uint64_t bytes);

/// Human capacity: "256.0 GiB", "512 B".
std::string format_bytes(uint64_t bytes);

}  // namespace pts::core
