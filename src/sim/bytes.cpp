// sim/bytes.cpp — see bytes.h.
#include "sim/bytes.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>

namespace pts::sim {

uint64_t checksum64(const void* data, size_t n, uint64_t seed) {
  constexpr uint64_t k1 = 0x9E3779B185EBCA87ull, k2 = 0xC2B2AE3D27D4EB4Full;
  const auto* p = static_cast<const uint8_t*>(data);
  uint64_t h[4] = {seed ^ k1, seed ^ k2, seed + k1, seed - k2};
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {  // four independent lanes keep the multiplier busy
    for (int l = 0; l < 4; ++l) {
      uint64_t w;
      std::memcpy(&w, p + i + 8 * l, 8);
      h[l] = ((h[l] ^ w) * k1);
      h[l] = (h[l] << 31) | (h[l] >> 33);
    }
  }
  uint64_t acc = h[0] ^ (h[1] * k2) ^ (h[2] * k1) ^ (h[3] + k2) ^ n;
  for (; i < n; ++i) acc = (acc ^ p[i]) * k1;
  acc ^= acc >> 29;
  acc *= k2;
  acc ^= acc >> 32;
  return acc;
}

namespace {
constexpr size_t kBlock = 1 << 20;
uint64_t fold(uint64_t acc, uint64_t block_sum, uint64_t index) {
  return (acc ^ block_sum ^ index) * 0x9E3779B185EBCA87ull + 0x165667B19E3779F9ull;
}
}  // namespace

void Checksum::update(const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    if (pending_.empty() && n >= kBlock) {
      acc_ = fold(acc_, checksum64(p, kBlock, blocks_), blocks_);
      ++blocks_;
      p += kBlock;
      n -= kBlock;
      continue;
    }
    const size_t take = std::min(n, kBlock - pending_.size());
    pending_.insert(pending_.end(), p, p + take);
    p += take;
    n -= take;
    if (pending_.size() == kBlock) {
      acc_ = fold(acc_, checksum64(pending_.data(), kBlock, blocks_), blocks_);
      ++blocks_;
      pending_.clear();
    }
  }
}

uint64_t Checksum::final() const {
  uint64_t acc = acc_;
  if (!pending_.empty()) acc = fold(acc, checksum64(pending_.data(), pending_.size(), blocks_), blocks_);
  return acc ^ (blocks_ * kBlock + pending_.size());
}

namespace {

// Token: u32 = (kind << 30) | length; kind 0 = literal values follow, 1 = one value repeated,
// 2 = a start value then +1 per element. Runs shorter than kMinRun stay literal.
constexpr uint32_t kLiteral = 0, kRepeat = 1, kStep = 2;
constexpr uint32_t kMaxLen = (1u << 30) - 1;
constexpr size_t kMinRun = 8;

size_t run_at(const uint32_t* w, size_t i, size_t n, uint32_t& kind) {
  if (i + 1 >= n) return 1;
  const uint32_t d = w[i + 1] - w[i];
  if (d != 0 && d != 1) return 1;
  size_t j = i + 1;
  while (j + 1 < n && w[j + 1] - w[j] == d && j - i < kMaxLen) ++j;
  kind = d == 0 ? kRepeat : kStep;
  return j - i + 1;
}

}  // namespace

void rle_encode(const uint32_t* w, size_t n, ByteWriter& out) {
  size_t i = 0, lit_start = 0;
  auto flush_literals = [&](size_t end) {
    while (lit_start < end) {
      const size_t len = std::min<size_t>(end - lit_start, kMaxLen);
      out.u32((kLiteral << 30) | static_cast<uint32_t>(len));
      out.raw(w + lit_start, len * 4);
      lit_start += len;
    }
  };
  while (i < n) {
    uint32_t kind = kLiteral;
    const size_t len = run_at(w, i, n, kind);
    if (len >= kMinRun) {
      flush_literals(i);
      out.u32((kind << 30) | static_cast<uint32_t>(len));
      out.u32(w[i]);
      i += len;
      lit_start = i;
    } else {
      i += len;
    }
  }
  flush_literals(n);
}

bool rle_decode(ByteReader& in, uint32_t* w, size_t n, bool zeroed) {
  size_t i = 0;
  while (i < n) {
    const uint32_t tok = in.u32();
    if (in.failed()) return false;
    const uint32_t kind = tok >> 30, len = tok & kMaxLen;
    if (len == 0 || len > n - i) return false;
    if (kind == kLiteral) {
      if (in.left() < size_t(len) * 4) return false;
      in.raw(w + i, size_t(len) * 4);
    } else if (kind == kRepeat || kind == kStep) {
      const uint32_t v = in.u32();
      const uint32_t step = kind == kStep ? 1 : 0;
      if (!(zeroed && v == 0 && step == 0))
        for (uint32_t k = 0; k < len; ++k) w[i + k] = v + k * step;
    } else {
      return false;
    }
    i += len;
  }
  return !in.failed();
}

void* big_alloc(size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

void big_zero(void* p, size_t bytes) {
  if (!p) return;
  if (madvise(p, bytes, MADV_DONTNEED) != 0) std::memset(p, 0, bytes);
  madvise(p, bytes, MADV_HUGEPAGE);
}

namespace {
constexpr uintptr_t kPageMask = 4096 - 1;  ///< x86-64 base pages
}  // namespace

void release_mapped(const void* p, size_t n) {
  const uintptr_t lo = (reinterpret_cast<uintptr_t>(p) + kPageMask) & ~kPageMask;
  const uintptr_t hi = (reinterpret_cast<uintptr_t>(p) + n) & ~kPageMask;
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
}

void ByteReader::release_read() {
  release_mapped(p_ + released_, at_ - released_);
  // Next time from the start of the page the read position is in (its start was kept).
  const size_t into_page = (reinterpret_cast<uintptr_t>(p_) + at_) & kPageMask;
  released_ = std::max(released_, at_ > into_page ? at_ - into_page : size_t{0});
}

void big_free(void* p, size_t bytes) {
  if (p) munmap(p, bytes);
}

}  // namespace pts::sim
