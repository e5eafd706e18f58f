#include <cmath>

#include "tests/sim/exec/exec_test_util.h"

namespace ptosim::test {

namespace {
void expect_near_vec(const std::vector<double>& a, const std::vector<double>& b, double tol = 1e-5) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], tol) << "at " << i;
}
}  // namespace

TEST(Values, BroadcastingElementwise) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  Tensor a = make(c, "A", {3, 4}, "random", 1);
  Tensor b = make(c, "B", {4}, "random", 2);
  Tensor col = make(c, "col", {3, 1}, "random", 3);
  auto av = a.to_vector(), bv = b.to_vector(), cv = col.to_vector();
  Tensor s = binary(c, OpKind::Add, a, b);
  Tensor m = binary(c, OpKind::Maximum, col, b);  // [3,1] x [4] -> [3,4]
  Tensor d = binary(c, OpKind::Divide, 2.0, a);
  EXPECT_EQ(m.shape(), (Shape{3, 4}));
  std::vector<double> es, em, ed;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      es.push_back(float(av[i * 4 + j] + bv[j]));
      em.push_back(std::max(cv[i], bv[j]));
      ed.push_back(float(2.0 / av[i * 4 + j]));
    }
  expect_near_vec(s.to_vector(), es, 0);
  expect_near_vec(m.to_vector(), em, 0);
  expect_near_vec(d.to_vector(), ed, 0);
  Tensor g = unary(c, OpKind::Gelu, a);
  Tensor rg = ref::gelu(c, a);
  expect_near_vec(g.to_vector(), rg.to_vector(), 1e-6);
  EXPECT_THROW(binary(c, OpKind::Add, a, make(c, "X", {3})), OpError);
  EXPECT_THROW(elementwise(c, "exp", {a, b}), OpError);
}

TEST(Values, ReductionsKeepdimsAndSoftmax) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  Tensor x = make(c, "X", {2, 3, 4}, "arange");
  Tensor s1 = reduce(c, OpKind::ReduceSum, x, 1, false);
  EXPECT_EQ(s1.shape(), (Shape{2, 4}));
  EXPECT_EQ(s1.to_vector(), (std::vector<double>{12, 15, 18, 21, 48, 51, 54, 57}));
  Tensor s2 = reduce(c, OpKind::ReduceMax, x, -1, true);
  EXPECT_EQ(s2.shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(s2.to_vector(), (std::vector<double>{3, 7, 11, 15, 19, 23}));
  Tensor m = reduce(c, OpKind::ReduceMean, x, std::nullopt, false);
  EXPECT_EQ(m.shape(), Shape{});
  EXPECT_DOUBLE_EQ(m.to_vector()[0], 11.5);
  Tensor y = make(c, "Y", {3, 5}, "random", 4);
  Tensor sm = softmax(c, y, 0);
  Tensor rs = ref::softmax(c, y, 0);
  expect_near_vec(sm.to_vector(), rs.to_vector(), 1e-6);
  EXPECT_THROW(reduce(c, OpKind::ReduceSum, x, 3, false), OpError);
}

TEST(Values, BatchedMatmulBroadcast) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  Tensor a = make(c, "A", {2, 3, 5}, "random", 1);
  Tensor b = make(c, "B", {5, 4}, "random", 2);
  Tensor out = matmul(c, a, b);
  EXPECT_EQ(out.shape(), (Shape{2, 3, 4}));
  auto av = a.to_vector(), bv = b.to_vector();
  std::vector<double> e;
  for (int n = 0; n < 2; ++n)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) {
        double s = 0;
        for (int k = 0; k < 5; ++k) s += av[(n * 3 + i) * 5 + k] * bv[k * 4 + j];
        e.push_back(s);
      }
  expect_near_vec(out.to_vector(), e, 1e-6);
  EXPECT_TRUE(check(c, out, ref::matmul(c, a, b)).passed);
  Tensor acc = make(c, "ACC", {2, 3, 4}, "ones");
  matmul_acc(c, acc, a, b);
  for (auto& v : e) v += 1;
  expect_near_vec(acc.to_vector(), e, 1e-6);
  Tensor v1 = make(c, "v", {5}, "random", 3);
  EXPECT_EQ(matmul(c, b.transpose(), v1).shape(), (Shape{4}));
  EXPECT_THROW(matmul(c, a, a), OpError);
  // An empty inner dimension (the fuzzer's finding: K = 0 took the address
  // of an element that does not exist): every output is 0.
  Tensor e1 = make(c, "E1", {3, 0}, "random", 5), e2 = make(c, "E2", {0, 2}, "random", 6);
  Tensor empty_k = matmul(c, e1, e2);
  EXPECT_EQ(empty_k.shape(), (Shape{3, 2}));
  expect_near_vec(empty_k.to_vector(), std::vector<double>(6, 0.0), 0);
}

