// The wide-load stream of stream_probe.h: one sum loop, instantiated per
// load width, each compiled for its ISA with a target attribute (the binary
// runs on any x86-64; a width is called only on a CPU that has it), eight
// independent accumulators so that no add chain paces the loads.
#include "sim/host/stream_probe.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "sim/host/thread_clock.h"

namespace ptosim::host {
namespace {

// Eight accumulators of V (a GCC vector of 64-bit lanes), each adding every
// eighth vector; forced inline so that each caller compiles it for its own
// ISA (a target attribute's caller may inline a plainer callee).
template <class V>
__attribute__((always_inline)) inline uint64_t sum_eight(const uint64_t* p, uint64_t words) {
  constexpr uint64_t lanes = sizeof(V) / 8;
  V a[8] = {};
  for (uint64_t i = 0; i < words; i += 8 * lanes)
    for (uint64_t k = 0; k < 8; ++k) {
      V v;
      __builtin_memcpy(&v, p + i + k * lanes, sizeof(V));  // aligned: the buffer's blocks are
      a[k] += v;
    }
  const V s = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
  uint64_t t = 0;
  for (uint64_t l = 0; l < lanes; ++l) t += s[l];
  return t;
}

using W8 = uint64_t __attribute__((vector_size(8)));
using W16 = uint64_t __attribute__((vector_size(16)));
using W32 = uint64_t __attribute__((vector_size(32)));
using W64 = uint64_t __attribute__((vector_size(64)));

// Off x86, and the reference every width must agree with in the tests.
uint64_t sum_w8(const uint64_t* p, uint64_t words) { return sum_eight<W8>(p, words); }

#if defined(__x86_64__)
uint64_t sum_w16(const uint64_t* p, uint64_t words) { return sum_eight<W16>(p, words); }
__attribute__((target("avx2"))) uint64_t sum_w32(const uint64_t* p, uint64_t words) { return sum_eight<W32>(p, words); }
__attribute__((target("avx512f"))) uint64_t sum_w64(const uint64_t* p, uint64_t words) {
  return sum_eight<W64>(p, words);
}
#endif

using SumFn = uint64_t (*)(const uint64_t*, uint64_t);

SumFn sum_of(unsigned load_bytes) {
#if defined(__x86_64__)
  switch (load_bytes) {
    case 64: return sum_w64;
    case 32: return sum_w32;
    case 16: return sum_w16;
  }
#endif
  return sum_w8;
}

// A buffer of at least one block, whole blocks, its pages touched (so that
// the first timed run does not count page faults).
struct Buffer {
  uint64_t words = 0;
  uint64_t* p = nullptr;
  explicit Buffer(uint64_t bytes) {
    words = std::max<uint64_t>(1, bytes / 8 / kStreamBlockWords) * kStreamBlockWords;
    p = static_cast<uint64_t*>(std::aligned_alloc(4096, (words * 8 + 4095) / 4096 * 4096));
    for (uint64_t i = 0; i < words; ++i) p[i] = i;
  }
  ~Buffer() { std::free(p); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

// One timed run: `sweeps` sums of the buffer, seconds.
double timed_run(const Buffer& b, uint64_t sweeps, SumFn sum) {
  uint64_t total = 0;
  const double t0 = thread_cpu_s();
  for (uint64_t s = 0; s < sweeps; ++s) {
    const uint64_t* p = b.p;
    asm volatile("" : "+r"(p) : : "memory");  // every sweep loads the buffer again
    total += sum(p, b.words);
  }
  const double t = thread_cpu_s() - t0;
  asm volatile("" : : "r"(total));
  return t;
}

uint64_t sweeps_for(const Buffer& b, uint64_t run_bytes) {
  const uint64_t bytes = b.words * 8;
  return std::max<uint64_t>(1, (run_bytes + bytes - 1) / bytes);
}
}  // namespace

unsigned stream_load_bytes() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 64;
  if (__builtin_cpu_supports("avx2")) return 32;
  return 16;
#else
  return 8;
#endif
}

uint64_t stream_sum(const uint64_t* buf, uint64_t words, unsigned load_bytes) {
  return sum_of(std::min(load_bytes, stream_load_bytes()))(buf, words);
}

StreamRate stream_read(uint64_t footprint, uint64_t run_bytes, int runs, unsigned load_bytes) {
  StreamRate r;
  r.load_bytes = load_bytes ? std::min(load_bytes, stream_load_bytes()) : stream_load_bytes();
  const SumFn sum = sum_of(r.load_bytes);
  const Buffer b(footprint);
  r.footprint = b.words * 8;
  const uint64_t sweeps = sweeps_for(b, run_bytes);
  timed_run(b, 1, sum);  // warm: the footprint in the level it is sized for
  double best = 1e30;
  for (int i = 0; i < std::max(runs, 1); ++i) best = std::min(best, timed_run(b, sweeps, sum));
  r.bytes_per_s = double(sweeps * r.footprint) / best;
  return r;
}

// A near run reads 256 MiB (3 ms at the 90 GB/s of a Zen 5's L3), a far run
// its footprint once or more (512 MiB: 10 ms from DRAM): the thread
// clock's 1.7 us a read is under 0.1 % of either.
StreamPair stream_read_pair(uint64_t near_footprint, uint64_t far_footprint, int rounds) {
  StreamPair r;
  const unsigned width = stream_load_bytes();
  const SumFn sum = sum_of(width);
  const Buffer near(near_footprint), far(far_footprint);
  const uint64_t run_bytes = 256ull << 20, near_sweeps = sweeps_for(near, run_bytes),
                 far_sweeps = sweeps_for(far, run_bytes);
  double near_best = 1e30, far_best = 1e30;
  for (int i = 0; i < std::max(rounds, 1); ++i) {
    timed_run(near, 1, sum);  // warm again: the far run has just evicted it
    near_best = std::min(near_best, timed_run(near, near_sweeps, sum));
    far_best = std::min(far_best, timed_run(far, far_sweeps, sum));
  }
  r.near = {double(near_sweeps * near.words * 8) / near_best, width, near.words * 8};
  r.far = {double(far_sweeps * far.words * 8) / far_best, width, far.words * 8};
  return r;
}

}  // namespace ptosim::host
