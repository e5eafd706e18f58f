// The recipe "add a PTO op" of docs/ARCHITECTURE.md, followed to the letter:
// the executor function below is what a contributor writes in
// sim/exec/<family>.cpp (values and events, with the emission helpers of
// sim/exec/emit.h), and the binding under it is the one registration line
// beside it (sim/frontend/pto_op.h); nothing else in the tree knows about
// `pto.axpy`. A program can call it, its values are right, its events are
// exactly its operands' bytes and its flops, and a bad call fails at the
// call's position. Its own binary, so that the extra op stays out of every
// other test's `pto.` namespace.
#include <gtest/gtest.h>

#include "sim/exec/emit.h"
#include "sim/frontend/pto_op.h"

namespace ptosim::exec {
namespace {

// alpha * x + y, elementwise, x and y of one shape; timed as a multiply
// and an add per element (an op with its own cost would add one row to
// op_table.h's PTOSIM_COMPUTE_OPS).
Tensor axpy(ExecContext& c, double alpha, const Tensor& x, const Tensor& y) {
  x.check_live();
  y.check_live();
  if (x.shape() != y.shape())
    throw OpError("pto.axpy: x " + shape_str(x.shape()) + " and y " + shape_str(y.shape()) + " differ in shape");
  Tensor out = detail::alloc_result(c, x.shape(), x.dtype(), c.result_space(&x), "axpy");
  const std::vector<double> xv = x.to_vector(), yv = y.to_vector();
  auto& dv = out.storage()->values;
  for (size_t i = 0; i < xv.size(); ++i) dv[i] = round_to(out.dtype(), alpha * xv[i] + yv[i]);
  detail::emit_whole(c, x, AccessKind::Read, detail::read_mode(c, x));
  detail::emit_whole(c, y, AccessKind::Read, detail::read_mode(c, y));
  detail::emit_whole(c, out, AccessKind::Write, detail::write_mode(c, out));
  const double n = double(out.numel());
  c.compute(OpKind::Multiply, n * op_cost(c.config(), OpKind::Multiply));
  c.compute(OpKind::Add, n * op_cost(c.config(), OpKind::Add));
  return out;
}

}  // namespace
}  // namespace ptosim::exec

namespace ptosim::frontend {
namespace {

Value p_axpy(Interp& in, Args& a) {
  return Value::tensor(exec::axpy(in.ctx, to_double(a[0], a.at(0), "alpha"), to_tensor(a[1], a.at(1), "x"),
                                  to_tensor(a[2], a.at(2), "y")));
}

const PtoOpBinding kAxpy{{"alpha", "x", "y"}, 3, p_axpy};

}  // namespace

PTOSIM_REGISTER(PtoOpConcept, Axpy, "axpy", 0, "alpha * x + y", kAxpy);

}  // namespace ptosim::frontend

#include "tests/sim/frontend/frontend_test_util.h"

namespace ptosim::test {
namespace {

const std::string kOperands =
    "x = pto.tensor((4, 8), init=\"arange\")\n"
    "y = pto.ones((4, 8))\n";

TEST(NewPtoOpRecipe, ValuesAreAlphaXPlusY) {
  ProgramRun right = run_text(kOperands + "z = pto.axpy(2.0, x, y)\npto.check(z, pto.add(pto.multiply(x, 2.0), y))\n");
  ASSERT_EQ(right.result.checks.size(), 1u);
  EXPECT_TRUE(right.result.all_checks_passed());
  ProgramRun wrong = run_text(kOperands + "z = pto.axpy(2.0, x, y)\npto.check(z, pto.add(x, y))\n");
  EXPECT_FALSE(wrong.result.all_checks_passed());
}

TEST(NewPtoOpRecipe, EventsAreItsOperandsAndItsFlops) {
  const ProgramRun before = run_text(kOperands);
  const ProgramRun after = run_text(kOperands + "z = pto.axpy(2.0, x, y)\n");
  const uint64_t bytes = 4 * 8 * 4;  // 32 float32 elements
  EXPECT_EQ(after.sink.read_bytes - before.sink.read_bytes, 2 * bytes);
  EXPECT_EQ(after.sink.write_bytes - before.sink.write_bytes, bytes);
  EXPECT_EQ(after.sink.flops - before.sink.flops, 2u * 32u);
}

TEST(NewPtoOpRecipe, ABadCallFailsAtItsPosition) {
  EXPECT_NE(error_of(kOperands + "z = pto.axpy(2.0, x, pto.ones((4, 4)))\n")
                .find("t.pto:3:"),
            std::string::npos);
  EXPECT_NE(error_of(kOperands + "z = pto.axpy(2.0, x, pto.ones((4, 4)))\n").find("differ in shape"),
            std::string::npos);
  EXPECT_NE(error_of(kOperands + "z = pto.axpy(2.0, x)\n").find("t.pto:3:"), std::string::npos);
}

}  // namespace
}  // namespace ptosim::test
