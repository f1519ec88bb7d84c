// sim/bytes.h — little-endian binary encoding for the state file: a growable writer, a
// bounds-checked reader, a fast 64-bit checksum, run-length coding of large word arrays
// (runs of equal values and of +1 steps, so a fresh or sequentially written mapping table
// takes a few bytes), and page-aligned big arrays with transparent huge pages.
// May use: std, POSIX mmap.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace pts::sim {

/// Streaming checksum over 1 MiB blocks: the same value however the bytes are split.
class Checksum {
 public:
  void update(const void* data, size_t n);
  uint64_t final() const;

 private:
  std::vector<uint8_t> pending_;
  uint64_t acc_ = 0;
  uint64_t blocks_ = 0;
};

/// Little-endian encoder into a buffer; with a sink, the buffer is handed to the sink (and
/// cleared) whenever it passes 8 MiB, and a piece of 8 MiB or more goes to the sink without
/// being buffered, so a multi-gigabyte snapshot streams to its file in bounded memory.
class ByteWriter {
 public:
  static constexpr size_t kFlushBytes = size_t{8} << 20;
  using Sink = bool (*)(void* ctx, const uint8_t* data, size_t n);
  void set_sink(Sink sink, void* ctx) { sink_ = sink; ctx_ = ctx; }
  /// Hands the buffered bytes to the sink; false when the sink failed (then or earlier).
  bool flush() {
    if (sink_ && !buf_.empty()) {
      if (!sink_(ctx_, buf_.data(), buf_.size())) sink_failed_ = true;
      buf_.clear();
    }
    return !sink_failed_;
  }
  void u8(uint8_t v) { buf_.push_back(v); }
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void f64(double v) { raw(&v, 8); }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    raw(s.data(), s.size());
  }
  void raw(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    if (sink_ && n >= kFlushBytes) {  // a large piece (a table's literal run) goes to the sink
      flush();                        // as it is: copying it first cost a second table
      if (!sink_failed_ && !sink_(ctx_, b, n)) sink_failed_ = true;
      return;
    }
    buf_.insert(buf_.end(), b, b + n);
    if (sink_ && buf_.size() >= kFlushBytes) flush();
  }
  std::vector<uint8_t>& bytes() { return buf_; }
  size_t size() const { return buf_.size(); }

 private:
  std::vector<uint8_t> buf_;
  Sink sink_ = nullptr;
  void* ctx_ = nullptr;
  bool sink_failed_ = false;
};

/// Reads what ByteWriter wrote; any read past the end sets failed() and returns zeros.
class ByteReader {
 public:
  ByteReader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  uint8_t u8() { uint8_t v = 0; raw(&v, 1); return v; }
  uint32_t u32() { uint32_t v = 0; raw(&v, 4); return v; }
  uint64_t u64() { uint64_t v = 0; raw(&v, 8); return v; }
  double f64() { double v = 0; raw(&v, 8); return v; }
  std::string str() {
    const uint32_t n = u32();
    if (n > n_ - at_) { failed_ = true; return {}; }
    std::string s(reinterpret_cast<const char*>(p_ + at_), n);
    at_ += n;
    return s;
  }
  void raw(void* out, size_t n) {
    if (failed_ || n > n_ - at_) {
      failed_ = true;
      std::memset(out, 0, n);
      return;
    }
    if (!release_) {
      std::memcpy(out, p_ + at_, n);
      at_ += n;
      return;
    }
    for (size_t done = 0; done < n;) {  // in pieces, each one's pages dropped once read
      const size_t k = std::min(n - done, kReleaseBytes);
      std::memcpy(static_cast<uint8_t*>(out) + done, p_ + at_, k);
      at_ += k;
      done += k;
      if (at_ - released_ >= kReleaseBytes) release_read();
    }
  }
  /// For a reader over a read-only file mapping: every 8 MiB read, the whole pages behind
  /// the read position leave this process's memory (they stay in the page cache and fault
  /// back in if read again), so decoding a multi-gigabyte snapshot costs its tables, not
  /// the file as well.
  void release_behind() { release_ = true; }
  const uint8_t* here() const { return p_ + at_; }
  size_t left() const { return n_ - at_; }
  void skip(size_t n) {
    if (n > n_ - at_) failed_ = true;
    else at_ += n;
    if (release_ && at_ - released_ >= kReleaseBytes) release_read();
  }
  bool failed() const { return failed_; }
  bool done() const { return at_ == n_; }

