// device/purge_verify.cpp — sampled pattern write before a purge, erased check after it.
// May use: core, model, block_access.
#include "device/purge_verify.h"

#include <algorithm>
#include <cstring>

namespace pts::device {

namespace {

/// splitmix64: small, good enough to spread samples and fill patterns.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

bool all_equal(const std::vector<uint8_t>& b, uint8_t v) {
  return std::all_of(b.begin(), b.end(), [v](uint8_t x) { return x == v; });
}

}  // namespace

const char* describe(ErasedValue v) {
  switch (v) {
    case ErasedValue::Zeroes: return "zeroes";
    case ErasedValue::Ones: return "0xFF bytes";
    case ErasedValue::NotPattern: return "anything but the pattern written before the purge";
  }
  return "";
}

VerifySample plan_verify_sample(uint64_t capacity_bytes, uint32_t block_bytes, uint32_t count,
                                uint64_t nonce) {
  VerifySample s;
  s.block_bytes = block_bytes;
  s.nonce = nonce;
  const uint64_t blocks = block_bytes ? capacity_bytes / block_bytes : 0;
  if (blocks == 0 || count == 0) return s;
  s.offsets.push_back(0);
  if (blocks > 1 && count > 1) s.offsets.push_back((blocks - 1) * block_bytes);
  if (count > 2 && blocks > 2) {
    const uint64_t inner = blocks - 2, stripes = std::min<uint64_t>(count - 2, inner);
    for (uint64_t i = 0; i < stripes; ++i) {
      const uint64_t lo = 1 + inner * i / stripes, hi = 1 + inner * (i + 1) / stripes;
      s.offsets.push_back((lo + mix(nonce + i) % (hi - lo)) * block_bytes);
    }
  }
  std::sort(s.offsets.begin(), s.offsets.end());
  s.offsets.erase(std::unique(s.offsets.begin(), s.offsets.end()), s.offsets.end());
  return s;
}

std::vector<uint8_t> pattern_block(uint64_t offset, uint32_t block_bytes, uint64_t nonce) {
  std::vector<uint8_t> b(block_bytes);
  uint64_t state = mix(nonce ^ offset);
  for (size_t i = 0; i < b.size(); i += 8) {
    state = mix(state);
    std::memcpy(b.data() + i, &state, std::min<size_t>(8, b.size() - i));
  }
  std::memcpy(b.data(), "PTSUITE!", std::min<size_t>(8, b.size()));  // never 0x00/0xFF only
  return b;
}

core::Status write_verify_pattern(model::BlockAccess& io, const VerifySample& sample) {
  for (uint64_t off : sample.offsets) {
    auto p = pattern_block(off, sample.block_bytes, sample.nonce);
    if (auto st = io.write_at(off, p); !st.ok()) return st.error();
  }
  if (auto st = io.flush(); !st.ok()) return st.error();
  std::vector<uint8_t> back(sample.block_bytes);
  for (uint64_t off : sample.offsets) {
    if (auto st = io.read_at(off, back); !st.ok()) return st.error();
    if (back != pattern_block(off, sample.block_bytes, sample.nonce))
      return core::Error(core::ErrorKind::Device,
                         "purge verification: the pattern written at byte " + std::to_string(off) +
                             " did not read back before the purge");
  }
  return core::ok_status();
}

model::PurgeVerification check_erased(model::BlockAccess& io, const VerifySample& sample,
                                      ErasedValue expected) {
  model::PurgeVerification v;
  v.performed = true;
  v.expectation = describe(expected);
  v.sampled_blocks = static_cast<uint32_t>(sample.offsets.size());
  std::vector<uint8_t> back(sample.block_bytes);
  uint32_t wrong_value = 0;
  std::string first_bad;
  for (uint64_t off : sample.offsets) {
    if (auto st = io.read_at(off, back); !st.ok()) {
      v.passed = false;
      v.detail = "read at byte " + std::to_string(off) + " failed: " + st.error().message();
      return v;
    }
    const bool pattern = back == pattern_block(off, sample.block_bytes, sample.nonce);
    if (pattern) ++v.blocks_still_holding_pattern;
    bool ok = !pattern;
    if (expected == ErasedValue::Zeroes) ok = all_equal(back, 0x00);
    if (expected == ErasedValue::Ones) ok = all_equal(back, 0xFF);
    if (!ok) {
      if (!pattern) ++wrong_value;
      if (first_bad.empty()) first_bad = std::to_string(off);
    }
  }
  v.passed = first_bad.empty() && !sample.offsets.empty();
  if (sample.offsets.empty()) {
    v.detail = "no block to sample";
  } else if (v.passed) {
    v.detail = std::to_string(v.sampled_blocks) + " sampled blocks read as " + v.expectation;
  } else {
    v.detail = std::to_string(v.blocks_still_holding_pattern) + " of " +
               std::to_string(v.sampled_blocks) + " sampled blocks still hold the pattern, " +
               std::to_string(wrong_value) + " hold other data; first at byte " + first_bad;
  }
  return v;
}

}  // namespace pts::device
