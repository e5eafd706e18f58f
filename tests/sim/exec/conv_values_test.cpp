// The reference conv and im2col computed row by row (reference.cpp, conv.cpp)
// against the one-element-at-a-time definitions they replaced: the same
// doubles to the bit, and im2col's input reads the same accesses in the same
// order, over strides, paddings and widths that leave the row-at-a-time
// paths' edge cases (window columns outside the input, rows shorter than a
// block, a width below the kernel's).
#include "tests/sim/exec/exec_test_util.h"

namespace ptosim::test {

namespace {

struct ConvCase {
  int64_t C, H, W, F, K, stride, pad;
};

const ConvCase kCases[] = {
    {3, 7, 21, 2, 3, 1, 1},  // a row of eight-output blocks, a pair and edges
    {2, 5, 13, 3, 3, 1, 0},  // no padding: every output inside
    {2, 6, 9, 2, 5, 1, 2},   // a wide kernel, padding 2
    {1, 4, 3, 2, 3, 1, 2},   // a row shorter than a block, a width below the padded window
    {3, 7, 6, 4, 3, 2, 1},   // stride 2: one output at a time
    {2, 8, 11, 2, 1, 1, 0},  // a 1x1 kernel
};

// Output (n, f, oh, ow) as a sum over (channel, kernel row, kernel column)
// in that order, the terms outside the input left out.
std::vector<double> conv_by_element(const std::vector<double>& I, const std::vector<double>& Wt, const ConvCase& k,
                                    int64_t N) {
  const int64_t OH = (k.H + 2 * k.pad - k.K) / k.stride + 1, OW = (k.W + 2 * k.pad - k.K) / k.stride + 1;
  std::vector<double> O;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t f = 0; f < k.F; ++f)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          double acc = 0;
          for (int64_t ch = 0; ch < k.C; ++ch)
            for (int64_t i = 0; i < k.K; ++i)
              for (int64_t j = 0; j < k.K; ++j) {
                const int64_t ih = oh * k.stride - k.pad + i, iw = ow * k.stride - k.pad + j;
                if (ih < 0 || ih >= k.H || iw < 0 || iw >= k.W) continue;
                acc += I[size_t(((n * k.C + ch) * k.H + ih) * k.W + iw)] * Wt[size_t(((f * k.C + ch) * k.K + i) * k.K + j)];
              }
          O.push_back(acc);
        }
  return O;
}

}  // namespace

TEST(ConvValues, ReferenceConvAddsEachWindowInOrder) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  for (const ConvCase& k : kCases) {
    SCOPED_TRACE("C=" + std::to_string(k.C) + " W=" + std::to_string(k.W) + " K=" + std::to_string(k.K) +
                 " stride=" + std::to_string(k.stride) + " pad=" + std::to_string(k.pad));
    Tensor in = make(c, "I", {2, k.C, k.H, k.W}, "random", 3);
    Tensor w = make(c, "W", {k.F, k.C, k.K, k.K}, "random", 4);
    const std::vector<double> want = conv_by_element(in.to_vector(), w.to_vector(), k, 2);
    const std::vector<double> got = ref::conv2d(c, in, w, k.stride, k.pad).to_vector();
    ASSERT_EQ(got.size(), want.size());
    for (size_t e = 0; e < want.size(); ++e) ASSERT_EQ(got[e], want[e]) << "output " << e;
  }
}

TEST(ConvValues, Im2colValuesAndReadsAsElementByElement) {
  HwConfig cfg = small_config();
  const uint64_t vb = cfg.core.vector_bytes;
  for (const ConvCase& k : kCases) {
    SCOPED_TRACE("W=" + std::to_string(k.W) + " K=" + std::to_string(k.K) + " stride=" + std::to_string(k.stride) +
                 " pad=" + std::to_string(k.pad));
    Recorder rec;
    ExecContext c(cfg, &rec);
    Tensor in = make(c, "I", {2, k.C, k.H, k.W}, "random", 5);
    const std::vector<double> I = in.to_vector();
    rec.clear();
    Tensor cols = im2col(c, in, k.K, k.K, k.stride, k.pad);
    const int64_t OH = (k.H + 2 * k.pad - k.K) / k.stride + 1, OW = (k.W + 2 * k.pad - k.K) / k.stride + 1;
    const int64_t rows = k.C * k.K * k.K, ncols = OH * OW, V = int64_t(vb / 4);
    // Values: column (oh, ow) of row (ch, i, j) is the input under it, or 0.
    // Reads: per row and V columns, the valid inputs in column order, merged
    // while adjacent up to a vector (a repeat inside the run is free).
    std::vector<double> want;
    std::vector<std::pair<uint64_t, uint64_t>> reads;
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t ch = r / (k.K * k.K), i = (r / k.K) % k.K, j = r % k.K;
        for (int64_t c0 = 0; c0 < ncols; c0 += V) {
          bool open = false;
          uint64_t s = 0, e = 0;
          for (int64_t col = c0; col < std::min(ncols, c0 + V); ++col) {
            const int64_t ih = (col / OW) * k.stride - k.pad + i, iw = (col % OW) * k.stride - k.pad + j;
            const bool inside = ih >= 0 && ih < k.H && iw >= 0 && iw < k.W;
            const int64_t at = ((n * k.C + ch) * k.H + ih) * k.W + iw;
            want.push_back(inside ? I[size_t(at)] : 0.0);
            if (!inside) continue;
            const uint64_t a = in.base_addr() + uint64_t(at) * 4;
            if (open && a >= s && a + 4 <= e) continue;
            if (open && a == e && e - s + 4 <= vb) {
              e += 4;
              continue;
            }
            if (open) reads.emplace_back(s, e - s);
            s = a, e = a + 4, open = true;
          }
          if (open) reads.emplace_back(s, e - s);
        }
      }
    EXPECT_EQ(cols.to_vector(), want);
    std::vector<std::pair<uint64_t, uint64_t>> got;
    for (const Access& a : rec.acc)
      if (a.kind == AccessKind::Read) got.emplace_back(a.addr, a.bytes);
    EXPECT_EQ(got, reads);
    EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Write), uint64_t(2 * rows) * uint64_t((ncols + V - 1) / V));
  }
}

}  // namespace ptosim::test
