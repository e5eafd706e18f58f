// The `pto.` namespace: every name a program can call. The built-ins that
// take the language's own values are bound here to the executor
// (sim/exec/ops.h), with their argument conversion and its error messages;
// the ops registered from sim/exec (pto_op.h) join the same table, their
// arguments through ValueArgs below. The semantics live in the executor.
#include <cmath>
#include <map>
#include <stdexcept>

#include "sim/exec/ops.h"
#include "sim/frontend/scopes.h"
#include "sim/frontend/nodes.h"
#include "sim/frontend/tools.h"

namespace ptosim::frontend {

namespace {

using exec::OpKind;

constexpr int64_t kMaxElements = exec::kMaxTensorElements;

const exec::Tensor& T(Args& a, int k, const char* what) { return to_tensor(a[k], a.at(k), what); }

std::string mem(Args& a, int k) { return a.has(k) ? to_string_arg(a[k], a.at(k), "memory") : std::string(); }

exec::DType dtype_arg(Args& a, int k) {
  if (!a.has(k)) return exec::DType::F32;
  const Value& v = a[k];
  if (v.tag == VT::DType) return exec::DType(v.i);
  if (v.tag == VT::Str)
    if (auto d = exec::dtype_from_name(v.as_str())) return *d;
  fail(a.at(k), "bad dtype " + to_repr(v) +
                    " (expected pto.float32, pto.float16, pto.bfloat16, pto.int32 or pto.int8)");
}

exec::Shape shape_arg(Args& a, int k, const char* what) {
  exec::Shape s = to_shape(a[k], a.at(k), what);
  int64_t n = 1;
  for (int64_t d : s) {
    if (d > kMaxElements || (n *= std::max<int64_t>(d, 1)) > kMaxElements)
      fail(a.at(k), std::string(what) + " " + exec::shape_str(s) + " is too large (limit 2^28 elements)");
  }
  return s;
}

std::optional<int> axis_arg(Args& a, int k) {
  if (!a.has(k)) return std::nullopt;
  return int(to_int(a[k], a.at(k), "axis"));
}

exec::Operand operand_arg(Args& a, int k) {
  const Value& v = a[k];
  if (v.tag == VT::Tensor) return exec::Operand(v.as_tensor());
  if (v.is_number()) return exec::Operand(v.as_double());
  fail(a.at(k), std::string("operand must be a tensor or a number, not ") + type_name(v));
}

Value tensor(exec::Tensor t) { return Value::tensor(std::move(t)); }

// ---- construction --------------------------------------------------------
Value p_tensor(Interp& in, Args& a) {
  exec::TensorSpec spec;
  spec.shape = shape_arg(a, 0, "shape");
  spec.dtype = dtype_arg(a, 1);
  spec.memory = mem(a, 2);
  if (a.has(3)) {
    if (a[3].tag == VT::Layout) spec.layout = a[3].as_layout();
    else spec.layout = exec::layout_from_name(to_string_arg(a[3], a.at(3), "layout"));
  }
  if (a.has(4)) {
    if (a[4].tag == VT::Str) {
      spec.init = a[4].as_str();
      if (spec.init != "zeros" && spec.init != "ones" && spec.init != "random" && spec.init != "arange")
        fail(a.at(4), "unknown init '" + spec.init + "' (expected \"zeros\", \"ones\", \"random\", \"arange\" or a number)");
    } else if (a[4].is_number()) {
      spec.init = "";
      spec.init_value = a[4].as_double();
    } else {
      fail(a.at(4), std::string("init must be a string or a number, not ") + type_name(a[4]));
    }
  }
  if (a.has(5)) {
    int64_t seed = to_int(a[5], a.at(5), "seed");
    spec.seed = uint64_t(seed);
  }
  if (a.has(6)) spec.name = to_string_arg(a[6], a.at(6), "name");
  return tensor(in.ctx.create(spec));
}

Value p_blocked(Interp&, Args& a) {
  exec::Shape b = to_shape(a[0], a.at(0), "block shape");
  for (int64_t x : b)
    if (x <= 0) fail(a.at(0), "block sizes must be positive");
  return Value::layout(exec::Layout::blocked(b));
}
Value p_vectorized(Interp&, Args& a) {
  int64_t w = to_int(a[0], a.at(0), "vector width");
  if (w <= 0) fail(a.at(0), "vector width must be positive, got " + std::to_string(w));
  return Value::layout(exec::Layout::vectorized(w));
}

Value p_zeros(Interp& in, Args& a) { return tensor(exec::zeros(in.ctx, shape_arg(a, 0, "shape"), dtype_arg(a, 1), mem(a, 2))); }
Value p_ones(Interp& in, Args& a) { return tensor(exec::ones(in.ctx, shape_arg(a, 0, "shape"), dtype_arg(a, 1), mem(a, 2))); }
Value p_full(Interp& in, Args& a) {
  double v = to_double(a[1], a.at(1), "fill value");
  return tensor(exec::full(in.ctx, shape_arg(a, 0, "shape"), v, dtype_arg(a, 2), mem(a, 3)));
}

// ---- shape and views ------------------------------------------------------
Value p_reshape(Interp& in, Args& a) {
  exec::Shape s;
  const Value& v = a[1];
  if (v.is_int()) {
    s.push_back(v.i);
  } else if (v.tag == VT::List || v.tag == VT::Tuple) {
    for (const Value& x : v.items()) s.push_back(to_int(x, a.at(1), "shape entry"));
  } else {
    fail(a.at(1), std::string("shape must be a list of integers, not ") + type_name(v));
  }
  return tensor(exec::reshape(in.ctx, T(a, 0, "reshape input"), s));
}
Value p_transpose(Interp& in, Args& a) {
  std::vector<int> perm;
  if (a.has(1)) {
    const Value& v = a[1];
    if (v.tag != VT::List && v.tag != VT::Tuple) fail(a.at(1), "perm must be a list of axes");
    for (const Value& x : v.items()) perm.push_back(int(to_int(x, a.at(1), "axis")));
  }
  return tensor(exec::transpose(in.ctx, T(a, 0, "transpose input"), perm));
}

// ---- compute -------------------------------------------------------------
// pto.multiply(data[i], 2.0) on two numbers: the scalar arithmetic `*`
// would be (Python's result, the flops of its kind).
template <OpKind K>
Value scalar_binary(Interp& in, Args& a) {
  const Value& x = a[0];
  const Value& y = a[1];
  to_double(x, a.at(0), "operand");
  to_double(y, a.at(1), "operand");
  switch (K) {
    case OpKind::Add: return binary_op(in, BinOp::Add, x, y, a.pos);
    case OpKind::Subtract: return binary_op(in, BinOp::Sub, x, y, a.pos);
    case OpKind::Multiply: return binary_op(in, BinOp::Mul, x, y, a.pos);
    case OpKind::Divide: return binary_op(in, BinOp::Div, x, y, a.pos);
    default: {
      const bool pick_x = K == OpKind::Maximum ? !compare_op(CmpOp::Lt, x, y, a.pos) : !compare_op(CmpOp::Gt, x, y, a.pos);
      const bool flop = x.tag == VT::Float || y.tag == VT::Float;  // integer arithmetic costs nothing
      const uint32_t t = flop ? in.ctx.scalar_op(K, x.tok, y.tok) : 0;
      Value r = pick_x ? x : y;
      r.tok = t;
      return r;
    }
  }
}

template <OpKind K>
Value p_binary(Interp& in, Args& a) {
  if (a[0].tag != VT::Tensor && a[1].tag != VT::Tensor) return scalar_binary<K>(in, a);
  return tensor(exec::binary(in.ctx, K, operand_arg(a, 0), operand_arg(a, 1)));
}
template <OpKind K>
Value p_unary(Interp& in, Args& a) {
  if (a[0].tag != VT::Tensor) {
    double x = to_double(a[0], a.at(0), "operand");
    const uint32_t t = in.ctx.scalar_op(K, a[0].tok);
    return Value::number_from(exec::apply_unary(K, x), t);
  }
  return tensor(exec::unary(in.ctx, K, operand_arg(a, 0)));
}

// ---- checking ------------------------------------------------------------
Value p_check(Interp& in, Args& a) {
  double rtol = a.has(2) ? to_double(a[2], a.at(2), "rtol") : 1e-4;
  double atol = a.has(3) ? to_double(a[3], a.at(3), "atol") : 1e-5;
  exec::Tensor act = T(a, 0, "check actual");
  exec::Tensor exp;
  if (a[1].tag == VT::Tensor) {
    exp = a[1].as_tensor();
  } else {
    // A scalar expectation is compared against every element.
    double v = to_double(a[1], a.at(1), "check expected");
    exp = exec::full(in.ctx, act.shape(), v, exec::DType::F32, "");
  }
  CheckOutcome c = exec::check(in.ctx, act, exp, rtol, atol, in.source_pos(a.pos));
  return Value::boolean(c.passed);
}
Value p_output(Interp& in, Args& a) {
  std::string name = a.has(1) ? to_string_arg(a[1], a.at(1), "name") : "";
  exec::output(in.ctx, T(a, 0, "output"), name);
  for (size_t k = 0; k < a.rest.size(); ++k) {
    if (a.rest[k].tag != VT::Tensor) fail(a.pos, "pto.output arguments must be tensors");
    exec::output(in.ctx, a.rest[k].as_tensor(), "");
  }
  return Value::none();
}

// ---- references ----------------------------------------------------------
int64_t int_arg(Args& a, int k, int64_t dflt, const char* what) { return a.has(k) ? to_int(a[k], a.at(k), what) : dflt; }
Value r_matmul(Interp& in, Args& a) { return tensor(exec::ref::matmul(in.ctx, T(a, 0, "a"), T(a, 1, "b"))); }
Value r_conv2d(Interp& in, Args& a) {
  return tensor(exec::ref::conv2d(in.ctx, T(a, 0, "input"), T(a, 1, "weight"), int_arg(a, 2, 1, "stride"),
                                  int_arg(a, 3, 0, "padding")));
}
Value r_softmax(Interp& in, Args& a) {
  return tensor(exec::ref::softmax(in.ctx, T(a, 0, "x"), axis_arg(a, 1).value_or(-1)));
}
Value r_gelu(Interp& in, Args& a) { return tensor(exec::ref::gelu(in.ctx, T(a, 0, "x"))); }
Value r_layer_norm(Interp& in, Args& a) {
  double eps = a.has(3) ? to_double(a[3], a.at(3), "eps") : 1e-5;
  return tensor(exec::ref::layer_norm(in.ctx, T(a, 0, "x"), T(a, 1, "gamma"), T(a, 2, "beta"), eps));
}
Value r_attention(Interp& in, Args& a) {
  std::optional<double> scale;
  if (a.has(3)) scale = to_double(a[3], a.at(3), "scale");
  return tensor(exec::ref::attention(in.ctx, T(a, 0, "q"), T(a, 1, "k"), T(a, 2, "v"), scale));
}

// A registered op's arguments (sim/exec/pto_op.h) over the interpreter's
// values: the same conversions, and the same errors at the same positions, as
// the bindings above.
class ValueArgs final : public exec::OpArgs {
 public:
  explicit ValueArgs(Args& a) : a_(a) {}
  bool has(int k) const override { return a_.has(k); }
  const exec::Tensor& tensor(int k, const char* what) const override { return to_tensor(a_[k], a_.at(k), what); }
  double number(int k, const char* what) const override { return to_double(a_[k], a_.at(k), what); }
  int64_t integer(int k, const char* what) const override { return to_int(a_[k], a_.at(k), what); }
  std::string text(int k, const char* what) const override { return to_string_arg(a_[k], a_.at(k), what); }
  exec::Shape shape(int k, const char* what) const override { return to_shape(a_[k], a_.at(k), what); }
  bool flag(int k) const override { return has(k) && truthy(a_[k], a_.at(k)); }
  [[noreturn]] void fail(int k, const std::string& message) const override { frontend::fail(a_.at(k), message); }

