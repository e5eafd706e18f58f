#include "sim/frontend/stmt_nodes.h"

#include <algorithm>

#include "sim/common/memory_budget.h"
#include "sim/frontend/induction_streams.h"
#include "sim/frontend/scopes.h"
#include "sim/frontend/tools.h"

namespace ptosim::frontend {

void fail_in_statement(Pos pos) {
  try {
    throw;
  } catch (const exec::OpError& e) {
    // Safety net: nodes that call the executor position their own errors.
    fail(pos, e.what());
  } catch (const memory_budget::Exceeded& e) {
    // The innermost statement that went over: its block catches first.
    if (e.values)
      fail(pos, "out of memory: the program's lists, strings and dicts would need more than " +
                    memory_budget::describe(memory_budget::value_limit()) + " (--max-value-memory)");
    fail(pos, "out of memory: the program's lists, strings and tensors would need more than " +
                  memory_budget::describe(memory_budget::limit()) + " (--max-memory)");
  } catch (const std::bad_alloc&) {
    fail(pos, "out of memory while running the program");
  }
}

Flow BlockNode::exec(Frame& f) const {
  exec::ExecContext& ctx = f.in->ctx;
  // Each statement's events carry its line; after the block, the statement
  // that holds it (a loop, a with) is the one running again.
  const exec::ExecContext::Statement* outer = ctx.statement();
  size_t k = 0;
  try {
    for (; k < stmts.size(); ++k) {
      SNode& s = *stmts[k];
      if (!s.stmt.site) s.stmt = {ctx.site_for_line(s.pos.line), s.pos.line, s.pos.col};
      ctx.set_statement(&s.stmt);
      f.in->at = s.pos;
      Flow fl = s.exec(f);
      if (fl != Flow::Normal) {
        ctx.set_statement(outer);
        return fl;
      }
    }
  } catch (...) {
    fail_in_statement(stmts[k]->pos);
  }
  ctx.set_statement(outer);
  return Flow::Normal;
}

void SubscriptTarget::assign(Frame& f, Value v) {
  Value tmp;
  const Value* o = s.obj->peek(f);
  if (!o) {
    tmp = s.obj->eval(f);
    o = &tmp;
  }
  s.write(f, *o, std::move(v));
}

void TupleTarget::assign(Frame& f, Value v) {
  if (v.tag != VT::Tuple && v.tag != VT::List)
    fail(pos, std::string("cannot unpack a value of type '") + type_name(v) + "' into " +
                  std::to_string(items.size()) + " names");
  // Copy first: the targets may rebind the sequence being unpacked.
  std::vector<Value> vals = v.items();
  if (vals.size() != items.size())
    fail(pos, "cannot unpack " + std::to_string(vals.size()) + " values into " + std::to_string(items.size()) +
                  " targets");
  for (size_t k = 0; k < items.size(); ++k) items[k]->assign(f, std::move(vals[k]));
}

namespace {
// While the right-hand side runs: the buffer the assignment will drop (the
// target variable holds its last reference), which an allocation that does
// not fit may take over (ExecContext::set_rebind).
struct RebindScope {
  exec::ExecContext& ctx;
  RebindScope(exec::ExecContext& c, const Value* var) : ctx(c) {
    if (var && var->tag == VT::Tensor && var->o->refs == 1 && var->as_tensor().storage().use_count() == 1)
      ctx.set_rebind(var->as_tensor().storage());
  }
  ~RebindScope() { ctx.set_rebind({}); }
};
}  // namespace

Flow AssignStmt::exec(Frame& f) {
  exec::ExecContext& ctx = f.in->ctx;
  Value v;
  int64_t x;
  uint32_t tok;
  // An int allocates nothing: no result name, no buffer to take over.
  if (value->pure_int(f, &x, &tok)) {
    if (one_name) {
      Value& var = name_ref.get(f);
      var.set_int(x);
      var.tok = tok;
      return Flow::Normal;
    }
    v.set_int(x);
    v.tok = tok;
    for (size_t k = 0; k + 1 < targets.size(); ++k) targets[k]->assign(f, v);
    targets.back()->assign(f, std::move(v));
    return Flow::Normal;
  }
  if (!result_name.empty()) ctx.set_result_name(result_name);
  {
    RebindScope rebind(ctx, targets.size() == 1 ? targets[0]->variable(f) : nullptr);
    v = value->eval(f);
  }
  if (!result_name.empty()) ctx.set_result_name("");
  for (size_t k = 0; k + 1 < targets.size(); ++k) targets[k]->assign(f, v);
  targets.back()->assign(f, std::move(v));
  return Flow::Normal;
}

Value into_memory_scope(Frame& f, Value view, const std::string& name, Pos pos) {
  exec::ExecContext& ctx = f.in->ctx;
  const exec::Tensor& t = view.as_tensor();
  if (!ctx.in_memory_scope() || t.space() == ctx.default_space()) return view;
  static const std::string kLoad = "pto.load";
  ctx.set_result_name(name);
  Value copy = at_pos(pos, [&] {
    exec::ExecContext::OpCall call(ctx, &kLoad);
    return Value::tensor(exec::load(ctx, t, ""));
  });
  ctx.set_result_name("");
  return copy;
}

Flow AugNameStmt::exec(Frame& f) {
  Value& slot = ref.get(f);
  if (slot.tag == VT::Undef) undefined_name(pos, name, ref.local);
  Value r = value->eval(f);
  if (slot.tag == VT::Tensor && (op == BinOp::Add || op == BinOp::Sub || op == BinOp::Mul || op == BinOp::Div)) {
    // NumPy semantics: `x += y` updates the tensor in place (aliases see it).
    exec::OpKind k = op == BinOp::Add   ? exec::OpKind::Add
                     : op == BinOp::Sub ? exec::OpKind::Subtract
                     : op == BinOp::Mul ? exec::OpKind::Multiply
                                        : exec::OpKind::Divide;
    if (r.tag != VT::Tensor && !r.is_number())
      fail(value->pos, std::string("unsupported operand type for ") + binop_symbol(op) + "=: '" + type_name(r) + "'");
    exec::Operand src = r.tag == VT::Tensor ? exec::Operand(r.as_tensor()) : exec::Operand(r.as_double());
    Value keep = slot;  // the assign must not see the tensor disappear
    at_pos(pos, [&] { exec::assign(f.in->ctx, keep.as_tensor(), src, k); });
    return Flow::Normal;
  }
  if (slot.tag == VT::Int && r.tag == VT::Int && op == BinOp::Add) {
    int64_t s;
    if (!__builtin_add_overflow(slot.i, r.i, &s)) {
      slot.i = s;
      if (r.tok > slot.tok) slot.tok = r.tok;
      return Flow::Normal;
    }
  }
  if (slot.tag == VT::Float && r.tag == VT::Float && op == BinOp::Add) {
    // A float add like any other: one flop, and (dataflow) the next link
    // of the accumulator's chain.
    slot.tok = f.in->ctx.scalar_op(exec::OpKind::Add, slot.tok, r.tok);
    slot.f += r.f;
    return Flow::Normal;
  }
  Value res = binary_op(*f.in, op, slot, r, pos);
  ref.get(f) = std::move(res);
  return Flow::Normal;
}

uint64_t range_trips(int64_t a, int64_t b, int64_t s) {
  if (s > 0) return b > a ? (uint64_t(b) - uint64_t(a) - 1) / uint64_t(s) + 1 : 0;
  return a > b ? (uint64_t(a) - uint64_t(b) - 1) / (uint64_t(0) - uint64_t(s)) + 1 : 0;
}

Flow ForRangeStmt::exec(Frame& f) {
  int64_t a = start ? start->eval_int(f) : 0;
  int64_t b = stop->eval_int(f);
  int64_t s = step ? step->eval_int(f) : 1;
  if (s == 0) fail(step->pos, "range() step must not be zero");
  Interp& in = *f.in;
  // Every iteration takes a step: a loop that cannot leave early and runs
  // more times than the steps left would only reach the limit, after as
  // many seconds as it has iterations (`range(10**12)`: 20 s at 10^8 a
  // second), so it stops now, with the same error.
  if (!can_leave) {
    const uint64_t trips = range_trips(a, b, s), left = in.step_limit - std::min(in.steps, in.step_limit);
    if (trips > left)
      fail(pos, "iteration limit exceeded: this loop runs " + std::to_string(trips) + " times, more than the " +
                    std::to_string(left) + " loop iterations and calls left of the limit of " +
                    std::to_string(in.step_limit) + " (it follows --max-events)");
  }
  if (fused && !parallel && !in.ctx.dataflow()) return fused->run(f, *this, a, b, s);
  int64_t iter = 0;
  InductionProbe probe(in);
  for (int64_t v = a; s > 0 ? v < b : v > b;) {
    var.get(f).set_int(v);
    take_step(in, pos);
    if (parallel) in.ctx.set_core(iter++);
    probe.before_iteration();
    in.ctx.loop_iteration(probe.streams());
    Flow fl = body.exec(f);
    probe.after_iteration();
    if (fl == Flow::Break) break;
    if (fl == Flow::Return) return fl;
    if (__builtin_add_overflow(v, s, &v)) break;
  }
  return Flow::Normal;
}

Flow ForIterStmt::exec(Frame& f) {
  Value it = iter->eval(f);
  std::vector<Value> items;
  if (it.tag == VT::List || it.tag == VT::Tuple) {
    items = it.items();  // iterate over a snapshot, as mutation during iteration is undefined anyway
  } else if (it.tag == VT::Dict) {
    for (auto& [k, v] : as_dict(it).entries) items.push_back(k);  // a dict iterates over its keys
  } else if (it.tag == VT::Str) {
    for (char c : it.as_str()) items.push_back(Value::str(std::string(1, c)));
  } else if (it.tag == VT::Tensor) {
    fail(iter->pos, "iterating over a tensor is not supported; use for i in range(x.shape[0])");
  } else {
    fail(iter->pos, std::string("'") + type_name(it) + "' object is not iterable");
  }
  Interp& in = *f.in;
  int64_t n = 0;
  for (Value& v : items) {
    take_step(in, pos);
    if (parallel) in.ctx.set_core(n++);
    target->assign(f, std::move(v));
    Flow fl = body.exec(f);
    if (fl == Flow::Break) break;
    if (fl == Flow::Return) return fl;
  }
  return Flow::Normal;
}

Flow DefStmt::exec(Frame& f) {
  auto* fo = new FuncObj;
  fo->fn = fn;
  Value v = Value::object(VT::Func, fo);
  fo->defaults.resize(fn->params.size());
  for (size_t k = 0; k < fn->params.size(); ++k)
    if (fn->defaults[k]) fo->defaults[k] = fn->defaults[k]->eval(f);
  target.get(f) = std::move(v);
  return Flow::Normal;
}

Flow AssertStmt::exec(Frame& f) {
  if (cond->eval_bool(f)) return Flow::Normal;
  std::string msg = "assertion failed";
  if (message) msg += ": " + to_str(message->eval(f));
  fail(pos, msg);
}

void WithStmt::begin(Frame& f, const ScopeItem& it, Value& block) {
  if (it.manager) {
    block = it.manager->eval(f);
    if (block.tag != VT::Object || !as_object(block).is_context())
      fail(it.pos, std::string("'with' needs a pto scope or a tool's block (profiler.profile(name), ...), got '") +
                       type_name(block) + "'");
    as_object(block).enter(*f.in, it.pos);
    return;
  }
  std::vector<Value> vals;
  std::vector<Pos> apos;
  if (it.dynamic) {
    std::vector<Value> pos_args;
    for (auto& n : it.pos_nodes) pos_args.push_back(n->eval(f));
    std::vector<std::string> names;
    std::vector<Value> kw_vals;
    std::vector<Pos> kw_pos;
    it.kw.eval(f, names, kw_vals, kw_pos);
    Args a = bind_values(*it.def, pos_args, names, kw_vals, kw_pos, it.pos, vals, apos);
    begin_bound(f, it, a);
    return;
  }
  vals.resize(it.args.size());
  for (size_t k = 0; k < it.args.size(); ++k)
    if (it.args[k]) vals[k] = it.args[k]->eval(f);
  Args a;
  a.v = vals.data();
  a.arg_pos = it.arg_pos.data();
  a.n = int(it.args.size());
  a.pos = it.pos;
  for (size_t k = 0; k < it.extra_kw.size(); ++k) {
    a.extra_kw.emplace_back(it.extra_kw[k], it.extra_kw_nodes[k]->eval(f));
    a.extra_kw_pos.push_back(it.extra_kw_pos[k]);
  }
  begin_bound(f, it, a);
}

void WithStmt::begin_bound(Frame& f, const ScopeItem& it, Args& a) {
  at_pos(it.pos, [&] { it.def->scope->begin(ScopeBegin{f, it, a, f.in->ctx}); });
}

void WithStmt::end(Frame& f, const ScopeItem& it, const Value& block) {
  if (it.manager) {
    as_object(block).exit(*f.in, it.pos);
    return;
  }
  at_pos(it.pos, [&] { it.def->scope->end(ScopeEnd{f, *this, it, f.in->ctx}); });
}

Flow WithStmt::exec(Frame& f) {
  size_t begun = 0;
  std::vector<Value> blocks(items.size());
  for (; begun < items.size(); ++begun) begin(f, items[begun], blocks[begun]);
  Flow fl = Flow::Normal;
  if (!auto_reuse) {
    fl = body.exec(f);
  } else {
    for (size_t k = 0; k < body.stmts.size(); ++k) {
      try {
        fl = body.stmts[k]->exec(f);
      } catch (const exec::OpError& e) {
        fail(body.stmts[k]->pos, e.what());
      }
      if (fl != Flow::Normal) break;
      for (const SlotRef& r : dead_after[k]) {
        const Value& v = r.get(f);
        if (v.tag == VT::Tensor && !v.as_tensor().freed())
          at_pos(body.stmts[k]->pos, [&] { f.in->ctx.mark_dead(v.as_tensor()); });
      }
    }
  }
  while (begun > 0) {
    --begun;
    end(f, items[begun], blocks[begun]);
  }
  return fl;
}

}  // namespace ptosim::frontend
