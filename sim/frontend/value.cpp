#include "sim/frontend/value.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>

#include "sim/common/memory_budget.h"
#include "sim/frontend/nodes.h"
#include "sim/frontend/tools.h"

namespace ptosim::frontend {

StrObj::~StrObj() { memory_budget::refund_value(charged); }
ListObj::~ListObj() { memory_budget::refund_value(charged); }
DictObj::~DictObj() { memory_budget::refund_value(charged); }

namespace {
// What an entry costs besides the vector's slot: its index node and key text.
constexpr uint64_t kDictEntryBytes = sizeof(std::pair<Value, Value>) + 64;
}  // namespace

void DictObj::set(const std::string& key, Value k, Value v) {
  auto it = index.find(key);
  if (it != index.end()) {
    entries[it->second].second = std::move(v);
    return;
  }
  const uint64_t bytes = kDictEntryBytes + key.size();
  memory_budget::charge_value(bytes);
  charged += bytes;
  index.emplace(key, entries.size());
  entries.emplace_back(std::move(k), std::move(v));
}

Value new_dict() {
  memory_budget::charge_value(sizeof(DictObj));
  auto* o = new DictObj;
  o->charged = sizeof(DictObj);
  return Value::object(VT::Dict, o);
}

void list_append(const Value& list, Value v) {
  auto* l = static_cast<ListObj*>(list.o);
  if (l->items.size() == l->items.capacity()) {
    const uint64_t grow = std::max<size_t>(l->items.capacity(), 4) * sizeof(Value);
    memory_budget::charge_value(grow);
    l->charged += grow;
    l->items.reserve(l->items.capacity() + std::max<size_t>(l->items.capacity(), 4));
  }
  l->items.push_back(std::move(v));
}

void check_room(uint64_t bytes) { memory_budget::check_value_room(bytes); }

Value Value::str(std::string s) {
  const uint64_t bytes = sizeof(StrObj) + s.capacity();
  memory_budget::charge_value(bytes);
  auto* o = new StrObj;
  o->charged = bytes;
  o->s = std::move(s);
  return object(VT::Str, o);
}
namespace {
Value new_list(VT tag, std::vector<Value> items) {
  const uint64_t bytes = sizeof(ListObj) + items.capacity() * sizeof(Value);
  memory_budget::charge_value(bytes);
  auto* o = new ListObj;
  o->charged = bytes;
  o->items = std::move(items);
  return Value::object(tag, o);
}
}  // namespace
Value Value::list(std::vector<Value> items) { return new_list(VT::List, std::move(items)); }
Value Value::tuple(std::vector<Value> items) { return new_list(VT::Tuple, std::move(items)); }
Value Value::tensor(exec::Tensor t) {
  static uint64_t next_id = 0;
  auto* o = new TensorObj;
  o->t = std::move(t);
  o->id = ++next_id;
  return object(VT::Tensor, o);
}
Value Value::layout(exec::Layout l) {
  auto* o = new LayoutObj;
  o->l = std::move(l);
  return object(VT::Layout, o);
}

const char* type_name(const Value& v) {
  switch (v.tag) {
    case VT::Undef: return "undefined";
    case VT::None: return "None";
    case VT::Bool: return "bool";
    case VT::Int: return "int";
    case VT::Float: return "float";
    case VT::DType: return "dtype";
    case VT::Module: return "module";
    case VT::Builtin: return "builtin function";
    case VT::Str: return "str";
    case VT::List: return "list";
    case VT::Tuple: return "tuple";
    case VT::Tensor: return "tensor";
    case VT::Layout: return "layout";
    case VT::Func: return "function";
    case VT::Dict: return "dict";
    case VT::Object: return as_object(v).type();
  }
  return "?";
}

std::string format_float(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[64];
  // Shortest representation that reads back to the same double, like Python's repr.
  for (int prec = 1; prec <= 17; ++prec) {
    snprintf(buf, sizeof buf, "%.*g", prec, d);
    if (strtod(buf, nullptr) == d) break;
  }
  std::string s = buf;
  // Python's repr writes the shortest digits in positional notation when the
  // exponent is in [-4, 16) (100.0, 123456.0, 0.0001); %g goes to exponent
  // form as soon as the digits are fewer than the exponent (1e+02).
  if (const size_t e = s.find('e'); e != std::string::npos) {
    const int exp = std::atoi(s.c_str() + e + 1);
    if (exp >= -4 && exp < 16) {
      size_t digits = 0;
      for (size_t k = 0; k < e; ++k) digits += std::isdigit((unsigned char)s[k]) != 0;
      const int decimals = std::max(0, int(digits) - 1 - exp);
      snprintf(buf, sizeof buf, "%.*f", decimals, d);
      s = buf;
    }
  }
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

static std::string seq_str(const Value& v) {
  bool tuple = v.tag == VT::Tuple;
  std::string s = tuple ? "(" : "[";
  const auto& it = v.items();
  for (size_t k = 0; k < it.size(); ++k) {
    if (k) s += ", ";
    s += to_repr(it[k]);
  }
  if (tuple && it.size() == 1) s += ",";
  return s + (tuple ? ")" : "]");
}

std::string to_str(const Value& v) {
  switch (v.tag) {
    case VT::Undef: return "<undefined>";
    case VT::None: return "None";
    case VT::Bool: return v.i ? "True" : "False";
    case VT::Int: return std::to_string(v.i);
    case VT::Float: return format_float(v.f);
    case VT::DType: return std::string("pto.") + exec::dtype_name(exec::DType(v.i));
    case VT::Module: return v.i == 0 ? "<module pto>" : "<module pto.ref>";
    case VT::Builtin: return "<built-in function " + v.b->name + ">";
    case VT::Str: return v.as_str();
    case VT::List: case VT::Tuple: return seq_str(v);
    case VT::Tensor: {
      const exec::Tensor& t = v.as_tensor();
      return "tensor(" + t.name() + ", " + exec::shape_str(t.shape()) + ", " + exec::dtype_name(t.dtype()) +
             ", " + t.space_name() + ")";
    }
    case VT::Layout: return v.as_layout().str();
    case VT::Func: return "<function " + v.as_func()->fn->name + ">";
    case VT::Dict: {
      std::string s = "{";
      for (auto& [k, x] : as_dict(v).entries) s += (s.size() > 1 ? ", " : "") + to_repr(k) + ": " + to_repr(x);
      return s + "}";
    }
    case VT::Object: return as_object(v).str();
  }
  return "?";
}

std::string to_repr(const Value& v) {
  if (v.tag != VT::Str) return to_str(v);
  std::string s = "'";
  for (char c : v.as_str()) {
    if (c == '\'' || c == '\\') s += '\\';
    if (c == '\n') {
      s += "\\n";
      continue;
    }
    s += c;
  }
  return s + "'";
}

}  // namespace ptosim::frontend
