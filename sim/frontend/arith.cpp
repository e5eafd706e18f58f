// Python semantics for scalars (int64 instead of bignums: overflow is an
// error), NumPy-style dispatch to the executor for tensors.
#include <cmath>

#include "sim/exec/ops.h"
#include "sim/frontend/nodes.h"

namespace ptosim::frontend {

namespace {

[[noreturn]] void bad_operands(const char* op, const Value& a, const Value& b, Pos pos) {
  fail(pos, std::string("unsupported operand types for ") + op + ": '" + type_name(a) + "' and '" + type_name(b) +
                "'");
}

[[noreturn]] void overflow(Pos pos) { fail(pos, "integer overflow (integers are 64-bit)"); }

// The builtins write their result through a pointer; checking the flag in a
// separate statement keeps the order of evaluation explicit.
#define PTO_CHECKED(builtin, a, b, pos)            \
  [&] {                                            \
    int64_t r_;                                    \
    if (builtin(a, b, &r_)) overflow(pos);         \
    return r_;                                     \
  }()

int64_t ipow(int64_t base, int64_t exp, Pos pos) {
  int64_t r = 1;
  while (exp > 0) {
    if (exp & 1) r = PTO_CHECKED(__builtin_mul_overflow, r, base, pos);
    exp >>= 1;
    if (exp) base = PTO_CHECKED(__builtin_mul_overflow, base, base, pos);
  }
  return r;
}

Value int_op(BinOp op, int64_t a, int64_t b, Pos pos) {
  switch (op) {
    case BinOp::Add: return Value::integer(PTO_CHECKED(__builtin_add_overflow, a, b, pos));
    case BinOp::Sub: return Value::integer(PTO_CHECKED(__builtin_sub_overflow, a, b, pos));
    case BinOp::Mul: return Value::integer(PTO_CHECKED(__builtin_mul_overflow, a, b, pos));
    case BinOp::Div:
      if (b == 0) fail(pos, "division by zero");
      return Value::number(double(a) / double(b));
    case BinOp::FloorDiv: {
      if (b == 0) fail(pos, "integer division by zero");
      if (a == INT64_MIN && b == -1) overflow(pos);
      int64_t q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return Value::integer(q);
    }
    case BinOp::Mod: {
      if (b == 0) fail(pos, "integer modulo by zero");
      if (b == -1) return Value::integer(0);
      int64_t m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) m += b;
      return Value::integer(m);
    }
    case BinOp::Pow:
      if (b < 0) {
        if (a == 0) fail(pos, "0 cannot be raised to a negative power");
        return Value::number(std::pow(double(a), double(b)));
      }
      return Value::integer(ipow(a, b, pos));
    case BinOp::MatMul: break;
  }
  fail(pos, "unsupported operand types for @: 'int' and 'int'");
}

Value float_op(BinOp op, double a, double b, Pos pos) {
  switch (op) {
    case BinOp::Add: return Value::number(a + b);
    case BinOp::Sub: return Value::number(a - b);
    case BinOp::Mul: return Value::number(a * b);
    case BinOp::Div:
      if (b == 0) fail(pos, "float division by zero");
      return Value::number(a / b);
    case BinOp::FloorDiv:
      if (b == 0) fail(pos, "float floor division by zero");
      return Value::number(std::floor(a / b));
    case BinOp::Mod: {
      if (b == 0) fail(pos, "float modulo by zero");
      double m = std::fmod(a, b);
      if (m != 0 && ((m < 0) != (b < 0))) m += b;
      return Value::number(m);
    }
    case BinOp::Pow:
      if (a == 0 && b < 0) fail(pos, "0.0 cannot be raised to a negative power");
      if (a < 0 && b != std::floor(b)) fail(pos, "negative number cannot be raised to a fractional power");
      return Value::number(std::pow(a, b));
    case BinOp::MatMul: break;
  }
  fail(pos, "unsupported operand types for @: 'float' and 'float'");
}

exec::Operand operand(const Value& v) {
  if (v.tag == VT::Tensor) return exec::Operand(v.as_tensor());
  return exec::Operand(v.as_double());
}

Value tensor_op(Interp& in, BinOp op, const Value& a, const Value& b, Pos pos) {
  bool ok_a = a.tag == VT::Tensor || a.is_number();
  bool ok_b = b.tag == VT::Tensor || b.is_number();
  if (!ok_a || !ok_b) bad_operands(binop_symbol(op), a, b, pos);
  return at_pos(pos, [&]() -> Value {
    switch (op) {
      case BinOp::Add: return Value::tensor(exec::binary(in.ctx, exec::OpKind::Add, operand(a), operand(b)));
      case BinOp::Sub: return Value::tensor(exec::binary(in.ctx, exec::OpKind::Subtract, operand(a), operand(b)));
      case BinOp::Mul: return Value::tensor(exec::binary(in.ctx, exec::OpKind::Multiply, operand(a), operand(b)));
      case BinOp::Div: return Value::tensor(exec::binary(in.ctx, exec::OpKind::Divide, operand(a), operand(b)));
      case BinOp::MatMul:
        if (a.tag != VT::Tensor || b.tag != VT::Tensor) bad_operands("@", a, b, pos);
        return Value::tensor(exec::matmul(in.ctx, a.as_tensor(), b.as_tensor()));
      case BinOp::Pow:
        if (a.tag == VT::Tensor && b.is_number()) {
          double e = b.as_double();
          if (e == 2) return Value::tensor(exec::unary(in.ctx, exec::OpKind::Square, operand(a)));
          if (e == 0.5) return Value::tensor(exec::unary(in.ctx, exec::OpKind::Sqrt, operand(a)));
          if (e == -0.5) return Value::tensor(exec::unary(in.ctx, exec::OpKind::Rsqrt, operand(a)));
        }
        fail(pos, "tensor ** is supported for exponents 2, 0.5 and -0.5 only (use pto ops)");
      default:
        fail(pos, std::string("operator ") + binop_symbol(op) + " is not supported for tensors");
    }
  });
}

// The flop cost-table row of a scalar float operation (Pow as Exp: x**y is
// exp(y log x)).
exec::OpKind scalar_kind(BinOp op) {
  switch (op) {
    case BinOp::Add: return exec::OpKind::Add;
    case BinOp::Sub: return exec::OpKind::Subtract;
    case BinOp::Mul: return exec::OpKind::Multiply;
    case BinOp::Pow: return exec::OpKind::Exp;
    default: return exec::OpKind::Divide;  // / // %
  }
}

}  // namespace

