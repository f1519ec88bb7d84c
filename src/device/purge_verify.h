// device/purge_verify.h — proof that a purge erased data: before the purge ptsuite writes a
// pattern (unique per purge) at sampled blocks across the whole capacity and reads it back;
// after the purge each sampled block must read as the expected erased value (zeroes, 0xFF
// per DLFEAT, or at least no longer the pattern). May use: core, model, block_access.
#pragma once

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "model/block_access.h"
#include "model/purge.h"

namespace pts::device {

/// What an erased block must read as.
enum class ErasedValue { Zeroes, Ones, NotPattern };

struct VerifySample {
  std::vector<uint64_t> offsets;  ///< byte offsets, block aligned, ascending, unique
  uint32_t block_bytes = 512;
  uint64_t nonce = 0;             ///< makes the pattern unique to this purge
};

/// Picks up to `count` blocks spread over the capacity: the first, the last, and one at a
/// pseudo-random position inside each equal stripe in between (seeded by `nonce`).
VerifySample plan_verify_sample(uint64_t capacity_bytes, uint32_t block_bytes, uint32_t count,
                                uint64_t nonce);

/// The pattern written at `offset` (never all-zero, never all-0xFF).
std::vector<uint8_t> pattern_block(uint64_t offset, uint32_t block_bytes, uint64_t nonce);

/// Writes the pattern at every sampled block, flushes, and reads it back. Fails (Device /
/// Io) when the pattern cannot be written or does not read back.
core::Status write_verify_pattern(model::BlockAccess& io, const VerifySample& sample);

/// Reads every sampled block after the purge and compares with `expected`.
model::PurgeVerification check_erased(model::BlockAccess& io, const VerifySample& sample,
                                      ErasedValue expected);

/// Plain-words description of an expectation, e.g. "zeroes (deallocated blocks read as zeroes)".
const char* describe(ErasedValue v);

}  // namespace pts::device
