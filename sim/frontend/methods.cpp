// Dicts, `**kwargs` and the few methods the article's code calls
// (`d.get`, `d.items()`, `results.append(x)`, `C.assign(v)`): kept apart
// from the nodes so that the value model grows in one place.
#include <cmath>

#include "sim/exec/ops.h"
#include "sim/frontend/expr_nodes.h"
#include "sim/frontend/tools.h"

namespace ptosim::frontend {

std::string dict_key(const Value& key, Pos pos) {
  switch (key.tag) {
    case VT::None: return "N";
    case VT::Bool: case VT::Int: return "n" + std::to_string(key.i);
    case VT::Float:
      // 2.0 finds the entry of 2, as in Python.
      if (std::isfinite(key.f) && key.f == std::floor(key.f) && std::fabs(key.f) < 9e18)
        return "n" + std::to_string(int64_t(key.f));
      return "f" + format_float(key.f);
    case VT::Str: return "s" + key.as_str();
    case VT::DType: return "d" + std::to_string(key.i);
    case VT::Tuple: {
      std::string k = "t(";
      for (const Value& v : key.items()) k += dict_key(v, pos) + ",";
      return k + ")";
    }
    default: fail(pos, std::string("unhashable type: '") + type_name(key) + "' (dict keys are strings, numbers or tuples)");
  }
}

void KeywordNodes::eval(Frame& f, std::vector<std::string>& out_names, std::vector<Value>& vals,
                        std::vector<Pos>& out_pos) const {
  auto add = [&](const std::string& name, Value v, Pos p) {
    for (const std::string& n : out_names)
      if (n == name) fail(p, "got multiple values for keyword argument '" + name + "'");
    out_names.push_back(name);
    vals.push_back(std::move(v));
    out_pos.push_back(p);
  };
  for (size_t k = 0; k < names.size(); ++k) {
    Value v = nodes[k]->eval(f);
    if (!names[k].empty()) {
      add(names[k], std::move(v), pos[k]);
      continue;
    }
    if (v.tag != VT::Dict) fail(nodes[k]->pos, std::string("argument after ** must be a dict, not ") + type_name(v));
    for (auto& [key, x] : as_dict(v).entries) {
      if (key.tag != VT::Str) fail(nodes[k]->pos, std::string("keywords must be strings, not ") + type_name(key));
      add(key.as_str(), x, pos[k]);
    }
  }
}

Value DictNode::eval(Frame& f) {
  Value d = new_dict();
  for (size_t k = 0; k < keys.size(); ++k) {
    Value key = keys[k]->eval(f);
    std::string text = dict_key(key, keys[k]->pos);
    as_dict(d).set(text, std::move(key), values[k]->eval(f));
  }
  return d;
}

Value MethodCallNode::eval(Frame& f) {
  Value o = obj->eval(f);
  std::vector<Value> argv;
  argv.reserve(args.size());
  for (auto& n : args) argv.push_back(n->eval(f));
  std::vector<std::string> kw_names;
  std::vector<Value> kw_vals;
  std::vector<Pos> kw_pos;
  kw.eval(f, kw_names, kw_vals, kw_pos);
  Value result;
  if (call_method(*f.in, o, name, argv, kw_names, kw_vals, pos, result)) return result;
  Value callee = get_attribute(*f.in, o, name, pos);
  return call_value(*f.in, callee, argv, kw_names, kw_vals, kw_pos, pos);
}

namespace {

void arity(const std::string& what, const std::vector<Value>& args, const std::vector<std::string>& kw, size_t lo,
           size_t hi, Pos pos) {
  if (!kw.empty()) fail(pos, what + "() takes no keyword arguments");
  if (args.size() < lo || args.size() > hi)
    fail(pos, what + "() takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                  " argument" + (hi == 1 ? "" : "s") + ", got " + std::to_string(args.size()));
}

bool dict_method(const Value& d, const std::string& name, std::vector<Value>& args, const std::vector<std::string>& kw,
                 Pos pos, Value& result) {
  const DictObj& o = as_dict(d);
  if (name == "get") {
    arity("dict.get", args, kw, 1, 2, pos);
    const Value* v = o.find(dict_key(args[0], pos));
    result = v ? *v : args.size() > 1 ? args[1] : Value::none();
    return true;
  }
  std::vector<Value> out;
  if (name == "items") {
    arity("dict.items", args, kw, 0, 0, pos);
    for (auto& [k, v] : o.entries) out.push_back(Value::tuple({k, v}));
  } else if (name == "keys" || name == "values") {
    arity("dict." + name, args, kw, 0, 0, pos);
    for (auto& [k, v] : o.entries) out.push_back(name == "keys" ? k : v);
  } else {
    fail(pos, "'dict' object has no method '" + name + "' (dicts have get, items, keys, values)");
  }
  result = Value::list(std::move(out));
  return true;
}

// `C.assign(v)`: v written into all of C, the events of `C[...] = v`.
void tensor_assign(Interp& in, const Value& t, const Value& v, Pos pos) {
  exec::Operand src(0.0);
  if (v.tag == VT::Tensor) src = exec::Operand(v.as_tensor());
  else if (v.is_number()) src = exec::Operand(v.as_double());
  else fail(pos, std::string("cannot assign a value of type '") + type_name(v) + "' to a tensor");
  at_pos(pos, [&] { exec::assign(in.ctx, t.as_tensor(), src); });
}

}  // namespace

bool call_method(Interp& in, const Value& obj, const std::string& name, std::vector<Value>& args,
                 const std::vector<std::string>& kw_names, std::vector<Value>& kw_vals, Pos pos, Value& result) {
  switch (obj.tag) {
    case VT::Object: return as_object(obj).method(in, name, args, kw_names, kw_vals, pos, result);
    case VT::Dict: return dict_method(obj, name, args, kw_names, pos, result);
    case VT::List:
      if (name != "append") return false;
      arity("list.append", args, kw_names, 1, 1, pos);
      list_append(obj, std::move(args[0]));
      result = Value::none();
      return true;
    case VT::Tensor:
      if (name != "assign") return false;
      arity("assign", args, kw_names, 1, 1, pos);
      tensor_assign(in, obj, args[0], pos);
      result = Value::none();
      return true;
    default: return false;
  }
}

}  // namespace ptosim::frontend
