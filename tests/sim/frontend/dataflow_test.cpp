// Dataflow in the event stream (core model cpu): every event is numbered in
// stream order, a scalar's value remembers the event that produced it, and
// arithmetic, stores and loads through a loaded index name the events they
// wait for. Exact: the numbering is the stream's.
#include <gtest/gtest.h>

#include <variant>

#include "sim/exec/dtype.h"
#include "sim/exec/op_table.h"
#include "tests/sim/frontend/frontend_test_util.h"

namespace ptosim::test {
namespace {

// Every access and compute, in order; events[k - 1] is event number k.
struct OrderSink : EventSink {
  std::vector<std::variant<Access, Compute>> events;
  void access(const Access& a) override { events.emplace_back(a); }
  void compute(const Compute& c) override { events.emplace_back(c); }
  const Access* access_at(uint32_t seq) const { return std::get_if<Access>(&events.at(seq - 1)); }
  const Compute* compute_at(uint32_t seq) const { return std::get_if<Compute>(&events.at(seq - 1)); }
};

OrderSink run_cpu(const std::string& text) {
  HwConfig c = frontend_test_config();
  c.core.model = "cpu";
  OrderSink s;
  ProgramOptions o;
  run_program_text("t.pto", text, c, o, &s);
  return s;
}

TEST(Dataflow, AnAccumulatorIsAChainOfAdds) {
  const OrderSink s = run_cpu(
      "A = pto.tensor([8], init=\"random\", seed=1)\n"
      "B = pto.tensor([8], init=\"random\", seed=2)\n"
      "C = pto.tensor([1])\n"
      "acc = 0.0\n"
      "for k in range(8):\n"
      "    acc += A[k] * B[k]\n"
      "C[0] = acc\n");
  // Per iteration: the loop's counter and branch, read A[k], read B[k], the
  // multiply (of those two reads), the add (of the previous add and it).
  ASSERT_EQ(s.events.size(), 8u * 5 + 1);
  uint32_t prev_add = 0;
  for (uint32_t k = 0; k < 8; ++k) {
    const uint32_t base = 5 * k + 1;
    const Compute* loop = s.compute_at(base);
    ASSERT_NE(loop, nullptr);
    EXPECT_EQ(loop->op, uint16_t(exec::OpKind::Loop));
    ASSERT_NE(s.access_at(base + 1), nullptr);
    ASSERT_NE(s.access_at(base + 2), nullptr);
    const Compute* mul = s.compute_at(base + 3);
    ASSERT_NE(mul, nullptr);
    EXPECT_EQ(mul->op, uint16_t(exec::OpKind::Multiply));
    EXPECT_EQ(mul->dep[0], base + 1);
    EXPECT_EQ(mul->dep[1], base + 2);
    EXPECT_EQ(mul->scalar, 1);
    EXPECT_EQ(mul->op_class, uint8_t(OpClass::Mul));
    const Compute* add = s.compute_at(base + 4);
    ASSERT_NE(add, nullptr);
    EXPECT_EQ(add->op, uint16_t(exec::OpKind::Add));
    EXPECT_EQ(add->dep[0], prev_add);  // 0 (the constant 0.0) the first time
    EXPECT_EQ(add->dep[1], base + 3);
    EXPECT_EQ(add->flops, 1u);
    prev_add = base + 4;
  }
  const Access* store = s.access_at(41);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->kind, AccessKind::Write);
  EXPECT_EQ(store->dep, prev_add);  // the value it stores
}

// An innermost loop's iterations carry its induction streams (the distinct
// address strides of its accesses, learnt from its first two iterations):
// A[i, k] steps 4 B and B[k, j] 32 B a k, two streams from the third
// iteration on; the j loop around it is not innermost and stays at one.
TEST(Dataflow, AnInnermostLoopCountsItsInductionStreams) {
  const OrderSink s = run_cpu(
      "A = pto.tensor([8, 8], init=\"random\", seed=1)\n"
      "B = pto.tensor([8, 8], init=\"random\", seed=2)\n"
      "for j in range(2):\n"
      "    acc = 0.0\n"
      "    for k in range(8):\n"
      "        acc += A[1, k] * B[k, j]\n");
  std::vector<uint8_t> inner, outer;
  for (const auto& e : s.events)
    if (const Compute* c = std::get_if<Compute>(&e); c && c->op == uint16_t(exec::OpKind::Loop))
      (inner.size() + outer.size() == 0 || (outer.size() == 1 && inner.size() == 8) ? outer : inner).push_back(c->scalar);
  ASSERT_EQ(outer, (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ(inner, (std::vector<uint8_t>{1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2}));
}

// The same stride for both (a row of each): one stream, as C[i, j] += a * B[k, j].
TEST(Dataflow, AccessesOfOneStrideShareAStream) {
  const OrderSink s = run_cpu(
      "B = pto.tensor([8], init=\"random\", seed=2)\n"
      "C = pto.tensor([8])\n"
      "for j in range(8):\n"
      "    C[j] += 2.0 * B[j]\n");
  for (const auto& e : s.events) {
    if (const Compute* c = std::get_if<Compute>(&e); c && c->op == uint16_t(exec::OpKind::Loop)) {
      EXPECT_EQ(c->scalar, 1);
    }
  }
}

TEST(Dataflow, AScalarOpIsTimedForItsOperandsType) {
  const OrderSink s = run_cpu(
      "H = pto.tensor([2], pto.float16, init=\"random\", seed=1)\n"
      "F = pto.tensor([2], init=\"random\", seed=2)\n"
      "I = pto.tensor([2], pto.int32)\n"
      "x = H[0] * H[1]\n"    // 1 2 3: two float16 reads, float16
      "y = x + 0.5\n"        // 4: a literal takes the other operand's type
      "z = y * F[0]\n"       // 5 6: float16 meets float32: float32
      "w = I[0] * 0.5\n"     // 7 8: an integer element in a float op: float32
      "v = x * x\n");        // 9: float16
  auto dtype_of = [&](uint32_t seq) {
    const Compute* c = s.compute_at(seq);
    EXPECT_NE(c, nullptr) << seq;
    return c ? int(c->dtype) : -1;
  };
  EXPECT_EQ(dtype_of(3), int(exec::DType::F16));
  EXPECT_EQ(dtype_of(4), int(exec::DType::F16));
  EXPECT_EQ(dtype_of(6), int(exec::DType::F32));
  EXPECT_EQ(dtype_of(8), int(exec::DType::F32));
  EXPECT_EQ(dtype_of(9), int(exec::DType::F16));
  EXPECT_EQ(s.events.size(), 9u);
}

TEST(Dataflow, AnIndexLoadedFromMemoryIsTheNextLoadsAddress) {
  const OrderSink s = run_cpu(
      "nxt = pto.tensor([4], pto.int32)\n"
      "nxt[0] = 2\nnxt[2] = 1\nnxt[1] = 3\n"
      "p = 0\n"
      "for step in range(3):\n"
      "    p = nxt[p]\n");
  // Three writes, then per step: the loop, the read whose address is p.
  ASSERT_EQ(s.events.size(), 3u + 3 * 2);
  EXPECT_EQ(s.access_at(5)->dep, 0u);  // p = 0 is a constant
  EXPECT_EQ(s.access_at(7)->dep, 5u);
  EXPECT_EQ(s.access_at(9)->dep, 7u);
}

TEST(Dataflow, TheSimpleCoreGetsBatchedComputeAndNoDependences) {
  OrderSink s;
  run_program_text("t.pto",
                   "A = pto.tensor([8], init=\"random\", seed=1)\nacc = 0.0\nfor k in range(8):\n    acc += A[k]\n",
                   frontend_test_config(), ProgramOptions{}, &s);
  ASSERT_EQ(s.events.size(), 9u);  // 8 reads, one batch of 8 adds
  const Compute* c = s.compute_at(9);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->flops, 8u);  // `acc += x` on a local counts its flop
  for (uint32_t k = 1; k <= 8; ++k) EXPECT_EQ(s.access_at(k)->dep, 0u);
}

}  // namespace
}  // namespace ptosim::test
