#include <cmath>

#include "sim/exec/emit.h"
#include "sim/exec/tiling.h"

namespace ptosim::exec {

using namespace detail;

double apply_unary(OpKind op, double x) {
  switch (op) {
    case OpKind::Exp: return std::exp(x);
    case OpKind::Log: return std::log(x);
    case OpKind::Sqrt: return std::sqrt(x);
    case OpKind::Rsqrt: return 1.0 / std::sqrt(x);
    case OpKind::Tanh: return std::tanh(x);
    case OpKind::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case OpKind::Relu: return x > 0 ? x : 0.0;
    case OpKind::Gelu: return 0.5 * x * (1.0 + std::erf(x * 0.70710678118654752440));
    case OpKind::Square: return x * x;
    case OpKind::Neg: return -x;
    case OpKind::Abs: return std::fabs(x);
    default: throw OpError(std::string("not a unary op: ") + op_info(op).name);
  }
}

double apply_binary(OpKind op, double a, double b) {
  switch (op) {
    case OpKind::Add: return a + b;
    case OpKind::Subtract: return a - b;
    case OpKind::Multiply: return a * b;
    case OpKind::Divide: return a / b;
    case OpKind::Maximum: return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
    case OpKind::Minimum: return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
    default: throw OpError(std::string("not a binary op: ") + op_info(op).name);
  }
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  size_t r = std::max(a.size(), b.size());
  Shape out(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t x = i < r - a.size() ? 1 : a[i - (r - a.size())];
    int64_t y = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (x != y && x != 1 && y != 1)
      throw OpError("operands could not be broadcast together with shapes " + shape_str(a) + " " + shape_str(b));
    out[i] = x == 1 ? y : x;
  }
  return out;
}

namespace {

bool is_float_op(OpKind op) {
  switch (op) {
    case OpKind::Divide: case OpKind::Exp: case OpKind::Log: case OpKind::Sqrt: case OpKind::Rsqrt:
    case OpKind::Tanh: case OpKind::Sigmoid: case OpKind::Gelu: return true;
    default: return false;
  }
}

// Events of an untiled elementwise op (docs/EXEC.md "Elementwise").
void elementwise_events(ExecContext& c, OpKind op, const std::vector<Tensor>& ins, const Tensor& out) {
  std::vector<Mode> im;
  for (auto& t : ins) im.push_back(read_mode(c, t));
  Mode om = write_mode(c, out);
  bool any = om == Mode::Element;
  for (size_t i = 0; i < ins.size(); ++i) {
    if (im[i] != Mode::Element) emit_whole(c, ins[i], AccessKind::Read, im[i]);
    else any = true;
  }
  if (any && out.numel() > 0) {
    uint64_t vb = vector_bytes(c);
    int64_t V = std::max<int64_t>(1, int64_t(vb / out.elem_size()));
    std::vector<Indexer> ix;
    std::vector<Coalescer> co;
    for (size_t i = 0; i < ins.size(); ++i)
      if (im[i] == Mode::Element) {
        ix.emplace_back(ins[i], out.shape());
        co.emplace_back(c, AccessKind::Read, ins[i], vb);
      }
    Indexer ox(out);
    Coalescer oc(c, AccessKind::Write, out, vb);
    bool ow = om == Mode::Element;
    int64_t len = inner_len(out.shape());
    std::vector<int64_t> rows(ix.size());
    for_each_row(out.shape(), [&](const int64_t* outer, int64_t) {
      for (size_t k = 0; k < ix.size(); ++k) rows[k] = ix[k].row(outer);
      int64_t orow = ox.row(outer);
      for (int64_t j0 = 0; j0 < len; j0 += V) {
        int64_t j1 = std::min(len, j0 + V);
        for (size_t k = 0; k < ix.size(); ++k) {
          const auto& in = ix[k].inner();
          for (int64_t j = j0; j < j1; ++j) co[k].add(ix[k].addr(rows[k] + in[size_t(j)]), ix[k].es);
          co[k].flush();
        }
        if (ow) {
          for (int64_t j = j0; j < j1; ++j) oc.add(ox.addr(orow + ox.inner()[size_t(j)]), ox.es);
          oc.flush();
        }
      }
    });
  }
  if (om != Mode::Element) emit_whole(c, out, AccessKind::Write, om);
  double flops = double(out.numel()) * op_cost(c.config(), op);
  if (flops > 0) c.compute(op, flops);
}

void all_events(ExecContext& c, OpKind op, const std::vector<Tensor>& ins, const Tensor& out) {
  if (dim_tiling(c) && !c.fusing()) tiled_elementwise_events(c, op, ins, out, elementwise_events);
  else elementwise_events(c, op, ins, out);
}

}  // namespace

Tensor unary(ExecContext& c, OpKind op, const Operand& x) {
  if (!x.is_tensor()) throw OpError(std::string("pto.") + op_info(op).name + " expects a tensor operand");
  const Tensor& t = x.tensor;
  t.check_live();
  apply_unary(op, 0.0);  // validates op
  DType dt = t.dtype();
  if (is_float_op(op) && !dtype_is_float(dt)) dt = DType::F32;
  Tensor out = alloc_result(c, t.shape(), dt, c.result_space(&t), op_info(op).name);
  Indexer ix(t), ox(out);
  const auto& sv = t.storage()->values;
  auto& dv = out.storage()->values;
  int64_t len = inner_len(t.shape());
  for_each_row(t.shape(), [&](const int64_t* outer, int64_t n) {
    int64_t r = ix.row(outer);
    for (int64_t j = 0; j < len; ++j)
      dv[size_t(n * len + j)] = round_to(dt, apply_unary(op, sv[size_t(r + ix.inner()[size_t(j)])]));
  });
  all_events(c, op, {t}, out);
  return out;
}

Tensor binary(ExecContext& c, OpKind op, const Operand& a, const Operand& b) {
  if (!a.is_tensor() && !b.is_tensor())
    throw OpError(std::string("pto.") + op_info(op).name + " expects at least one tensor operand");
  apply_binary(op, 1.0, 1.0);  // validates op
  if (a.is_tensor()) a.tensor.check_live();
  if (b.is_tensor()) b.tensor.check_live();
  Shape shape;
  DType dt;
  if (a.is_tensor() && b.is_tensor()) {
    shape = broadcast_shapes(a.tensor.shape(), b.tensor.shape());
    dt = promote(a.tensor.dtype(), b.tensor.dtype());
  } else {
    const Tensor& t = a.is_tensor() ? a.tensor : b.tensor;
    double s = a.is_tensor() ? b.scalar : a.scalar;
    shape = t.shape();
    dt = t.dtype();
    if (!dtype_is_float(dt) && s != std::trunc(s)) dt = DType::F32;
  }
  if (op == OpKind::Divide && !dtype_is_float(dt)) dt = DType::F32;
  const Tensor* first = a.is_tensor() ? &a.tensor : &b.tensor;
  Tensor out = alloc_result(c, shape, dt, c.result_space(first), op_info(op).name);
  std::vector<Tensor> ins;
  Indexer ax, bx;
  if (a.is_tensor()) { ax = Indexer(a.tensor, shape); ins.push_back(a.tensor); }
  if (b.is_tensor()) { bx = Indexer(b.tensor, shape); ins.push_back(b.tensor); }
  const std::vector<double>* av = a.is_tensor() ? &a.tensor.storage()->values : nullptr;
  const std::vector<double>* bv = b.is_tensor() ? &b.tensor.storage()->values : nullptr;
  auto& dv = out.storage()->values;
  int64_t len = inner_len(shape);
  for_each_row(shape, [&](const int64_t* outer, int64_t n) {
    int64_t ar = av ? ax.row(outer) : 0, br = bv ? bx.row(outer) : 0;
    for (int64_t j = 0; j < len; ++j) {
      double x = av ? (*av)[size_t(ar + ax.inner()[size_t(j)])] : a.scalar;
      double y = bv ? (*bv)[size_t(br + bx.inner()[size_t(j)])] : b.scalar;
      dv[size_t(n * len + j)] = round_to(dt, apply_binary(op, x, y));
    }
  });
  all_events(c, op, ins, out);
  return out;
}

Tensor elementwise(ExecContext& c, const std::string& name, const std::vector<Operand>& args) {
  auto op = op_from_name(name);
  if (!op || *op < OpKind::Add || *op > OpKind::Abs) throw OpError("unknown elementwise op 'pto." + name + "'");
  bool bin = *op <= OpKind::Minimum;
  size_t want = bin ? 2 : 1;
  if (args.size() != want)
    throw OpError("pto." + name + " takes " + std::to_string(want) + " argument" + (want > 1 ? "s" : "") + " (" +
                  std::to_string(args.size()) + " given)");
  return bin ? binary(c, *op, args[0], args[1]) : unary(c, *op, args[0]);
}

Tensor full(ExecContext& c, const Shape& shape, double value, DType dtype, const std::string& memory) {
  SpaceId sp = memory.empty() ? c.default_space() : c.space_id(memory);
  Tensor out = alloc_result(c, shape, dtype, sp, "full");
  check_writable(c, out, "pto.full");
  double v = round_to(dtype, value);
  auto& dv = out.storage()->values;
  std::fill(dv.begin(), dv.end(), v);
  emit_whole(c, out, AccessKind::Write, natural_mode(c, out));
  return out;
}
Tensor zeros(ExecContext& c, const Shape& shape, DType dtype, const std::string& memory) {
  return full(c, shape, 0.0, dtype, memory);
}
Tensor ones(ExecContext& c, const Shape& shape, DType dtype, const std::string& memory) {
  return full(c, shape, 1.0, dtype, memory);
}

}  // namespace ptosim::exec
