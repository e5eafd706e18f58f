#pragma once
// The din line shape nearly every trace consists of, `r 7ffd1234 4\n`: a
// one-character type, one space, 1-15 hex digits, optionally one space and
// 1-15 hex digits of a nonzero size of at most kMaxAccessBytes (so that the
// access cannot wrap), then `\n` or `\r\n`. It is parsed
// whole words at a time, without a loop per digit. Anything else is left to
// the general parser (which accepts every line this one does, with the same
// result, and produces the error messages), so this one only has to be
// exact about what it accepts.
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sim/trace/event.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "din_fast_line.h reads words as little-endian"
#endif

namespace ptosim::din {

constexpr uint64_t kOnes = 0x0101010101010101ull;

inline uint64_t load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// Bit 7 set in each byte <= 0x20 (space, tab, CR, newline and the other
// control characters: what may end a field). Exact for the lowest such
// byte, which is the only one used.
inline uint64_t field_ends(uint64_t w) { return (w - 0x21 * kOnes) & ~w & (0x80 * kOnes); }

// The first n (1..8) bytes of w read as hex digits (either case); false if
// one of them is not a hex digit.
inline bool hex_prefix(uint64_t w, unsigned n, uint64_t& v) {
  const unsigned shift = 64 - 8 * n;
  w <<= shift;  // the digits to the top; the zero bytes below read as leading zeros
  // '0'-'9' -> 0-9, letters -> their low nibble + 9 ('a'/'A' -> 10 ... 'f'/'F' -> 15).
  const uint64_t nib = (w & 0x0f * kOnes) + ((w >> 6) & kOnes) * 9;
  // A byte is a hex digit exactly when it is how its value prints (in
  // lower case, after folding): this rejects every other byte, including
  // 'g'-'o' (values 16-24) and bytes >= 0x80.
  const uint64_t letter = ((nib + 0x76 * kOnes) >> 7) & kOnes;  // value >= 10
  const uint64_t printed = nib + 0x30 * kOnes + letter * 0x27;
  if (((printed ^ (w | 0x20 * kOnes)) | (nib & 0xf0 * kOnes)) & (~0ull << shift)) return false;
  // Pairs of digits into bytes, bytes into 16-bit halves, halves into the value.
  uint64_t x = ((nib * 0x1001) >> 8) & 0x00ff00ff00ff00ffull;
  x = ((x * 0x1000001) >> 16) & 0x0000ffff0000ffffull;
  v = uint32_t(x << 16) | uint32_t(x >> 32);
  return true;
}

// Parses 1-15 hex digits at q, which must be followed by a byte <= 0x20.
// Returns a pointer to that byte, or null.
inline const char* hex_field(const char* q, uint64_t& v) {
  uint64_t w = load8(q);
  uint64_t ends = field_ends(w);
  if (ends) {
    const unsigned n = unsigned(__builtin_ctzll(ends)) >> 3;
    if (n == 0 || !hex_prefix(w, n, v)) return nullptr;
    return q + n;
  }
  if (!hex_prefix(w, 8, v)) return nullptr;
  w = load8(q + 8);
  ends = field_ends(w);
  if (!ends) return nullptr;  // 16 digits or more
  const unsigned n = unsigned(__builtin_ctzll(ends)) >> 3;
  if (n) {
    uint64_t low;
    if (!hex_prefix(w, n, low)) return nullptr;
    v = v << (4 * n) | low;
  }
  return q + 8 + n;
}

struct Tables {
  int8_t hex[256];     // digit value, -1 if not a hex digit
  uint8_t kind[256];   // AccessKind of a type character, 3 if not r w i 0 1 2
  constexpr Tables() : hex(), kind() {
    for (int c = 0; c < 256; ++c) {
      hex[c] = c >= '0' && c <= '9' ? int8_t(c - '0')
               : c >= 'a' && c <= 'f' ? int8_t(c - 'a' + 10)
               : c >= 'A' && c <= 'F' ? int8_t(c - 'A' + 10)
                                      : int8_t(-1);
      kind[c] = c == 'r' || c == '0' ? 0 : c == 'w' || c == '1' ? 1 : c == 'i' || c == '2' ? 2 : 3;
    }
  }
};
inline constexpr Tables kTables{};

// Parses the line at p if it has the common shape. Returns a pointer past
// its '\n', or null (then nothing is known about the line). The line must
// end in '\n', and 40 bytes from p must be readable. Portable; on x86 it
// serves the lines too long for Sse2LineParser.
inline const char* swar_line(const char* p, uint64_t& addr, uint64_t& bytes, unsigned& kind) {
  kind = kTables.kind[uint8_t(p[0])];
  if (kind > 2 || p[1] != ' ') return nullptr;
  const char* q = hex_field(p + 2, addr);
  if (!q) return nullptr;
  bytes = 1;
  if (*q == ' ') {
    const int d = kTables.hex[uint8_t(q[1])];
    if (d > 0 && q[2] == '\n') {  // the usual one-digit size
      bytes = uint64_t(d);
      return q + 3;
    }
    q = hex_field(q + 1, bytes);
    if (!q || bytes == 0 || bytes > kMaxAccessBytes) return nullptr;
  }
  if (*q == '\r') ++q;
  return *q == '\n' ? q + 1 : nullptr;
}

#if defined(__SSE2__)
// The same shape, for lines whose fields fit the 16 bytes after the type and
// space (up to 15 address digits, or 13 with a one-digit size): those bytes
// are classified at once, and all 16 read as one 64-bit number of nibbles
// from which the fields are shifted out. Everything stays in registers: an
// earlier version stored the nibbles and reloaded them at the field's
// offset, and that misaligned reload of a just-stored vector could not be
// forwarded from the store (a stall of a dozen cycles, half the reader's
// time on the benchmark trace).
class Sse2LineParser {
 public:
  Sse2LineParser() { std::memcpy(kind_, kTables.kind, sizeof kind_); }

