#include "sim/common/content_hash.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace ptosim {

namespace {

std::string hex16(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
  return buf;
}

// Multipliers: the fractional parts of sqrt(2), sqrt(3), sqrt(5), sqrt(7)
// (numbers nobody chose to hide a weakness in).
constexpr uint64_t kMul[4] = {0x6a09e667f3bcc909ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull,
                              0xa54ff53a5f1d36f1ull};
constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ull;  // 2^64 / phi, odd

inline uint64_t load_le64(const unsigned char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap64(w);
#endif
  return w;
}

// The lane xor the word, multiplied into 128 bits, folded (high half xor
// low half). A 64-bit product carries a change only upward, so a change in
// a word's top bits would reach only the lane's top bits, and two-bit
// changes of later words could cancel it (the unit test finds such pairs
// for a multiply and xor-shift); the 128-bit product spreads a change of any
// bit over both halves.
inline uint64_t fold_mul(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__)
  const unsigned __int128 p = (unsigned __int128)a * b;
  return uint64_t(p) ^ uint64_t(p >> 64);
#else
  const uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  const uint64_t lo = (p00 & 0xffffffffu) | (mid << 32);
  const uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  return lo ^ hi;
#endif
}

inline uint64_t step(uint64_t lane, uint64_t word, uint64_t mul) { return fold_mul(lane ^ word, mul); }

// Every input bit reaches every output bit: alternate xor-shifts (high bits
// down) and odd multiplies (low bits up).
inline uint64_t avalanche(uint64_t x) {
  x ^= x >> 32;
  x *= kMul[1];
  x ^= x >> 29;
  x *= kMul[3];
  x ^= x >> 32;
  return x;
}

}  // namespace

std::string Fnv1a64::hex() const { return hex16(h); }

WordHash64::WordHash64() {
  for (int i = 0; i < 4; ++i) lane_[i] = kGolden * uint64_t(i + 1);
}

void WordHash64::stripe(const unsigned char* p) {
  lane_[0] = step(lane_[0], load_le64(p), kMul[0]);
  lane_[1] = step(lane_[1], load_le64(p + 8), kMul[1]);
  lane_[2] = step(lane_[2], load_le64(p + 16), kMul[2]);
  lane_[3] = step(lane_[3], load_le64(p + 24), kMul[3]);
}

void WordHash64::add(const void* data, size_t n) {
  if (n == 0) return;  // data may be null (an empty vector's): memcpy must not see it
  const unsigned char* p = static_cast<const unsigned char*>(data);
  length_ += n;
  if (npending_ > 0) {
    const size_t take = n < kStripe - npending_ ? n : kStripe - npending_;
    std::memcpy(pending_ + npending_, p, take);
    npending_ += take, p += take, n -= take;
    if (npending_ < kStripe) return;
    stripe(pending_);
    npending_ = 0;
  }
  uint64_t a = lane_[0], b = lane_[1], c = lane_[2], d = lane_[3];
  for (; n >= kStripe; p += kStripe, n -= kStripe) {
    a = step(a, load_le64(p), kMul[0]);
    b = step(b, load_le64(p + 8), kMul[1]);
    c = step(c, load_le64(p + 16), kMul[2]);
    d = step(d, load_le64(p + 24), kMul[3]);
  }
  lane_[0] = a, lane_[1] = b, lane_[2] = c, lane_[3] = d;
  std::memcpy(pending_, p, n);
  npending_ = n;
}

uint64_t WordHash64::value() const {
  // The length tells apart inputs that differ only by trailing zero bytes
  // (the last word is zero-padded).
  uint64_t h = length_ * kGolden;
  for (int i = 0; i < 4; ++i) h = step(h, avalanche(lane_[i]), kMul[i]);
  size_t i = 0;
  for (; i + 8 <= npending_; i += 8) h = step(h, load_le64(pending_ + i), kMul[0]);
  if (i < npending_) {
    unsigned char last[8] = {};
    std::memcpy(last, pending_ + i, npending_ - i);
    h = step(h, load_le64(last), kMul[2]);
  }
  return avalanche(h);
}

std::string WordHash64::hex() const { return hex16(value()); }

std::string hash_text(const std::string& text) {
  Fnv1a64 f;
  f.add(text);
  return "fnv1a64:" + f.hex();
}

// Mapped, not read: copying a 54 MB trace out of the page cache took twice
// as long as hashing it (11 of 17 ms here). Mapped a window at a time: a
// mapped page counts in the process's RSS until it is unmapped, and a
// 10^8-record trace is gigabytes, while the run itself stays within a few
// MiB. A path that is not a regular file (a FIFO: its bytes were the run's
// and are gone) has no hash.
std::string hash_file(const std::string& path) {
  if (path.empty() || path == "-") return "";
  struct stat st {};
  // Before opening: opening a FIFO for reading waits for a writer.
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return "";
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return "";
  constexpr size_t kWindow = size_t(8) << 20;  // a multiple of every page size
  WordHash64 h;
  bool ok = ::fstat(fd, &st) == 0;
  const size_t size = ok ? size_t(st.st_size) : 0;
  bool mapped = true;
  for (size_t off = 0; ok && mapped && off < size; off += kWindow) {
    const size_t n = size - off < kWindow ? size - off : kWindow;
    void* p = ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE, fd, off_t(off));
    if (p == MAP_FAILED) {
      mapped = false;
      ok = ::lseek(fd, off_t(off), SEEK_SET) == off_t(off);
      break;
    }
    ::madvise(p, n, MADV_SEQUENTIAL);
    h.add(p, n);
    ::munmap(p, n);
  }
  if (ok && !mapped) {
    std::vector<unsigned char> chunk(size_t(1) << 18);
    ssize_t got;
    while ((got = ::read(fd, chunk.data(), chunk.size())) > 0) h.add(chunk.data(), size_t(got));
    ok = got == 0;
  }
  ::close(fd);
  return ok ? kWordHashPrefix + h.hex() : "";
}

std::string hash_algorithm(const std::string& value) {
  const size_t colon = value.find(':');
  return colon == std::string::npos ? "" : value.substr(0, colon);
}

}  // namespace ptosim
