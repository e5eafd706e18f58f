// The wide-load stream behind `config host --measure`'s DRAM bandwidth and
// last-level port: every width's loop sums exactly what it was given (a
// loop that skipped or folded loads would read fast and be wrong), and a
// rate comes out in bytes a second over the footprint it swept. No speed is
// asserted: a timing under other tenants' load is not a test.
#include "sim/host/stream_probe.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

namespace ptosim::host {
namespace {

TEST(StreamProbe, EveryWidthTheCpuHasSumsEveryWord) {
  const uint64_t words = 3 * kStreamBlockWords;
  uint64_t* buf = static_cast<uint64_t*>(std::aligned_alloc(64, words * 8));
  std::mt19937_64 rng(5);
  uint64_t want = 0;
  for (uint64_t i = 0; i < words; ++i) want += buf[i] = rng();  // full 64-bit words: the sums wrap
  const unsigned widest = stream_load_bytes();
  EXPECT_TRUE(widest == 8 || widest == 16 || widest == 32 || widest == 64) << widest;
  for (unsigned w : {8u, 16u, 32u, 64u}) {
    if (w > widest) continue;  // the CPU cannot run it
    EXPECT_EQ(stream_sum(buf, words, w), want) << w << "-byte loads";
    EXPECT_EQ(stream_sum(buf, kStreamBlockWords, w), stream_sum(buf, kStreamBlockWords, 8)) << w << ": one block";
  }
  std::free(buf);
}

TEST(StreamProbe, ARateIsBytesASecondOverTheWholeBlocksSwept) {
  const StreamRate r = stream_read(64 << 10, 4 << 20, 1);
  EXPECT_EQ(r.footprint, 64u << 10);
  EXPECT_EQ(r.load_bytes, stream_load_bytes());
  // Units, not speed: between 100 MB/s and 10 TB/s whatever the load.
  EXPECT_GT(r.bytes_per_s, 1e8);
  EXPECT_LT(r.bytes_per_s, 1e13);
  // A footprint rounds down to whole 512-byte blocks, at least one.
  EXPECT_EQ(stream_read(1000, 1 << 20, 1, 16).footprint, 512u);
  EXPECT_EQ(stream_read(100, 1 << 20, 1, 16).footprint, 512u);
  EXPECT_EQ(stream_read(1000, 1 << 20, 1, 16).load_bytes, stream_load_bytes() >= 16 ? 16u : 8u);
}

}  // namespace
}  // namespace ptosim::host