 private:
  Args& a_;
};

struct Tables {
  std::map<std::string, BuiltinDef> pto, ref;
};

void add(std::map<std::string, BuiltinDef>& m, const std::string& prefix, const std::string& name,
         std::vector<std::string> params, int required, BuiltinFn fn, std::string about) {
  BuiltinDef d;
  d.name = prefix + name;
  d.params = std::move(params);
  d.required = required;
  d.fn = fn;
  d.about = std::move(about);
  m[name] = d;
}

// The `pto.` names bound here rather than registered from sim/exec: they
// take the language's own values (dtypes, layouts, scalars that keep their
// dataflow token, lists of mixed meaning, variadic tensors, the call's
// source line), or are the article's tools. A new op registers beside its
// implementation instead (sim/exec/pto_op.h).
void add_builtins(std::map<std::string, BuiltinDef>& p) {
  const std::string P = "pto.";
  add(p, P, "tensor", {"shape", "dtype", "memory", "layout", "init", "seed", "name"}, 1, p_tensor,
      "a new tensor: init \"zeros\", \"ones\", \"random\" (seeded), \"arange\" or a number; no events until touched");
  // The article's tools (tools.h).
  add(p, P, "MemoryProfiler", {}, 0, p_memory_profiler, "the article's profiler: figures of the run so far");
  add(p, P, "MemoryVisualizer", {}, 0, p_memory_visualizer, "the article's visualizer: a picture of the spaces");
  add(p, P, "MemoryLeakDetector", {}, 0, p_memory_leak_detector, "the article's leak detector");
  add(p, P, "CacheSimulator", {"l1_size", "l2_size", "l3_size", "line_size", "associativity", "replacement"}, 1,
      p_cache_simulator, "a side hierarchy of write-back levels a function's accesses also run through");
  add(p, P, "blocked", {"block"}, 1, p_blocked, "a blocked layout of the given block shape (for layout=)");
  add(p, P, "vectorized", {"width"}, 1, p_vectorized, "a vectorized layout of the given width (for layout=)");
  add(p, P, "zeros", {"shape", "dtype", "memory"}, 1, p_zeros, "a new tensor of zeros: its writes");
  add(p, P, "ones", {"shape", "dtype", "memory"}, 1, p_ones, "a new tensor of ones: its writes");
  add(p, P, "full", {"shape", "value", "dtype", "memory"}, 2, p_full, "a new tensor of one value: its writes");
  add(p, P, "reshape", {"x", "shape"}, 2, p_reshape, "a view of another shape when possible, else a copy");
  add(p, P, "transpose", {"x", "perm"}, 1, p_transpose, "a view with the axes permuted (reversed by default); no events");
  const char* binary = "elementwise, NumPy broadcasting; on two numbers, a number";
  add(p, P, "add", {"a", "b"}, 2, p_binary<OpKind::Add>, std::string("a + b, ") + binary);
  add(p, P, "subtract", {"a", "b"}, 2, p_binary<OpKind::Subtract>, std::string("a - b, ") + binary);
  add(p, P, "multiply", {"a", "b"}, 2, p_binary<OpKind::Multiply>, std::string("a * b, ") + binary);
  add(p, P, "divide", {"a", "b"}, 2, p_binary<OpKind::Divide>, std::string("a / b, ") + binary);
  add(p, P, "maximum", {"a", "b"}, 2, p_binary<OpKind::Maximum>, std::string("the larger of a and b, ") + binary);
  add(p, P, "minimum", {"a", "b"}, 2, p_binary<OpKind::Minimum>, std::string("the smaller of a and b, ") + binary);
  const char* unary = ", elementwise; on a number, a number";
  add(p, P, "exp", {"x"}, 1, p_unary<OpKind::Exp>, std::string("e^x") + unary);
  add(p, P, "log", {"x"}, 1, p_unary<OpKind::Log>, std::string("the natural logarithm") + unary);
  add(p, P, "sqrt", {"x"}, 1, p_unary<OpKind::Sqrt>, std::string("the square root") + unary);
  add(p, P, "rsqrt", {"x"}, 1, p_unary<OpKind::Rsqrt>, std::string("1 / the square root") + unary);
  add(p, P, "tanh", {"x"}, 1, p_unary<OpKind::Tanh>, std::string("the hyperbolic tangent") + unary);
  add(p, P, "sigmoid", {"x"}, 1, p_unary<OpKind::Sigmoid>, std::string("1 / (1 + e^-x)") + unary);
  add(p, P, "relu", {"x"}, 1, p_unary<OpKind::Relu>, std::string("max(x, 0)") + unary);
  add(p, P, "gelu", {"x"}, 1, p_unary<OpKind::Gelu>, std::string("GELU (the erf form, as pto.ref.gelu)") + unary);
  add(p, P, "square", {"x"}, 1, p_unary<OpKind::Square>, std::string("x * x") + unary);
  add(p, P, "neg", {"x"}, 1, p_unary<OpKind::Neg>, std::string("-x") + unary);
  add(p, P, "abs", {"x"}, 1, p_unary<OpKind::Abs>, std::string("|x|") + unary);
  add(p, P, "check", {"actual", "expected", "rtol", "atol"}, 2, p_check,
      "|actual - expected| <= atol + rtol * |expected| everywhere: recorded, True or False; no events");
  add(p, P, "output", {"x", "name"}, 1, p_output, "records the checksums of its tensors; no events");
  p["check"].free_of_cost = p["output"].free_of_cost = true;
  for (auto& [name, def] : p) def.op = !def.free_of_cost;  // (the scopes added later are not ops)
  p["output"].variadic = true;
  p["output"].positional = 1;
}

Tables make_tables() {
  Tables t;
  auto& p = t.pto;
  add_builtins(p);
  const std::string P = "pto.";
  for (const ScopeDef& sc : scope_table()) {
    add(p, P, sc.name, sc.params, sc.required, nullptr, "");
    BuiltinDef& d = p[sc.name];
    d.scope = &sc;
    d.any_kwargs = sc.any_kwargs;
    d.positional = sc.positional;
  }
  // The ops registered beside their implementations (sim/exec/pto_op.h),
  // after every built-in and scope so that a name taken twice is refused,
  // not shadowed.
  const auto& registered = Registry<exec::PtoOp>::instance().all();
  if (!registered.empty()) {
    for (const Choice& c : ChoiceLists::of(concepts::kPtoOp)) {
      if (p.count(c.name)) throw std::logic_error("pto op '" + c.name + "' is registered twice");
      const exec::PtoOp& op = registered.at(c.name);
      add(p, P, c.name, op.params, op.required, nullptr, c.description);
      p[c.name].run = op.run;
      p[c.name].op = true;
    }
  }

  auto& r = t.ref;
  const std::string R = "pto.ref.";
  const char* ref = ", double precision, no events";
  add(r, R, "matmul", {"a", "b"}, 2, r_matmul, std::string("a @ b") + ref);
  add(r, R, "conv2d", {"input", "weight", "stride", "padding"}, 2, r_conv2d, std::string("pto.conv2d's result") + ref);
  add(r, R, "softmax", {"x", "axis"}, 1, r_softmax, std::string("softmax along an axis") + ref);
  add(r, R, "gelu", {"x"}, 1, r_gelu, std::string("GELU") + ref);
  add(r, R, "layer_norm", {"x", "gamma", "beta", "eps"}, 3, r_layer_norm,
      std::string("layer normalisation over the last axis") + ref);
  add(r, R, "attention", {"q", "k", "v", "scale"}, 3, r_attention,
      std::string("softmax(q @ k^T * scale) @ v, scale 1/sqrt(d) by default") + ref);
  for (auto& [name, def] : r) def.free_of_cost = true;
  return t;
}

const Tables& tables() {
  static const Tables t = make_tables();
  return t;
}

}  // namespace

Value call_builtin(const BuiltinDef& def, Interp& in, Args& a) {
  if (!def.run) return def.fn(in, a);
  exec::Tensor t = def.run(in.ctx, ValueArgs(a));
  return t.valid() ? Value::tensor(std::move(t)) : Value::none();
}

const BuiltinDef* find_pto(const std::string& name) {
  auto it = tables().pto.find(name);
  return it == tables().pto.end() ? nullptr : &it->second;
}
const BuiltinDef* find_pto_ref(const std::string& name) {
  auto it = tables().ref.find(name);
  return it == tables().ref.end() ? nullptr : &it->second;
}
std::vector<std::string> pto_names() {
  std::vector<std::string> out;
  for (auto& [n, d] : tables().pto) out.push_back(n);
  return out;
}
std::vector<const BuiltinDef*> pto_callables() {
  std::vector<const BuiltinDef*> out;
  for (const auto* table : {&tables().pto, &tables().ref})
    for (const auto& [n, d] : *table)
      if (!d.scope) out.push_back(&d);
  return out;
}

}  // namespace ptosim::frontend
