#include "sim/frontend/expr_nodes.h"

#include <algorithm>

#include "sim/frontend/tools.h"

namespace ptosim::frontend {

int64_t Node::eval_int(Frame& f) {
  Value v = eval(f);
  if (v.is_int()) return v.i;
  fail(pos, std::string("expected an integer, found ") + type_name(v) +
                (v.tag == VT::Float ? " (use int(...) to convert)" : ""));
}

bool Node::eval_bool(Frame& f) { return truthy(eval(f), pos); }

void undefined_name(Pos pos, const std::string& name, bool local) {
  if (local) fail(pos, "local variable '" + name + "' referenced before assignment");
  fail(pos, "name '" + name + "' is not defined (used before it is assigned)");
}

Value CallBuiltinNode::eval(Frame& f) {
  exec::ExecContext::ScalarMute mute(f.in->ctx, def->free_of_cost);
  Value vals[16];
  Args a;
  a.v = vals;
  a.arg_pos = arg_pos.data();
  a.n = int(args.size());
  a.pos = pos;
  for (size_t k = 0; k < args.size(); ++k)
    if (args[k]) vals[k] = args[k]->eval(f);
  if (!rest.empty()) {
    a.rest.reserve(rest.size());
    for (auto& n : rest) a.rest.push_back(n->eval(f));
  }
  for (size_t k = 0; k < extra_kw.size(); ++k) {
    a.extra_kw.emplace_back(extra_kw[k], extra_kw_nodes[k]->eval(f));
    a.extra_kw_pos.push_back(extra_kw_pos[k]);
  }
  try {
    exec::ExecContext::OpCall call(f.in->ctx, def->op ? &def->name : nullptr);
    return call_builtin(*def, *f.in, a);
  } catch (const exec::OpError& e) {
    fail(pos, e.what());
  }
}

Value CallNode::eval(Frame& f) {
  Value c = callee->eval(f);
  std::vector<Value> pos_args;
  pos_args.reserve(args.size());
  for (auto& n : args) pos_args.push_back(n->eval(f));
  std::vector<std::string> kw_names;
  std::vector<Value> kw_vals;
  std::vector<Pos> kw_pos;
  kw.eval(f, kw_names, kw_vals, kw_pos);
  return call_value(*f.in, c, pos_args, kw_names, kw_vals, kw_pos, pos);
}

ArgBinding bind_args(const BuiltinDef& def, int npos, const std::vector<std::string>& kw_names,
                     const std::vector<Pos>& kw_pos, Pos call_pos) {
  ArgBinding b;
  int nparams = def.positional < 0 ? int(def.params.size()) : def.positional;
  if (npos > nparams && !def.variadic) {
    fail(call_pos, def.name + "() takes " + (nparams == 1 ? "1 positional argument" : std::to_string(nparams) +
                                                                  " positional arguments") +
                       " but " + std::to_string(npos) + " were given");
  }
  b.npos = std::min(npos, nparams);
  std::vector<bool> filled(def.params.size(), false);
  for (int k = 0; k < b.npos; ++k) filled[size_t(k)] = true;
  for (size_t k = 0; k < kw_names.size(); ++k) {
    auto it = std::find(def.params.begin(), def.params.end(), kw_names[k]);
    if (it == def.params.end()) {
      if (def.any_kwargs) {
        b.kw_slot.push_back(-1);
        continue;
      }
      std::string known;
      for (auto& p : def.params) known += (known.empty() ? "" : ", ") + p;
      fail(kw_pos[k], def.name + "() got an unexpected keyword argument '" + kw_names[k] + "'" +
                          (known.empty() ? std::string(" (it takes none)") : " (expected one of: " + known + ")"));
    }
    int slot = int(it - def.params.begin());
    if (filled[size_t(slot)]) fail(kw_pos[k], def.name + "() got multiple values for argument '" + kw_names[k] + "'");
    filled[size_t(slot)] = true;
    b.kw_slot.push_back(slot);
  }
  for (int k = 0; k < def.required; ++k)
    if (!filled[size_t(k)])
      fail(call_pos, def.name + "() missing required argument '" + def.params[size_t(k)] + "'");
  return b;
}

Args bind_values(const BuiltinDef& def, std::vector<Value>& pos_args, const std::vector<std::string>& kw_names,
                 std::vector<Value>& kw_vals, const std::vector<Pos>& kw_pos, Pos call_pos, std::vector<Value>& vals,
                 std::vector<Pos>& apos) {
  ArgBinding b = bind_args(def, int(pos_args.size()), kw_names, kw_pos, call_pos);
  vals.assign(def.params.size(), Value());
  apos.assign(def.params.size(), call_pos);
  Args a;
  a.pos = call_pos;
  for (int k = 0; k < b.npos; ++k) vals[size_t(k)] = std::move(pos_args[size_t(k)]);
  for (size_t k = size_t(b.npos); k < pos_args.size(); ++k) a.rest.push_back(std::move(pos_args[k]));
  for (size_t k = 0; k < kw_names.size(); ++k) {
    if (b.kw_slot[k] < 0) {
      a.extra_kw.emplace_back(kw_names[k], std::move(kw_vals[k]));
      a.extra_kw_pos.push_back(kw_pos[k]);
    } else {
      vals[size_t(b.kw_slot[k])] = std::move(kw_vals[k]);
      apos[size_t(b.kw_slot[k])] = kw_pos[k];
    }
  }
  a.v = vals.data();
  a.arg_pos = apos.data();
  a.n = int(vals.size());
  return a;
}

Value call_value(Interp& in, const Value& callee, std::vector<Value>& pos_args,
                 const std::vector<std::string>& kw_names, std::vector<Value>& kw_vals,
                 const std::vector<Pos>& kw_pos, Pos call_pos) {
  if (callee.tag == VT::Func) return call_function(in, callee.as_func(), pos_args, kw_names, kw_vals, call_pos);
  if (callee.tag != VT::Builtin) fail(call_pos, std::string("'") + type_name(callee) + "' object is not callable");
  const BuiltinDef& def = *callee.b;
  if (def.scope)
    fail(call_pos, def.name + "(...) is a scope: use it as `with " + def.name + "(...):`");
  std::vector<Value> vals;
  std::vector<Pos> apos;
  Args a = bind_values(def, pos_args, kw_names, kw_vals, kw_pos, call_pos, vals, apos);
  // An op called through a value (`f = pto.exp`, `pto.relu(**kw)`) is still
  // an op of the timeline, as CallBuiltinNode makes it.
  return at_pos(call_pos, [&] {
    exec::ExecContext::OpCall call(in.ctx, def.op ? &def.name : nullptr);
    return call_builtin(def, in, a);
  });
}

// The parameter of a user function a keyword names, or -1.
static int param_slot(const CompiledFunction& fn, const std::string& name) {
  auto it = std::find(fn.params.begin(), fn.params.end(), name);
  return it == fn.params.end() ? -1 : int(it - fn.params.begin());
}

Value call_function(Interp& in, FuncObj* fo, std::vector<Value>& pos_args, const std::vector<std::string>& kw_names,
                    std::vector<Value>& kw_vals, Pos call_pos) {
  const CompiledFunction& fn = *fo->fn;
  size_t np = fn.params.size(), npos = size_t(fn.positional);
  if (pos_args.size() > npos)
    fail(call_pos, fn.name + "() takes " + std::to_string(npos) + " positional argument" + (npos == 1 ? "" : "s") +
                       " but " + std::to_string(pos_args.size()) + " were given");
  if (in.depth >= 100) fail(call_pos, "recursion depth limit exceeded (100 nested calls) in " + fn.name + "()");
  std::vector<Value> locals(size_t(fn.nlocals));
  for (size_t k = 0; k < pos_args.size(); ++k) locals[k] = std::move(pos_args[k]);
  Value extra;
  if (fn.kwargs_slot >= 0) extra = new_dict();
  for (size_t k = 0; k < kw_names.size(); ++k) {
    int slot = param_slot(fn, kw_names[k]);
    if (slot < 0 && fn.kwargs_slot >= 0) {
      as_dict(extra).set(dict_key(Value::str(kw_names[k]), call_pos), Value::str(kw_names[k]), std::move(kw_vals[k]));
      continue;
    }
    if (slot < 0) fail(call_pos, fn.name + "() got an unexpected keyword argument '" + kw_names[k] + "'");
    if (locals[size_t(slot)].defined())
      fail(call_pos, fn.name + "() got multiple values for argument '" + kw_names[k] + "'");
    locals[size_t(slot)] = std::move(kw_vals[k]);
  }
  for (size_t k = 0; k < np; ++k) {
    if (locals[k].defined()) continue;
    if (!fo->defaults[k].defined())
      fail(call_pos, fn.name + "() missing required " + (k >= npos ? "keyword-only " : "") + "argument '" +
                         fn.params[k] + "'");
    locals[k] = fo->defaults[k];
  }
  if (fn.kwargs_slot >= 0) locals[size_t(fn.kwargs_slot)] = std::move(extra);
  Frame fr{&in, in.globals.data(), locals.data(), Value()};
  ++in.depth;
  take_step(in, call_pos);
  in.ctx.function_push(fn.name + "()");
  try {
    fn.body.exec(fr);
  } catch (...) {
    --in.depth;
    in.ctx.function_pop();
    throw;
  }
  in.ctx.function_pop();
  --in.depth;
  if (!fr.ret.defined()) return Value::none();
  return std::move(fr.ret);
}

Value get_attribute(Interp& in, const Value& obj, const std::string& name, Pos pos) {
  if (obj.tag == VT::Tensor) {
    const exec::Tensor& t = obj.as_tensor();
    if (name == "shape") {
      std::vector<Value> s;
      for (int64_t d : t.shape()) s.push_back(Value::integer(d));
      return Value::tuple(std::move(s));
    }
    if (name == "dtype") return Value::dtype(t.dtype());
    if (name == "memory") return Value::str(t.space_name());
    if (name == "ndim") return Value::integer(t.rank());
    if (name == "size") return Value::integer(t.numel());
    if (name == "name") return Value::str(t.name());
    if (name == "layout") return Value::layout(t.layout());
    if (name == "T") return at_pos(pos, [&] { return Value::tensor(exec::transpose(in.ctx, t)); });
    fail(pos, "tensor has no attribute '" + name + "' (tensors have shape, dtype, memory, ndim, size, name)");
  }
  if (obj.tag == VT::Module) {
    const BuiltinDef* d = obj.i == 0 ? find_pto(name) : find_pto_ref(name);
    if (obj.i == 0) {
      if (auto dt = exec::dtype_from_name(name)) return Value::dtype(*dt);
      if (name == "ref") return Value::module(1);
    }
    if (d) return Value::builtin(d);
    fail(pos, std::string("unknown operation '") + (obj.i == 0 ? "pto." : "pto.ref.") + name + "'");
  }
  if (obj.tag == VT::DType && name == "itemsize") return Value::integer(exec::dtype_size(exec::DType(obj.i)));
  if (obj.tag == VT::Object) {
    Value out;
    if (as_object(obj).attribute(name, out)) return out;
  }
  fail(pos, std::string("'") + type_name(obj) + "' object has no attribute '" + name + "'");
}

// ---------------------------------------------------------------------------
// Subscripts

bool Subscript::fill_cache(const TensorObj& to) const {
  cache.id = 0;
  const exec::Tensor& t = to.t;
  if (has_slice || int(idx.size()) != t.rank() || t.rank() > 8) return false;
  for (const exec::DimMap& d : t.dims())
    if (d.block != 0) return false;
  cache.st = t.storage().get();
  cache.offset = t.offset();
  for (int k = 0; k < t.rank(); ++k) {
    cache.size[k] = t.shape()[size_t(k)];
    cache.stride[k] = t.dims()[size_t(k)].stride;
  }
  cache.es = exec::dtype_size(t.dtype());
  cache.id = to.id;
  return true;
}

Value SubscriptNode::slow(Frame& f) {
  Value tmp;
  const Value* o = s.obj->peek(f);
  if (!o) {
    tmp = s.obj->eval(f);
    o = &tmp;
  }
  if (o->tag == VT::Tensor) {
    const exec::Tensor& t = o->as_tensor();
    const exec::Storage& st = *t.storage();
    exec::ExecContext& ctx = f.in->ctx;
    if (!st.freed && !ctx.fusing() && t.rank() <= 8) {
      int64_t vals[8];
      int64_t phys = s.element(f, t, vals);
      if (phys >= 0) return read_elem(ctx, st, phys, exec::dtype_size(st.dtype), pos);
    }
  }
  return s.read(f, *o);
}

void Subscript::out_of_bounds(int k, int64_t v, int64_t size) const {
  fail(idx[size_t(k)].pos, "index " + std::to_string(v) + " is out of bounds for dimension " + std::to_string(k) +
                               " with size " + std::to_string(size));
}

// A slice part; a step is checked here, on the int: testing the optional
// afterwards lets the compiler read an empty optional's payload first.
static std::optional<int64_t> opt_int(Frame& f, const NodeP& n, bool is_step = false) {
  if (!n) return std::nullopt;
  Value v = n->eval(f);
  if (v.tag == VT::None) return std::nullopt;
  if (!v.is_int()) fail(n->pos, std::string("slice indices must be integers, not ") + type_name(v));
  if (is_step && v.i == 0) fail(n->pos, "slice step cannot be zero");
  return v.i;
}

std::vector<exec::IndexItem> Subscript::items(Frame& f) const {
  std::vector<exec::IndexItem> out;
  out.reserve(idx.size());
  for (const IndexSrc& s : idx) {
    if (s.kind == IndexSrc::Slice) {
      auto a = opt_int(f, s.start), b = opt_int(f, s.stop), c = opt_int(f, s.step, true);
      out.push_back(exec::IndexItem::slice(a, b, c));
    } else {
      out.push_back(exec::IndexItem::at(s.get(f)));
    }
  }
  return out;
}

exec::Tensor Subscript::view(Frame& f, const exec::Tensor& t) const {
  std::vector<exec::IndexItem> it = items(f);
  if (int(it.size()) > t.rank())
    fail(pos, "too many indices for tensor '" + t.name() + "': it is " + std::to_string(t.rank()) +
                  "-dimensional, but " + std::to_string(it.size()) + " were indexed");
  for (size_t k = 0; k < it.size(); ++k) {
    if (it[k].is_slice) continue;
    int64_t size = t.shape()[k];
    int64_t v = it[k].index < 0 ? it[k].index + size : it[k].index;
    if (v < 0 || v >= size) out_of_bounds(int(k), it[k].index, size);
  }
  return at_pos(pos, [&] { return exec::subscript(f.in->ctx, t, it); });
}

static int64_t seq_index(const Subscript& s, Frame& f, size_t len, const char* what) {
  if (s.idx.size() != 1) fail(s.pos, std::string(what) + " indices must be a single integer or slice");
  int64_t v = s.idx[0].get(f);
  int64_t n = int64_t(len);
  int64_t i = v < 0 ? v + n : v;
  if (i < 0 || i >= n) fail(s.idx[0].pos, std::string(what) + " index " + std::to_string(v) + " out of range (length " +
                                              std::to_string(n) + ")");
  return i;
}

static void slice_bounds(int64_t n, std::optional<int64_t> a, std::optional<int64_t> b, int64_t step, int64_t& lo,
                         int64_t& hi) {
  auto clamp = [&](std::optional<int64_t> x, int64_t dflt) {
    if (!x) return dflt;
    int64_t v = *x < 0 ? *x + n : *x;
    if (step > 0) return std::clamp<int64_t>(v, 0, n);
    return std::clamp<int64_t>(v, -1, n - 1);
  };
  lo = clamp(a, step > 0 ? 0 : n - 1);
  hi = clamp(b, step > 0 ? n : -1);
}

Value Subscript::read(Frame& f, const Value& o) const {
  switch (o.tag) {
    case VT::Tensor: {
      const exec::Tensor& t = o.as_tensor();
      if (!has_slice && int(idx.size()) == t.rank()) {
        std::vector<int64_t> v;
        for (const IndexSrc& s : idx) v.push_back(s.get(f));
        for (size_t k = 0; k < v.size(); ++k) {
          int64_t size = t.shape()[k];
          int64_t x = v[k] < 0 ? v[k] + size : v[k];
          if (x < 0 || x >= size) out_of_bounds(int(k), v[k], size);
        }
        return at_pos(pos, [&] { return elem_to_value(t.dtype(), exec::read_element(f.in->ctx, t, v)); });
      }
      return Value::tensor(view(f, t));
    }
    case VT::List: case VT::Tuple: case VT::Str: {
      bool is_str = o.tag == VT::Str;
      size_t len = is_str ? o.as_str().size() : o.items().size();
      const char* what = o.tag == VT::List ? "list" : o.tag == VT::Tuple ? "tuple" : "string";
      if (has_slice) {
        if (idx.size() != 1) fail(pos, std::string(what) + " indices must be a single integer or slice");
        const IndexSrc& s = idx[0];
        auto a = opt_int(f, s.start), b = opt_int(f, s.stop), c = opt_int(f, s.step);
        int64_t step = c.value_or(1);
        if (step == 0) fail(s.step->pos, "slice step cannot be zero");
        int64_t lo, hi;
        slice_bounds(int64_t(len), a, b, step, lo, hi);
        if (is_str) {
          std::string r;
          for (int64_t k = lo; step > 0 ? k < hi : k > hi; k += step) r += o.as_str()[size_t(k)];
          return Value::str(std::move(r));
        }
        std::vector<Value> r;
        for (int64_t k = lo; step > 0 ? k < hi : k > hi; k += step) r.push_back(o.items()[size_t(k)]);
        return o.tag == VT::List ? Value::list(std::move(r)) : Value::tuple(std::move(r));
      }
      int64_t i = seq_index(*this, f, len, what);
      if (is_str) return Value::str(std::string(1, o.as_str()[size_t(i)]));
      return o.items()[size_t(i)];
    }
    case VT::Dict: {
      const Value key = dict_index(f);
      if (const Value* v = as_dict(o).find(dict_key(key, idx[0].pos))) return *v;
      fail(idx[0].pos, "key " + to_repr(key) + " is not in the dict");
    }
    default:
      fail(pos, std::string("'") + type_name(o) + "' object is not subscriptable");
  }
}

Value Subscript::dict_index(Frame& f) const {
  if (has_slice) fail(pos, "a dict cannot be sliced");
  if (idx.size() == 1) return idx[0].node->eval(f);
  std::vector<Value> key;  // d[2, 3] is d[(2, 3)], as in Python
  for (const IndexSrc& i : idx) key.push_back(i.node->eval(f));
  return Value::tuple(std::move(key));
}

static exec::Operand to_operand(const Value& v, Pos pos) {
  if (v.tag == VT::Tensor) return exec::Operand(v.as_tensor());
  if (v.is_number()) return exec::Operand(v.as_double());
  fail(pos, std::string("cannot store a value of type '") + type_name(v) + "' into a tensor");
}

void read_only_elem(const exec::Storage& st, Pos pos) {
  fail(pos, "cannot write to tensor '" + st.name + "': space '" + st.space_name + "' is read-only");
}

void freed_elem(const exec::Storage& st, Pos pos) { fail(pos, "use of freed tensor '" + st.name + "'"); }

// *tok: on entry the event that read `old`, on return the one that produced the result.
double augment_value(Interp& in, BinOp op, exec::DType dt, double old, const Value& r, Pos pos, uint32_t* tok) {
  Value o = elem_to_value(dt, old);
  o.tok = *tok;
  Value res = binary_op(in, op, o, r, pos);
  if (!res.is_number()) fail(pos, "cannot assign a tensor to a single element (use a slice)");
  *tok = res.tok;
  return res.as_double();
}

Subscript::ElemRef Subscript::element_ref(Frame& f, const Value& o) const {
  if (o.tag != VT::Tensor || f.in->ctx.fusing()) return {};
  int64_t phys = fast_phys(f, o);
  if (phys >= 0) return {cache.st, phys, cache.es};
  const exec::Tensor& t = o.as_tensor();
  exec::Storage& st = *t.storage();
  int64_t vals[8];
  if (t.rank() > 8 || st.freed) return {};
  phys = element(f, t, vals);
  if (phys < 0) return {};
  return {&st, phys, exec::dtype_size(st.dtype)};
}

std::vector<int64_t> Subscript::int_indices(Frame& f) const {
  std::vector<int64_t> iv;
  for (const IndexSrc& s : idx) iv.push_back(s.get(f));
  return iv;
}

void Subscript::write(Frame& f, const Value& o, Value v) const {
  if (ElemRef e = element_ref(f, o); e.phys >= 0) {
    if (!v.is_number()) {
      if (v.tag == VT::Tensor) fail(pos, "cannot assign a tensor to a single element (use a slice)");
      fail(pos, std::string("cannot store a value of type '") + type_name(v) + "' into a tensor");
    }
    write_elem(f.in->ctx, *e.st, e.phys, e.es, v.as_double(), pos, v.tok);
    return;
  }
  if (o.tag == VT::Tensor) {
    const exec::Tensor& t = o.as_tensor();
    exec::ExecContext& ctx = f.in->ctx;
    if (names_element(t)) {
      const std::vector<int64_t> iv = int_indices(f);
      if (!v.is_number()) fail(pos, "cannot assign a tensor to a single element (use a slice)");
      at_pos(pos, [&] { exec::write_element(ctx, t, iv, v.as_double()); });
      return;
    }
    exec::Tensor dst = view(f, t);
    exec::Operand src = to_operand(v, pos);
    at_pos(pos, [&] { exec::assign(ctx, dst, src); });
    return;
  }
  if (o.tag == VT::List) {
    if (has_slice) fail(pos, "slice assignment to lists is not supported");
    int64_t i = seq_index(*this, f, o.items().size(), "list");
    o.items()[size_t(i)] = std::move(v);
    return;
  }
  if (o.tag == VT::Dict) {
    Value key = dict_index(f);
    std::string text = dict_key(key, idx[0].pos);
    as_dict(o).set(text, std::move(key), std::move(v));
    return;
  }
  fail(pos, std::string("'") + type_name(o) + "' object does not support item assignment");
}

static exec::OpKind aug_kind(BinOp op) {
  switch (op) {
    case BinOp::Add: return exec::OpKind::Add;
    case BinOp::Sub: return exec::OpKind::Subtract;
    case BinOp::Mul: return exec::OpKind::Multiply;
    case BinOp::Div: return exec::OpKind::Divide;
    default: return exec::OpKind::None;
  }
}

void Subscript::augment(Frame& f, const Value& o, BinOp op, Node& rhs) const {
  if (ElemRef e = element_ref(f, o); e.phys >= 0) {
    augment_elem(f, *e.st, e.phys, e.es, op, rhs, pos);
    return;
  }
  if (o.tag == VT::Tensor) {
    const exec::Tensor& t = o.as_tensor();
    if (names_element(t)) {
      const std::vector<int64_t> iv = int_indices(f);
      for (size_t k = 0; k < iv.size(); ++k) {
        int64_t size = t.shape()[k];
        int64_t x = iv[k] < 0 ? iv[k] + size : iv[k];
        if (x < 0 || x >= size) out_of_bounds(int(k), iv[k], size);
      }
      double old = at_pos(pos, [&] { return exec::read_element(f.in->ctx, t, iv); });
      Value res = binary_op(*f.in, op, elem_to_value(t.dtype(), old), rhs.eval(f), pos);
      if (!res.is_number()) fail(pos, "cannot assign a tensor to a single element (use a slice)");
      at_pos(pos, [&] { exec::write_element(f.in->ctx, t, iv, res.as_double()); });
      return;
    }
    exec::Tensor dst = view(f, t);
    Value r = rhs.eval(f);
    exec::OpKind k = aug_kind(op);
    if (k == exec::OpKind::None)
      fail(pos, std::string("augmented assignment ") + binop_symbol(op) + "= is not supported on tensor slices");
    exec::Operand src = to_operand(r, rhs.pos);
    at_pos(pos, [&] { exec::assign(f.in->ctx, dst, src, k); });
    return;
  }
  if (o.tag == VT::List) {
    if (has_slice) fail(pos, "slice assignment to lists is not supported");
    int64_t i = seq_index(*this, f, o.items().size(), "list");
    Value r = rhs.eval(f);
    o.items()[size_t(i)] = binary_op(*f.in, op, o.items()[size_t(i)], r, pos);
    return;
  }
  if (o.tag == VT::Dict) {
    Value key = dict_index(f);
    std::string text = dict_key(key, idx[0].pos);
    const Value* old = as_dict(o).find(text);
    if (!old) fail(idx[0].pos, "key " + to_repr(key) + " is not in the dict");
    Value cur = *old;
    Value r = rhs.eval(f);
    as_dict(o).set(text, std::move(key), binary_op(*f.in, op, cur, r, pos));
    return;
  }
  fail(pos, std::string("'") + type_name(o) + "' object does not support item assignment");
}

}  // namespace ptosim::frontend