TEST(Values, Conv2dStridePaddingAndIm2col) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  Tensor in = make(c, "I", {2, 3, 7, 6}, "random", 1);
  Tensor w = make(c, "W", {4, 3, 3, 3}, "random", 2);
  Tensor out = conv2d(c, in, w, 2, 1);
  EXPECT_EQ(out.shape(), (Shape{2, 4, 4, 3}));
  EXPECT_TRUE(check(c, out, ref::conv2d(c, in, w, 2, 1)).passed);
  // conv == W[F, C*9] @ im2col.
  Tensor cols = im2col(c, in, 3, 3, 2, 1);
  EXPECT_EQ(cols.shape(), (Shape{2, 27, 12}));
  Tensor wm = reshape(c, w, {4, 27});
  Tensor viaim = matmul(c, wm, cols);  // [2, 4, 12]
  Tensor o2 = reshape(c, out, {2, 4, 12});
  EXPECT_TRUE(check(c, viaim, o2, 1e-5, 1e-5).passed);
}

TEST(Values, TransposeReshapeLayoutRoundTrips) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  Tensor x = make(c, "X", {2, 3, 4, 5}, "random", 1);
  Tensor nhwc = layout_transform(c, x, "NCHW", "NHWC");
  EXPECT_EQ(nhwc.shape(), (Shape{2, 4, 5, 3}));
  Tensor back = layout_transform(c, nhwc, "NHWC", "NCHW");
  EXPECT_EQ(back.to_vector(), x.to_vector());
  Tensor bl = layout_transform(c, x, "NCHW", "BLOCKED", {2, 2});
  EXPECT_EQ(bl.layout().kind, Layout::Kind::Blocked);
  EXPECT_EQ(bl.to_vector(), x.to_vector());
  Tensor ve = layout_transform(c, bl, "BLOCKED", "VECTORIZED", {}, 4);
  EXPECT_EQ(ve.to_vector(), x.to_vector());
  Tensor t = transpose(c, x, {3, 2, 1, 0});
  Tensor r = reshape(c, t, {-1, 6});  // needs a copy
  EXPECT_EQ(r.shape(), (Shape{20, 6}));
  EXPECT_EQ(r.to_vector(), t.to_vector());
  EXPECT_THROW(reshape(c, x, {7, -1}), OpError);
}

TEST(Values, AssignAndStore) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  Tensor C = make(c, "C", {4, 4}, "zeros");
  Tensor t = make(c, "t", {2, 4}, "ones");
  assign(c, C.index({sl(1, 3)}), t);
  assign(c, C.index({sl(1, 3)}), t, OpKind::Add);
  assign(c, C.index({IndexItem::at(0)}), 5.0);
  EXPECT_EQ(C.to_vector(), (std::vector<double>{5, 5, 5, 5, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0}));
  write_element(c, C, {3, -1}, 7.5);
  EXPECT_EQ(read_element(c, C, {3, 3}), 7.5);
  Tensor k = make(c, "K", {4}, "ones", 0, "constant");
  EXPECT_THROW(write_element(c, k, {0}, 1.0), OpError);
  EXPECT_THROW(store(c, t, k.index({sl(0, 4)})), OpError);
}

TEST(Values, CheckAndOutput) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  Tensor a = make(c, "A", {2, 2}, "arange");
  Tensor b = make(c, "B", {2, 2}, "arange");
  write_element(c, b, {1, 0}, 2.5);
  CheckOutcome r = check(c, a, b);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("first mismatch at index [1, 0]: actual 2, expected 2.5"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("max error 0.5"), std::string::npos);
  OutputChecksum o = output(c, a);
  EXPECT_EQ(o.sum, 6);
  EXPECT_EQ(o.tensor, "A");
  ProgramResult res = c.take_result();
  EXPECT_FALSE(res.all_checks_passed());
  EXPECT_EQ(res.outputs.size(), 1u);
}

TEST(Values, RefLayerNormAndAttention) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  Tensor x = make(c, "X", {3, 8}, "random", 1);
  Tensor g = make(c, "g", {8}, "ones");
  Tensor b = make(c, "b", {8}, "zeros");
  Tensor ln = ref::layer_norm(c, x, g, b, 1e-5);
  auto v = ln.to_vector();
  double mean = 0;
  for (int k = 0; k < 8; ++k) mean += v[k];
  EXPECT_NEAR(mean, 0, 1e-9);
  Tensor q = make(c, "q", {2, 4, 8}, "random", 2), k = make(c, "k", {2, 6, 8}, "random", 3),
         vv = make(c, "v", {2, 6, 8}, "random", 4);
  Tensor att = ref::attention(c, q, k, vv);
  // The same through executor ops.
  Tensor sc = binary(c, OpKind::Multiply, matmul(c, q, k.transpose({0, 2, 1})), 1.0 / std::sqrt(8.0));
  Tensor out = matmul(c, softmax(c, sc, -1), vv);
  EXPECT_TRUE(check(c, out, att).passed);
}

}  // namespace ptosim::test
