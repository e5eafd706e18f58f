// Python builtins: range min max abs int float len print (+ bool str round).
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>

#include "sim/exec/ops.h"
#include "sim/frontend/nodes.h"

namespace ptosim::frontend {

namespace {

Value b_range(Interp&, Args& a) {
  int64_t start = 0, stop, step = 1;
  if (a.rest.empty() && !a.has(1)) {
    stop = to_int(a[0], a.at(0), "range() argument");
  } else {
    start = to_int(a[0], a.at(0), "range() argument");
    stop = to_int(a[1], a.at(1), "range() argument");
    if (a.has(2)) step = to_int(a[2], a.at(2), "range() argument");
  }
  if (step == 0) fail(a.at(2), "range() step must not be zero");
  std::vector<Value> out;
  for (int64_t v = start; step > 0 ? v < stop : v > stop; v += step) {
    if (out.size() >= 10'000'000) fail(a.pos, "range() outside a for loop is limited to 10000000 items");
    out.push_back(Value::integer(v));
  }
  return Value::list(std::move(out));
}

Value minmax(Args& a, bool is_max) {
  std::vector<Value> vals;
  if (a.has(0)) vals.push_back(a[0]);
  for (auto& v : a.rest) vals.push_back(v);
  if (vals.size() == 1 && (vals[0].tag == VT::List || vals[0].tag == VT::Tuple)) {
    std::vector<Value> inner = vals[0].items();
    vals = std::move(inner);
  }
  const char* name = is_max ? "max" : "min";
  if (vals.empty()) fail(a.pos, std::string(name) + "() arg is an empty sequence");
  size_t best = 0;
  for (size_t k = 0; k < vals.size(); ++k) {
    if (vals[k].tag == VT::Tensor)
      fail(a.pos, std::string(name) + "() of tensors: use pto." + (is_max ? "maximum" : "minimum") + " or pto.reduce_max");
    if (k == 0) continue;
    bool better = is_max ? compare_op(CmpOp::Gt, vals[k], vals[best], a.pos)
                         : compare_op(CmpOp::Lt, vals[k], vals[best], a.pos);
    if (better) best = k;
  }
  return vals[best];
}
Value b_min(Interp&, Args& a) { return minmax(a, false); }
Value b_max(Interp&, Args& a) { return minmax(a, true); }

Value b_abs(Interp& in, Args& a) {
  const Value& v = a[0];
  if (v.tag == VT::Float) return Value::number_from(std::fabs(v.f), in.ctx.scalar_op(exec::OpKind::Abs, v.tok));
  if (v.is_int()) {
    if (v.i == INT64_MIN) fail(a.pos, "integer overflow (integers are 64-bit)");
    return Value::integer(v.i < 0 ? -v.i : v.i);
  }
  if (v.tag == VT::Tensor) return Value::tensor(exec::unary(in.ctx, exec::OpKind::Abs, exec::Operand(v.as_tensor())));
  fail(a.at(0), std::string("bad operand type for abs(): '") + type_name(v) + "'");
}

Value b_int(Interp&, Args& a) {
  const Value& v = a[0];
  if (v.is_int()) return Value::integer(v.i);
  if (v.tag == VT::Float) {
    if (!std::isfinite(v.f)) fail(a.at(0), "cannot convert " + format_float(v.f) + " to an integer");
    if (std::fabs(v.f) >= 9.2e18) fail(a.at(0), "integer overflow (integers are 64-bit)");
    return Value::integer(int64_t(std::trunc(v.f)));
  }
  if (v.tag == VT::Str) {
    const std::string& s = v.as_str();
    char* end = nullptr;
    errno = 0;
    long long x = strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || errno) fail(a.at(0), "invalid literal for int(): '" + s + "'");
    return Value::integer(x);
  }
  fail(a.at(0), std::string("int() argument must be a number or a string, not ") + type_name(v));
}

Value b_float(Interp&, Args& a) {
  if (!a.has(0)) return Value::number(0);
  const Value& v = a[0];
  if (v.is_number()) return Value::number(v.as_double());
  if (v.tag == VT::Str) {
    const std::string& s = v.as_str();
    char* end = nullptr;
    double x = strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0') fail(a.at(0), "could not convert string to float: '" + s + "'");
    return Value::number(x);
  }
  fail(a.at(0), std::string("float() argument must be a number or a string, not ") + type_name(v));
}

Value b_len(Interp&, Args& a) {
  const Value& v = a[0];
  switch (v.tag) {
    case VT::Str: return Value::integer(int64_t(v.as_str().size()));
    case VT::List: case VT::Tuple: return Value::integer(int64_t(v.items().size()));
    case VT::Dict: return Value::integer(int64_t(as_dict(v).entries.size()));
    case VT::Tensor:
      if (v.as_tensor().rank() == 0) fail(a.at(0), "len() of a 0-dimensional tensor");
      return Value::integer(v.as_tensor().shape()[0]);
    default: fail(a.at(0), std::string("object of type '") + type_name(v) + "' has no len()");
  }
}

Value b_print(Interp& in, Args& a) {
  std::string sep = a.has(0) ? to_string_arg(a[0], a.at(0), "sep") : " ";
  std::string end = a.has(1) ? to_string_arg(a[1], a.at(1), "end") : "\n";
  std::string line;
  bool first = true;
  auto put = [&](const Value& v) {
    if (!first) line += sep;
    first = false;
    line += to_str(v);
  };
  for (auto& v : a.rest) put(v);
  in.out << line << end;
  in.out.flush();
  return Value::none();
}

Value b_bool(Interp&, Args& a) { return Value::boolean(a[0].defined() && truthy(a[0], a.at(0))); }
Value b_str(Interp&, Args& a) { return Value::str(a[0].defined() ? to_str(a[0]) : ""); }
Value b_round(Interp&, Args& a) {
  double x = to_double(a[0], a.at(0), "round() argument");
  if (!a.has(1)) {
    if (!std::isfinite(x)) fail(a.at(0), "cannot round " + format_float(x) + " to an integer");
    const double r = std::nearbyint(x);  // half to even, as Python
    if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0)) fail(a.at(0), "integer overflow (integers are 64-bit)");
    return Value::integer(int64_t(r));
  }
  int64_t nd = to_int(a[1], a.at(1), "ndigits");
  // Past about 320 digits either way, 10^nd is 0 or inf: x is its own rounding, or 0.
  if (nd > 330 || !std::isfinite(x)) return Value::number(x);
  if (nd < -330) return Value::number(0.0 * x);
  const double p = std::pow(10.0, double(nd));
  const double y = std::nearbyint(x * p) / p;
  return Value::number(std::isfinite(y) ? y : x);  // x * p overflowed: x has no digits there to round
}