 private:
  static constexpr size_t kReleaseBytes = size_t{8} << 20;
  void release_read();  ///< drops the whole pages in [released_, at_)
  const uint8_t* p_;
  size_t n_;
  size_t at_ = 0;
  size_t released_ = 0;
  bool release_ = false;
  bool failed_ = false;
};

/// Drops the whole pages inside [p, p + n) of a read-only file mapping from this process's
/// memory (madvise MADV_DONTNEED: they stay in the page cache).
void release_mapped(const void* p, size_t n);

/// A 64-bit checksum of `n` bytes (multiply-rotate over 8-byte words; not cryptographic).
uint64_t checksum64(const void* data, size_t n, uint64_t seed = 0);

/// Appends the run-length coded form of `words` (count values) to `out`.
void rle_encode(const uint32_t* words, size_t count, ByteWriter& out);
/// Decodes exactly `count` values into `words`; false when the input is malformed. With
/// `zeroed` the words are all zero already (BigArray::zero()): runs of zeroes are skipped,
/// so the pages they cover are never touched (a fresh drive's 4 GB of state stays unmapped).
bool rle_decode(ByteReader& in, uint32_t* words, size_t count, bool zeroed = false);

/// Brings the line holding `p` into every cache level for a write. An asm statement, not
/// __builtin_prefetch: GCC 12 -O2 dropped the builtin where its address came from a loaded
/// table entry (Ftl::prefetch_old, the map thread's look-ahead: no prefetch instruction left
/// in the disassembly).
inline void prefetch_line(const void* p) { asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p))); }

/// A zero-filled array of trivially copyable T in its own anonymous mapping (huge pages
/// advised), so a 2 GB mapping table costs no copy and no page-by-page faulting overhead.
template <typename T>
class BigArray {
 public:
  BigArray() = default;
  explicit BigArray(size_t count) { allocate(count); }
  ~BigArray() { release(); }
  BigArray(const BigArray&) = delete;
  BigArray& operator=(const BigArray&) = delete;
  BigArray(BigArray&& o) noexcept : p_(o.p_), n_(o.n_), bytes_(o.bytes_) { o.p_ = nullptr; o.n_ = o.bytes_ = 0; }
  BigArray& operator=(BigArray&& o) noexcept {
    if (this != &o) {
      release();
      p_ = o.p_; n_ = o.n_; bytes_ = o.bytes_;
      o.p_ = nullptr; o.n_ = o.bytes_ = 0;
    }
    return *this;
  }
  T& operator[](size_t i) { return p_[i]; }
  const T& operator[](size_t i) const { return p_[i]; }
  T* data() { return p_; }
  const T* data() const { return p_; }
  size_t size() const { return n_; }
  /// Back to all zeroes, returning the memory (the pages are mapped again on first use).
  void zero();

 private:
  void allocate(size_t count);
  void release();
  T* p_ = nullptr;
  size_t n_ = 0;
  size_t bytes_ = 0;
};

void* big_alloc(size_t bytes);
void big_free(void* p, size_t bytes);

template <typename T>
void BigArray<T>::allocate(size_t count) {
  bytes_ = count * sizeof(T);
  n_ = count;
  p_ = static_cast<T*>(big_alloc(bytes_));
}
template <typename T>
void BigArray<T>::release() {
  if (p_) big_free(p_, bytes_);
  p_ = nullptr;
}
void big_zero(void* p, size_t bytes);
template <typename T>
void BigArray<T>::zero() {
  big_zero(p_, bytes_);
}

}  // namespace pts::sim