Value binary_op(Interp& in, BinOp op, const Value& a, const Value& b, Pos pos) {
  if (a.is_int() && b.is_int()) {
    // Index arithmetic is no instruction of its own; a result still comes
    // from the latest event its operands did (an index loaded from memory).
    Value r = int_op(op, a.i, b.i, pos);
    r.tok = a.tok > b.tok ? a.tok : b.tok;
    return r;
  }
  if (a.is_number() && b.is_number()) {
    const uint32_t t = in.ctx.scalar_op(scalar_kind(op), a.tok, b.tok);
    Value r = float_op(op, a.as_double(), b.as_double(), pos);
    r.tok = t;
    return r;
  }
  if (a.tag == VT::Tensor || b.tag == VT::Tensor) return tensor_op(in, op, a, b, pos);
  if (op == BinOp::Add) {
    // The room is checked before the result is built: a doubling string or
    // list would otherwise take the memory first and be refused after.
    if (a.tag == VT::Str && b.tag == VT::Str) {
      check_room(a.as_str().size() + b.as_str().size());
      return Value::str(a.as_str() + b.as_str());
    }
    if ((a.tag == VT::List || a.tag == VT::Tuple) && a.tag == b.tag) {
      check_room((a.items().size() + b.items().size()) * sizeof(Value));
      std::vector<Value> r = a.items();
      r.insert(r.end(), b.items().begin(), b.items().end());
      return a.tag == VT::List ? Value::list(std::move(r)) : Value::tuple(std::move(r));
    }
  }
  if (op == BinOp::Mul) {
    const Value* seq = (a.tag == VT::List || a.tag == VT::Tuple || a.tag == VT::Str) ? &a : &b;
    const Value* cnt = seq == &a ? &b : &a;
    if ((seq->tag == VT::List || seq->tag == VT::Tuple || seq->tag == VT::Str) && cnt->is_int()) {
      int64_t n = std::max<int64_t>(0, cnt->i);
      size_t len = seq->tag == VT::Str ? seq->as_str().size() : seq->items().size();
      if (len && uint64_t(n) * len > 10'000'000) fail(pos, "sequence repetition too large (limit 10000000 items)");
      check_room(uint64_t(n) * len * (seq->tag == VT::Str ? 1 : sizeof(Value)));
      if (seq->tag == VT::Str) {
        std::string r;
        for (int64_t k = 0; k < n; ++k) r += seq->as_str();
        return Value::str(std::move(r));
      }
      std::vector<Value> r;
      for (int64_t k = 0; k < n; ++k) r.insert(r.end(), seq->items().begin(), seq->items().end());
      return seq->tag == VT::List ? Value::list(std::move(r)) : Value::tuple(std::move(r));
    }
  }
  if (op == BinOp::Mod && a.tag == VT::Str) fail(pos, "string formatting with % is not supported");
  bad_operands(binop_symbol(op), a, b, pos);
}

Value unary_op(Interp& in, UnOp op, const Value& a, Pos pos) {
  switch (op) {
    case UnOp::Not: return Value::boolean(!truthy(a, pos));
    case UnOp::Neg:
      if (a.tag == VT::Float) return Value::number_from(-a.f, in.ctx.scalar_op(exec::OpKind::Neg, a.tok));
      if (a.is_int()) {
        if (a.i == INT64_MIN) fail(pos, "integer overflow (integers are 64-bit)");
        return Value::integer(-a.i);
      }
      if (a.tag == VT::Tensor)
        return at_pos(pos, [&] { return Value::tensor(exec::unary(in.ctx, exec::OpKind::Neg, operand(a))); });
      break;
    case UnOp::Pos:
      if (a.tag == VT::Bool) return Value::integer(a.i);
      if (a.is_number() || a.tag == VT::Tensor) return a;
      break;
  }
  fail(pos, std::string("bad operand type for unary ") + (op == UnOp::Neg ? "-" : "+") + ": '" + type_name(a) +
                "'");
}

