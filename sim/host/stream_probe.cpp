// The wide-load stream of stream_probe.h: one sum loop per load width, each
// compiled for its ISA with a target attribute (the binary runs on any
// x86-64; a width is called only on a CPU that has it), eight independent
// accumulators so that no add chain paces the loads.
#include "sim/host/stream_probe.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "sim/host/thread_clock.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ptosim::host {
namespace {

// Off x86 (and the reference every width must agree with in the tests):
// eight 8-byte accumulators.
uint64_t sum_w8(const uint64_t* p, uint64_t words) {
  uint64_t a[8] = {};
  for (uint64_t i = 0; i < words; i += 8)
    for (int k = 0; k < 8; ++k) a[k] += p[i + k];
  return a[0] + a[1] + a[2] + a[3] + a[4] + a[5] + a[6] + a[7];
}

#if defined(__x86_64__)
// A block of eight loads into eight accumulators: `add(acc, load(p))`.
#define PTO_EIGHT(add, load, p, step)                                                              \
  a0 = add(a0, load(p + 0 * step)), a1 = add(a1, load(p + 1 * step)), a2 = add(a2, load(p + 2 * step)), \
  a3 = add(a3, load(p + 3 * step)), a4 = add(a4, load(p + 4 * step)), a5 = add(a5, load(p + 5 * step)), \
  a6 = add(a6, load(p + 6 * step)), a7 = add(a7, load(p + 7 * step))

inline __m128i load16(const uint64_t* p) { return _mm_load_si128(reinterpret_cast<const __m128i*>(p)); }

uint64_t sum_w16(const uint64_t* p, uint64_t words) {
  __m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  for (uint64_t i = 0; i < words; i += 16) PTO_EIGHT(_mm_add_epi64, load16, p + i, 2);
  a0 = _mm_add_epi64(_mm_add_epi64(_mm_add_epi64(a0, a1), _mm_add_epi64(a2, a3)),
                     _mm_add_epi64(_mm_add_epi64(a4, a5), _mm_add_epi64(a6, a7)));
  alignas(16) uint64_t t[2];
  _mm_store_si128(reinterpret_cast<__m128i*>(t), a0);
  return t[0] + t[1];
}

__attribute__((target("avx2"))) inline __m256i load32(const uint64_t* p) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(p));
}

__attribute__((target("avx2"))) uint64_t sum_w32(const uint64_t* p, uint64_t words) {
  __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  for (uint64_t i = 0; i < words; i += 32) PTO_EIGHT(_mm256_add_epi64, load32, p + i, 4);
  a0 = _mm256_add_epi64(_mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3)),
                        _mm256_add_epi64(_mm256_add_epi64(a4, a5), _mm256_add_epi64(a6, a7)));
  alignas(32) uint64_t t[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(t), a0);
  return t[0] + t[1] + t[2] + t[3];
}

__attribute__((target("avx512f"))) inline __m512i load64(const uint64_t* p) { return _mm512_load_si512(p); }

__attribute__((target("avx512f"))) uint64_t sum_w64(const uint64_t* p, uint64_t words) {
  __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  for (uint64_t i = 0; i < words; i += 64) PTO_EIGHT(_mm512_add_epi64, load64, p + i, 8);
  a0 = _mm512_add_epi64(_mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3)),
                        _mm512_add_epi64(_mm512_add_epi64(a4, a5), _mm512_add_epi64(a6, a7)));
  return uint64_t(_mm512_reduce_add_epi64(a0));
}
#undef PTO_EIGHT
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
