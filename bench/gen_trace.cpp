// Writes the din traces of the benchmark matrix (bench/dinero_matrix.py): the
// access patterns that stress different parts of a cache model, each with a
// fixed seed so that every run and every simulator sees the same bytes.
//   random N      N accesses (3 reads : 1 write, 4 or 8 B) at random over 64 MiB
//   stream N      N 4-byte accesses walking two arrays: read a[i], write b[i] every 4th
//   stride N      N 4-byte reads 4160 B apart (65 lines of 64 B), wrapping at 64 MiB
//   conv C        a 3x3 convolution of a C-channel 64x64 fp32 image into C channels
//                 (reads of the input window and the weights, one write per output)
// (matmul is bench/gen_matmul_trace.)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// Buffered hex output: printf per line would cost more than the simulators' work.
class Out {
 public:
  ~Out() { flush(); }
  void rec(char kind, uint64_t addr, unsigned size) {
    if (n_ + 40 > sizeof buf_) flush();
    buf_[n_++] = kind;
    buf_[n_++] = ' ';
    char tmp[16];
    int k = 0;
    do {
      tmp[k++] = "0123456789abcdef"[addr & 15];
      addr >>= 4;
    } while (addr);
    while (k) buf_[n_++] = tmp[--k];
    buf_[n_++] = ' ';
    buf_[n_++] = "0123456789abcdef"[size & 15];
    buf_[n_++] = '\n';
  }
  void flush() {
    std::fwrite(buf_, 1, n_, stdout);
    n_ = 0;
  }

 private:
  char buf_[1 << 16];
  size_t n_ = 0;
};

uint64_t xorshift(uint64_t& s) {
  s ^= s >> 12;
  s ^= s << 25;
  s ^= s >> 27;
  return s * 0x2545F4914F6CDD1Dull;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: gen_trace random|stream|stride|conv N > trace.din\n");
    return 2;
  }
  const char* kind = argv[1];
  const long long n = std::atoll(argv[2]);
  if (n <= 0) {
    std::fprintf(stderr, "gen_trace: N must be positive\n");
    return 2;
  }
  Out out;
  const uint64_t base = 0x10000000, span = 64ull << 20;
  if (!std::strcmp(kind, "random")) {
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (long long i = 0; i < n; ++i) {
      const uint64_t r = xorshift(s);
      const unsigned size = (r >> 62) & 1 ? 8 : 4;
      out.rec((r & 3) == 0 ? 'w' : 'r', base + ((r >> 8) % span & ~uint64_t(size - 1)), size);
    }
  } else if (!std::strcmp(kind, "stream")) {
    const uint64_t b = base + (1ull << 34);  // far from a: the arrays never meet
    for (long long i = 0; i < n; ++i) {
      if (i % 4 == 3)
        out.rec('w', b + uint64_t(i / 4) * 4, 4);
      else
        out.rec('r', base + uint64_t(i - i / 4) * 4, 4);
    }
  } else if (!std::strcmp(kind, "stride")) {
    for (long long i = 0; i < n; ++i) out.rec('r', base + (uint64_t(i) * 4160) % span, 4);
  } else if (!std::strcmp(kind, "conv")) {
    const long long c = n, hw = 64;
    const uint64_t in = base, w = in + c * (hw + 2) * (hw + 2) * 4 + 4096, o = w + c * c * 9 * 4 + 4096;
    for (long long oc = 0; oc < c; ++oc)
      for (long long y = 0; y < hw; ++y)
        for (long long x = 0; x < hw; ++x) {
          for (long long ic = 0; ic < c; ++ic)
            for (long long ky = 0; ky < 3; ++ky)
              for (long long kx = 0; kx < 3; ++kx) {
                out.rec('r', in + uint64_t(((ic * (hw + 2) + y + ky) * (hw + 2) + x + kx) * 4), 4);
                out.rec('r', w + uint64_t((((oc * c + ic) * 3 + ky) * 3 + kx) * 4), 4);
              }
          out.rec('w', o + uint64_t(((oc * hw + y) * hw + x) * 4), 4);
        }
  } else {
    std::fprintf(stderr, "gen_trace: unknown kind '%s'\n", kind);
    return 2;
  }
  return 0;
}