static bool equal(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_int() && b.is_int()) return a.i == b.i;
    return a.as_double() == b.as_double();
  }
  if (a.tag != b.tag) return false;
  switch (a.tag) {
    case VT::None: case VT::Undef: return true;
    case VT::DType: case VT::Module: return a.i == b.i;
    case VT::Builtin: return a.b == b.b;
    case VT::Str: return a.as_str() == b.as_str();
    case VT::List: case VT::Tuple: {
      auto& x = a.items();
      auto& y = b.items();
      if (x.size() != y.size()) return false;
      for (size_t k = 0; k < x.size(); ++k)
        if (!equal(x[k], y[k])) return false;
      return true;
    }
    case VT::Layout: return a.as_layout().str() == b.as_layout().str();
    case VT::Dict: {
      const DictObj &x = as_dict(a), &y = as_dict(b);
      if (x.entries.size() != y.entries.size()) return false;
      for (auto& [key, i] : x.index) {
        const Value* v = y.find(key);
        if (!v || !equal(x.entries[i].second, *v)) return false;
      }
      return true;
    }
    default: return a.o == b.o;
  }
}

static bool identical(const Value& a, const Value& b) {
  if (a.tag != b.tag) return false;
  if (a.is_heap()) return a.o == b.o;
  return a.i == b.i;
}

bool compare_op(CmpOp op, const Value& a, const Value& b, Pos pos) {
  switch (op) {
    case CmpOp::Is: return identical(a, b);
    case CmpOp::IsNot: return !identical(a, b);
    default: break;
  }
  if (a.tag == VT::Tensor || b.tag == VT::Tensor)
    fail(pos, std::string("comparison ") + cmpop_symbol(op) +
                  " of tensors is not supported (compare elements, or use pto.check)");
  if (op == CmpOp::Eq) return equal(a, b);
  if (op == CmpOp::Ne) return !equal(a, b);
  int c;
  if (a.is_int() && b.is_int()) {
    c = a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
  } else if (a.is_number() && b.is_number()) {
    double x = a.as_double(), y = b.as_double();
    if (std::isnan(x) || std::isnan(y)) return false;
    c = x < y ? -1 : x > y ? 1 : 0;
  } else if (a.tag == VT::Str && b.tag == VT::Str) {
    c = a.as_str().compare(b.as_str());
  } else {
    fail(pos, std::string("'") + cmpop_symbol(op) + "' not supported between '" + type_name(a) + "' and '" +
                  type_name(b) + "'");
  }
  switch (op) {
    case CmpOp::Lt: return c < 0;
    case CmpOp::Le: return c <= 0;
    case CmpOp::Gt: return c > 0;
    case CmpOp::Ge: return c >= 0;
    default: return false;
  }
}

bool truthy(const Value& v, Pos pos) {
  switch (v.tag) {
    case VT::None: case VT::Undef: return false;
    case VT::Bool: case VT::Int: return v.i != 0;
    case VT::Float: return v.f != 0;
    case VT::Str: return !v.as_str().empty();
    case VT::List: case VT::Tuple: return !v.items().empty();
    case VT::Dict: return !as_dict(v).entries.empty();
    case VT::Tensor: fail(pos, "the truth value of a tensor is ambiguous");
    default: return true;
  }
}

int64_t to_int(const Value& v, Pos pos, const char* what) {
  if (v.is_int()) return v.i;
  if (v.tag == VT::Float && v.f == std::floor(v.f) && std::fabs(v.f) < 9e18) return int64_t(v.f);
  fail(pos, std::string(what) + " must be an integer, not " + type_name(v));
}

double to_double(const Value& v, Pos pos, const char* what) {
  if (v.is_number()) return v.as_double();
  fail(pos, std::string(what) + " must be a number, not " + type_name(v));
}

exec::Shape to_shape(const Value& v, Pos pos, const char* what) {
  exec::Shape s;
  if (v.is_int()) {
    s.push_back(v.i);
  } else if (v.tag == VT::List || v.tag == VT::Tuple) {
    for (const Value& x : v.items()) {
      if (!x.is_int()) fail(pos, std::string(what) + " must be a list of integers, found " + type_name(x));
      s.push_back(x.i);
    }
  } else {
    fail(pos, std::string(what) + " must be a list of integers, not " + type_name(v));
  }
  for (int64_t d : s)
    if (d < 0) fail(pos, std::string(what) + " has a negative dimension: " + exec::shape_str(s));
  return s;
}

const exec::Tensor& to_tensor(const Value& v, Pos pos, const char* what) {
  if (v.tag != VT::Tensor) fail(pos, std::string(what) + " must be a tensor, not " + type_name(v));
  return v.as_tensor();
}

std::string to_string_arg(const Value& v, Pos pos, const char* what) {
  if (v.tag != VT::Str) fail(pos, std::string(what) + " must be a string, not " + type_name(v));
  return v.as_str();
}

}  // namespace ptosim::frontend