std::map<std::string, BuiltinDef> make_table() {
  std::map<std::string, BuiltinDef> t;
  auto add = [&](std::string name, std::vector<std::string> params, int required, BuiltinFn fn, bool variadic = false,
                 int positional = -1) {
    BuiltinDef d;
    d.name = name;
    d.params = std::move(params);
    d.required = required;
    d.fn = fn;
    d.variadic = variadic;
    d.positional = positional;
    t[name] = d;
  };
  add("range", {"start", "stop", "step"}, 1, b_range);
  add("min", {"a"}, 1, b_min, true);
  add("max", {"a"}, 1, b_max, true);
  add("abs", {"x"}, 1, b_abs);
  add("int", {"x"}, 1, b_int);
  add("float", {"x"}, 0, b_float);
  add("len", {"x"}, 1, b_len);
  add("print", {"sep", "end"}, 0, b_print, true, 0);
  add("bool", {"x"}, 0, b_bool);
  add("str", {"x"}, 0, b_str);
  add("round", {"x", "ndigits"}, 1, b_round);
  return t;
}

}  // namespace

const BuiltinDef* find_builtin(const std::string& name) {
  static const std::map<std::string, BuiltinDef> table = make_table();
  auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

void Interp::warn(Pos p, const std::string& message) const {
  std::ostream& w = warnings ? *warnings : std::cerr;
  w << src.path() << ":" << p.line << ":" << p.col << ": warning: " << message << "\n";
  w.flush();
}

void Interp::step_limit_hit(Pos pos) const {
  fail(pos, "iteration limit exceeded: " + std::to_string(step_limit) +
                " loop iterations and calls without finishing (an infinite-looking loop? the limit follows "
                "--max-events)");
}

}  // namespace ptosim::frontend