  // As swar_line.
  const char* parse(const char* p, uint64_t& addr, uint64_t& bytes, unsigned& kind) {
    kind = kind_[uint8_t(p[0])];
    if (kind > 2 || p[1] != ' ') return nullptr;
    const char* q = p + 2;
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    const __m128i digit = _mm_sub_epi8(b, _mm_set1_epi8('0'));                                      // '0'-'9' -> 0-9
    const __m128i letter = _mm_sub_epi8(_mm_or_si128(b, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));  // a-f, A-F -> 0-5
    // Bit 7 set where a byte is out of both ranges (an unsigned saturating
    // add: no byte wraps back into a range).
    const __m128i out_of_range = _mm_and_si128(_mm_adds_epu8(digit, _mm_set1_epi8(char(0x80 - 10))),
                                               _mm_adds_epu8(letter, _mm_set1_epi8(char(0x80 - 6))));
    const unsigned non_hex = unsigned(_mm_movemask_epi8(out_of_range)) | ~0xffffu;  // bits 16+ set: ends the window
    const unsigned n = unsigned(__builtin_ctz(non_hex));  // address digits
    if (n == 0 || n == 16) return nullptr;
    // At a hex digit, the other interpretation is at least 17: the minimum
    // is its value. Other bytes are masked to some nibble: only the digits'
    // nibbles are ever shifted out of `all`.
    const __m128i nib =
        _mm_and_si128(_mm_min_epu8(digit, _mm_add_epi8(letter, _mm_set1_epi8(10))), _mm_set1_epi8(0x0f));
    const uint64_t all = value(nib);  // byte i of the window is nibble 15 - i
    addr = all >> (64 - 4 * n);       // n <= 15: the shift is at least 4
    q += n;
    uint32_t tail;
    std::memcpy(&tail, q, 4);
    if ((tail & 0xff00ff) == ('\n' << 16 | ' ') && !(non_hex >> (n + 1) & 1)) {  // " 4\n", the usual size
      bytes = all >> (64 - 4 * (n + 2)) & 0xf;  // a digit inside the window: n + 2 <= 16
      return bytes ? q + 3 : nullptr;
    }
    bytes = 1;
    if (*q == ' ') {
      const unsigned m = unsigned(__builtin_ctz(non_hex >> (n + 1)));  // size digits, n + 1 + m <= 16
      if (m == 0) return nullptr;
      const unsigned last = n + 1 + m;  // the window's bytes up to the size's last digit
      bytes = all >> (64 - 4 * last) & ((uint64_t(1) << (4 * m)) - 1);  // last >= 2, m <= 14
      if (bytes == 0 || bytes > kMaxAccessBytes) return nullptr;
      q += 1 + m;  // if the window cut a digit off, the byte here is that digit: rejected below
    }
    if (*q == '\n') return q + 1;
    return *q == '\r' && q[1] == '\n' ? q + 2 : nullptr;
  }

 private:
  // 16 nibble values, the first byte's most significant, as a number.
  static uint64_t value(__m128i nib) {
    // A 16-bit lane holds the more significant digit h in its low byte and
    // the other, l, in its high byte: (h + 256 l) * 0x1001 = h + 256 l +
    // 4096 h (mod 2^16), which shifted right by 8 is 16 h + l.
    const __m128i pairs = _mm_srli_epi16(_mm_mullo_epi16(nib, _mm_set1_epi16(0x1001)), 8);
    return __builtin_bswap64(uint64_t(_mm_cvtsi128_si64(_mm_packus_epi16(pairs, pairs))));
  }
  // kTables.kind, copied where the reader's other locals are: addressed off
  // the stack pointer, it does not hold a register of its own in the loop.
  uint8_t kind_[256];
};
#endif

// Bit i set when p[i] is '\n', for i in [0, 64): where the lines end. The
// reader takes each line's start from here rather than from the end of the
// parse of the line before, so that consecutive lines are parsed
// independently (the parse of a line is a chain of dependent steps some 30
// cycles long; one line's chain no longer waits for the previous one's).
inline uint64_t newlines(const char* p) {
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n');
  uint64_t m = 0;
  for (int i = 0; i < 4; ++i) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    m |= uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(b, nl)))) << (16 * i);
  }
  return m;
#else
  uint64_t m = 0;
  for (int i = 0; i < 8; ++i) {
    const uint64_t x = load8(p + 8 * i) ^ ('\n' * kOnes);
    // Bit 7 of each byte set exactly where x's byte is zero (no borrow between bytes).
    const uint64_t zero = ~(((x & 0x7f * kOnes) + 0x7f * kOnes) | x) & (0x80 * kOnes);
    m |= ((zero >> 7) * 0x0102040810204080ull >> 56) << (8 * i);
  }
  return m;
#endif
}

// The fastest of the above; one per reader.
class FastLineParser {
 public:
  // Parses the line at p if it has the common shape. Returns a pointer past
  // its '\n', or null (then nothing is known about the line). The line must
  // end in '\n', and 40 bytes from p must be readable.
  const char* parse(const char* p, uint64_t& addr, uint64_t& bytes, unsigned& kind) {
#if defined(__SSE2__)
    if (const char* next = sse2_.parse(p, addr, bytes, kind)) return next;
#endif
    return swar_line(p, addr, bytes, kind);
  }

 private:
#if defined(__SSE2__)
  Sse2LineParser sse2_;
#endif
};

}  // namespace ptosim::din
