// unit-tests/engine/write_data_test.cpp — the write-data pool: a write that runs past the end
// of the shared pool wraps to its start with the key still stepping (no word repeats inside
// one write, even one longer than the pool), the same key after reset() gives the same bytes
// (a cell's data follows from its seed), and two keys on the same window share no word.
#include <gtest/gtest.h>

#include <cstring>
#include <unordered_set>
#include <vector>

#include "engine/write_data.h"

using pts::engine::WriteData;

namespace {

std::vector<uint64_t> words_of(const std::vector<uint8_t>& bytes) {
  std::vector<uint64_t> w(bytes.size() / 8);
  std::memcpy(w.data(), bytes.data(), w.size() * 8);
  return w;
}

}  // namespace

TEST(WriteData, AWriteLongerThanThePoolRepeatsNoWord) {
  WriteData data;
  data.reset();
  std::vector<uint8_t> out(3 * WriteData::kPoolBytes + 4096);  // wraps three times, 4 KiB past the end
  data.fill(out.data(), static_cast<uint32_t>(out.size()), 0x1234);
  const auto words = words_of(out);
  const std::unordered_set<uint64_t> distinct(words.begin(), words.end());
  EXPECT_EQ(distinct.size(), words.size());
}

TEST(WriteData, AWriteStraddlingThePoolEndContinuesAtItsStart) {
  WriteData a, b;
  a.reset();
  b.reset();
  const uint32_t block = 3 * 4096;  // the pool is no multiple of 12 KiB: some write straddles the end
  std::vector<uint8_t> out(block), first(block);
  b.fill(first.data(), block, 7);  // the pool's first window, key 7
  size_t written = 0;
  for (uint64_t k = 1; written + block <= WriteData::kPoolBytes; ++k, written += block) a.fill(out.data(), block, k);
  const uint64_t straddle_key = 1000;
  a.fill(out.data(), block, straddle_key);  // starts kPoolBytes - written before the end
  const size_t tail_words = (WriteData::kPoolBytes - written) / 8;
  ASSERT_GT(tail_words, 0u);
  ASSERT_LT(tail_words, block / 8u);
  // Past the wrap, word i of this write is pool word (i - tail_words) XOR its own mask; the
  // first window under key 7 is the same pool word XOR key 7's mask: the XOR of the two is
  // the difference of the masks alone.
  const auto w = words_of(out), f = words_of(first);
  for (size_t i = tail_words; i < w.size(); ++i) {
    const uint64_t mask_here = straddle_key + i * 0x9e3779b97f4a7c15ull;
    const uint64_t mask_first = 7 + (i - tail_words) * 0x9e3779b97f4a7c15ull;
    ASSERT_EQ(w[i] ^ mask_here, f[i - tail_words] ^ mask_first) << "word " << i;
  }
}

TEST(WriteData, TheSameKeysAfterResetGiveTheSameBytesAndOtherKeysShareNoWord) {
  WriteData data;
  data.reset();
  std::vector<uint8_t> one(4096), two(4096), other(4096);
  data.fill(one.data(), 4096, 42);
  data.reset();
  data.fill(two.data(), 4096, 42);
  EXPECT_EQ(one, two);
  data.reset();
  data.fill(other.data(), 4096, 43);
  const auto a = words_of(one), c = words_of(other);
  const std::unordered_set<uint64_t> seen(a.begin(), a.end());
  for (uint64_t w : c) EXPECT_EQ(seen.count(w), 0u);
}

TEST(WriteData, EachWordIsThePoolWordXorTheKeyStepped) {
  // The definition, word by word, for any length (odd word counts exercise the two-words-at-a-
  // time path's tail): word i of a write keyed k is pool[cursor + i] ^ (k + i * step). The
  // pool is read back through key 0 (word i = pool[i] ^ i * step).
  constexpr uint64_t kStep = 0x9e3779b97f4a7c15ull;
  for (uint32_t words : {1u, 2u, 3u, 511u, 512u, 513u}) {
    WriteData zero, keyed;
    zero.reset();
    keyed.reset();
    std::vector<uint64_t> pool_words(words), out(words);
    zero.fill(reinterpret_cast<uint8_t*>(pool_words.data()), words * 8, 0);
    const uint64_t key = 0x0123456789abcdefull + words;
    keyed.fill(reinterpret_cast<uint8_t*>(out.data()), words * 8, key);
    for (uint32_t i = 0; i < words; ++i) {
      const uint64_t pool = pool_words[i] ^ (i * kStep);
      ASSERT_EQ(out[i], pool ^ (key + i * kStep)) << words << " words, word " << i;
    }
  }
}
