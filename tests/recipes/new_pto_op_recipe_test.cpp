// The recipe "add a PTO op" of docs/ARCHITECTURE.md, followed to the letter:
// the first part of this file is what a contributor writes at the end of
// sim/exec/<family>.cpp — the executor function (values and events, with the
// emission helpers of sim/exec/emit.h) and its one registration line, which
// names the op, its parameters and what it does (sim/exec/pto_op.h). It
// includes nothing from sim/frontend, as a file of sim/exec may not; no
// declaration in ops.h, no binding in the frontend, no list of ops edited.
// The second part checks that a program can call it, that its values are
// right, that its events are exactly its operands' bytes and its flops, that
// a bad call fails at the call's (or the argument's) position, and that it
// joins the generated table of `pto.` calls with its parameters and line.
// Its own binary, so that the extra op stays out of every other test's
// `pto.` namespace.
#include <gtest/gtest.h>

#include "sim/exec/emit.h"
#include "sim/exec/pto_op.h"

namespace ptosim::exec {
namespace {

// alpha * x + y, elementwise, x and y of one shape; timed as a multiply
// and an add per element (an op with its own cost would add one row to
// op_table.h's PTOSIM_COMPUTE_OPS).
Tensor run_axpy(ExecContext& c, const OpArgs& a) {
  const double alpha = a.number(0, "alpha");
  const Tensor& x = a.tensor(1, "x");
  const Tensor& y = a.tensor(2, "y");
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

PTOSIM_REGISTER(PtoOpConcept, Axpy, "axpy", 0,
                "alpha * x + y, x and y of one shape: reads x and y whole, writes the result",
                pto_op({"alpha", "x", "y"}, 3, run_axpy));

}  // namespace ptosim::exec

#include "sim/frontend/nodes.h"
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
  ProgramRun by_keyword = run_text(kOperands + "z = pto.axpy(y=y, x=x, alpha=2.0)\n"
                                               "pto.check(z, pto.add(pto.multiply(x, 2.0), y))\n");
  EXPECT_TRUE(by_keyword.result.all_checks_passed());
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
  // A bad combination (OpError) at the call; a bad argument at the argument.
  const std::string shapes = error_of(kOperands + "z = pto.axpy(2.0, x, pto.ones((4, 4)))\n");
  EXPECT_NE(shapes.find("t.pto:3:"), std::string::npos) << shapes;
  EXPECT_NE(shapes.find("differ in shape"), std::string::npos) << shapes;
  EXPECT_NE(error_of(kOperands + "z = pto.axpy(2.0, x)\n").find("t.pto:3:"), std::string::npos);
  const std::string type = error_of(kOperands + "z = pto.axpy(2.0, x,\n    3)\n");
  EXPECT_NE(type.find("t.pto:4:"), std::string::npos) << type;
  EXPECT_NE(type.find("y must be a tensor, not int"), std::string::npos) << type;
}

TEST(NewPtoOpRecipe, JoinsTheGeneratedTableOfCalls) {
  const frontend::BuiltinDef* d = frontend::find_pto("axpy");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->params, (std::vector<std::string>{"alpha", "x", "y"}));
  EXPECT_EQ(d->required, 3);
  EXPECT_TRUE(d->op);
  EXPECT_EQ(d->about, "alpha * x + y, x and y of one shape: reads x and y whole, writes the result");
  int listed = 0;
  for (const frontend::BuiltinDef* c : frontend::pto_callables()) listed += c->name == "pto.axpy";
  EXPECT_EQ(listed, 1);
}

}  // namespace
}  // namespace ptosim::test
