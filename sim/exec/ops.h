#pragma once
// Every `pto.` operation, as the interpreter calls it. All functions check
// that tensor operands are live and throw OpError on bad arguments (shape
// mismatch, bad axis, write to a read-only space, ...). Event order and
// grouping of each op: docs/EXEC.md.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/exec/exec_context.h"
#include "sim/exec/tensor.h"

namespace ptosim::exec {

// An op operand: a tensor or a Python number.
struct Operand {
  Tensor tensor;      // valid() when a tensor
  double scalar = 0;  // otherwise
  Operand(const Tensor& t) : tensor(t) {}  // NOLINT: implicit on purpose
  Operand(double v) : scalar(v) {}         // NOLINT
  bool is_tensor() const { return tensor.valid(); }
};

// ---- constructors (writes of the new tensor; no reads) ----
// memory "" = default space. zeros/ones/full emit the writes of the new tensor
// like any op result (per vector in cached spaces, bulk otherwise).
Tensor zeros(ExecContext& c, const Shape& shape, DType dtype = DType::F32, const std::string& memory = "");
Tensor ones(ExecContext& c, const Shape& shape, DType dtype = DType::F32, const std::string& memory = "");
Tensor full(ExecContext& c, const Shape& shape, double value, DType dtype = DType::F32,
            const std::string& memory = "");

// ---- elementwise (NumPy broadcasting; result dtype = promoted tensor dtypes,
// float32 for int inputs of divide / transcendental ops) ----
// add subtract multiply divide maximum minimum
Tensor binary(ExecContext& c, OpKind op, const Operand& a, const Operand& b);
// exp log sqrt rsqrt tanh sigmoid relu gelu square neg abs
Tensor unary(ExecContext& c, OpKind op, const Operand& x);
// Dispatch by name ("add", "exp", ...): 1 or 2 operands. OpError on unknown name / arity.
Tensor elementwise(ExecContext& c, const std::string& name, const std::vector<Operand>& args);
// The value function behind unary/binary (same as pto.ref.gelu for Gelu).
double apply_unary(OpKind op, double x);
double apply_binary(OpKind op, double a, double b);  // divide by zero follows IEEE (inf/nan)
Shape broadcast_shapes(const Shape& a, const Shape& b);  // OpError when incompatible

// ---- reductions ----
// op: ReduceSum | ReduceMean | ReduceMax. axis may be negative; nullopt = all.
Tensor reduce(ExecContext& c, OpKind op, const Tensor& x, std::optional<int> axis, bool keepdims = false);
Tensor softmax(ExecContext& c, const Tensor& x, int axis = -1);

// ---- matmul / conv ----
// a [..., M, K] @ b [..., K, N] (1-D operands promoted like NumPy), batch dims broadcast.
Tensor matmul(ExecContext& c, const Tensor& a, const Tensor& b);
// acc += a @ b in place (acc shape must equal the matmul result shape).
void matmul_acc(ExecContext& c, const Tensor& acc, const Tensor& a, const Tensor& b);
// input [N, C, H, W], weight [F, C, KH, KW] -> [N, F, OH, OW],
// OH = (H + 2*padding - KH) / stride + 1 (zero padding).
Tensor conv2d(ExecContext& c, const Tensor& input, const Tensor& weight, int64_t stride = 1, int64_t padding = 0);
// input [N, C, H, W] -> [N, C*KH*KW, OH*OW]; row (c*KH + i)*KW + j, column oh*OW + ow.
Tensor im2col(ExecContext& c, const Tensor& input, int64_t kh, int64_t kw, int64_t stride = 1, int64_t padding = 0);

// ---- data movement ----
// New tensor in `memory` ("" = default space) holding a copy of view:
// reads of the source then writes of the destination, row run by row run.
Tensor load(ExecContext& c, const Tensor& view, const std::string& memory = "");
Tensor copy(ExecContext& c, const Tensor& x, const std::string& memory = "");
// dst_view = src (shapes must be equal, or src broadcastable to dst).
void store(ExecContext& c, const Tensor& src, const Tensor& dst_view);
// Slice / whole-tensor assignment: dst op= src. op: None (plain =), Add,
// Subtract, Multiply, Divide. `C[m:m+64, :] = t` is assign(c, view, t);
// `C[m:m+64, :] += t` is assign(c, view, t, OpKind::Add).
void assign(ExecContext& c, const Tensor& dst_view, const Operand& src, OpKind op = OpKind::None);
// from/to: "NCHW" "NHWC" (permute, 4-D), "BLOCKED" (block_shape), "VECTORIZED"
// (vector_width), "ROW_MAJOR", "COL_MAJOR" (case-insensitive).
// One full read + one full write; the result lives in x's space.
Tensor layout_transform(ExecContext& c, const Tensor& x, const std::string& from_layout,
                        const std::string& to_layout, const std::vector<int64_t>& block_shape = {},
                        int64_t vector_width = 0);
// View when possible, else a copy in x's space (one read + one write).
Tensor reshape(ExecContext& c, const Tensor& x, const Shape& shape);
// View, no events.
Tensor transpose(ExecContext& c, const Tensor& x, const std::vector<int>& perm = {});
// View `x[items]`, no events (checks liveness).
Tensor subscript(ExecContext& c, const Tensor& x, const std::vector<IndexItem>& items);

// ---- scalar elements: one access of the dtype size each ----
// idx may contain negative indices; OpError when out of bounds or rank differs.
double read_element(ExecContext& c, const Tensor& t, const std::vector<int64_t>& idx);
void write_element(ExecContext& c, const Tensor& t, const std::vector<int64_t>& idx, double value);

// ---- references: double precision, no events, results in global (tagged
// "ref.<op>"; they are never touched by events unless the program does) ----
namespace ref {
Tensor matmul(ExecContext& c, const Tensor& a, const Tensor& b);
Tensor conv2d(ExecContext& c, const Tensor& input, const Tensor& weight, int64_t stride = 1, int64_t padding = 0);
Tensor softmax(ExecContext& c, const Tensor& x, int axis = -1);
Tensor gelu(ExecContext& c, const Tensor& x);
Tensor layer_norm(ExecContext& c, const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps = 1e-5);
Tensor attention(ExecContext& c, const Tensor& q, const Tensor& k, const Tensor& v,
                 std::optional<double> scale = std::nullopt);
}  // namespace ref

// ---- checking / outputs (no events) ----
// |a - e| <= atol + rtol*|e| for every element (shapes must broadcast-equal).
// Appends to c.result().checks (with pos) and returns it. NaN never passes.
CheckOutcome check(ExecContext& c, const Tensor& actual, const Tensor& expected, double rtol = 1e-4,
                   double atol = 1e-5, const SourcePos& pos = {});
// Appends the checksum of x to c.result().outputs (name "" = x.name()).
OutputChecksum output(ExecContext& c, const Tensor& x, const std::string& name = "");

// Seeded generator used by init="random": splitmix64 seeding xoshiro256**;
// uniform in [-1, 1) with 53-bit resolution; identical on every machine.
class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t next();
  double uniform();  // [-1, 1)
 private:
  uint64_t s_[4];
};

}  // namespace ptosim::exec
