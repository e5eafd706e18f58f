#pragma once
// The hashes that identify inputs in reports and output tensors in pto.check.
// Not cryptographic: they tell runs apart, they do not defend against forgery.
//
// Two algorithms, for two costs. FNV-1a (64 bit) is one multiply per byte, a
// serial chain of about 4 cycles a byte: fine for a resolved config or a
// tensor, but on a 54 MB trace it took more of a replay's time than the
// parsing did. A trace or program file is therefore hashed with WordHash64,
// four independent lanes over 8-byte words (on this project's 2-core VM
// 5 ms for 54 MiB in memory, against FNV-1a's 64 ms). Report values carry the algorithm as a prefix ("fnv1a64:",
// "ptowh64:") so that a baseline written with another algorithm is told
// apart from a different input (`pto-sim compare --baseline`).
#include <cstddef>
#include <cstdint>
#include <string>

namespace ptosim {

struct Fnv1a64 {
  uint64_t h = 14695981039346656037ull;
  void add(const void* data, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) {
      h ^= p[i];
      h *= 1099511628211ull;
    }
  }
  void add(const std::string& s) { add(s.data(), s.size()); }
  std::string hex() const;  // 16 lower-case hex digits
};

// pto-sim's word hash ("ptowh64"): the bytes as 8-byte little-endian words,
// word i mixed into lane i mod 4 (xor, a 64 x 64 -> 128-bit multiply by
// the lane's constant, high half xor low half: the lanes' multiplies
// overlap instead of waiting on each other);
// the last 0-31 bytes, the four lanes and the length folded together at the
// end and avalanched. The value depends only on the bytes, not on how add()
// splits them.
class WordHash64 {
 public:
  WordHash64();
  void add(const void* data, size_t n);
  uint64_t value() const;
  std::string hex() const;  // 16 lower-case hex digits

 private:
  static constexpr size_t kStripe = 32;  // one word per lane
  void stripe(const unsigned char* p);
  uint64_t lane_[4];
  unsigned char pending_[kStripe];  // bytes not yet a whole stripe
  size_t npending_ = 0;
  uint64_t length_ = 0;
};

// The prefix of a WordHash64 value in reports.
constexpr char kWordHashPrefix[] = "ptowh64:";

std::string hash_text(const std::string& text);  // "fnv1a64:<16 hex digits>"
// Of a file's bytes (mapped: traces may be large): "ptowh64:<16 hex
// digits>"; "" when the path is "-", is not a regular file (a FIFO's bytes
// cannot be read twice) or cannot be read (the run itself reports that).
std::string hash_file(const std::string& path);
// The algorithm of a hash value ("fnv1a64" of "fnv1a64:..."), "" if none.
std::string hash_algorithm(const std::string& value);

}  // namespace ptosim
