// The compute-op table's promises: every id's row carries its own name (the
// list in op_table.h expands to both, so no row can sit in another op's
// slot), names are unique, and the ids reports and traces carry stay where
// they were (a new op is appended, never inserted).
#include <gtest/gtest.h>

#include <set>

#include "sim/exec/op_table.h"

namespace ptosim::exec {
namespace {

TEST(OpTable, EveryIdRoundTripsThroughItsName) {
  std::set<std::string> names;
  for (size_t i = 1; i < size_t(OpKind::Count); ++i) {
    const OpKind op = OpKind(i);
    EXPECT_TRUE(names.insert(op_info(op).name).second) << op_info(op).name << " twice";
    EXPECT_EQ(op_from_name(op_info(op).name), op) << op_info(op).name;
  }
  EXPECT_EQ(op_from_name("none"), std::nullopt);
  EXPECT_EQ(op_from_name("axpy"), std::nullopt);
  EXPECT_STREQ(op_info(OpKind::Count).name, "none");  // out of range reads as none
}

TEST(OpTable, IdsAndRowsStayPut) {
  EXPECT_EQ(size_t(OpKind::Add), 1u);
  EXPECT_EQ(size_t(OpKind::Abs), 17u);
  EXPECT_EQ(size_t(OpKind::Softmax), 21u);
  EXPECT_EQ(size_t(OpKind::Matmul), 22u);
  EXPECT_EQ(size_t(OpKind::Loop), 28u);
  EXPECT_STREQ(op_info(OpKind::Divide).name, "divide");
  EXPECT_EQ(op_info(OpKind::Divide).flops_per_element, 4);
  EXPECT_EQ(op_info(OpKind::Divide).cls, OpClass::Div);
  EXPECT_EQ(op_info(OpKind::Gelu).flops_per_element, 20);
  EXPECT_EQ(op_info(OpKind::Matmul).cls, OpClass::Fma);
  EXPECT_EQ(op_info(OpKind::Copy).flops_per_element, 0);
}

}  // namespace
}  // namespace ptosim::exec
