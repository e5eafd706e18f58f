// The compiler of compiler.h: syntax tree to node tree, names to slots,
// static errors raised before anything runs (its scope analysis in scopes.h).
#include "sim/frontend/scopes.h"
#include "sim/frontend/compiler.h"

#include <algorithm>
#include <stdexcept>

#include "sim/frontend/fast_mac.h"
#include "sim/frontend/flat_loop.h"
#include "sim/frontend/liveness.h"

namespace ptosim::frontend {

namespace {

enum class NameKind { Local, Global, Builtin, PtoModule };

struct Resolved {
  NameKind kind;
  int slot = 0;
  const BuiltinDef* builtin = nullptr;
};

// One level of statement nesting, for "what runs after this statement".
struct Level {
  const Block* block;
  size_t index;
  const Stmt* owner;  // the statement whose body `block` is (null at unit top)
};

class Compiler {
 public:
  explicit Compiler(bool flat_loops) : flat_loops_(flat_loops) {}
  std::unique_ptr<Program> run(const Module& m) {
    prog_ = std::make_unique<Program>();
    NameSet globals;
    writes_of(m.body, globals);
    for (const std::string& g : globals) global_slot(g);
    prog_->main = block(m.body, nullptr);
    return std::move(prog_);
  }

 private:
  int global_slot(const std::string& name) {
    auto it = globals_.find(name);
    if (it != globals_.end()) return it->second;
    int s = int(prog_->global_names.size());
    globals_[name] = s;
    prog_->global_names.push_back(name);
    return s;
  }

  Resolved resolve(const std::string& name, Pos pos) {
    if (fn_) {
      auto it = locals_.find(name);
      if (it != locals_.end()) return {NameKind::Local, it->second, nullptr};
    }
    auto g = globals_.find(name);
    if (g != globals_.end()) return {NameKind::Global, g->second, nullptr};
    if (name == "pto") return {NameKind::PtoModule, 0, nullptr};
    if (const BuiltinDef* b = find_builtin(name)) return {NameKind::Builtin, 0, b};
    if (name == "np" || name == "numpy" || name == "torch")
      fail(pos, "name '" + name + "' is not defined (use the pto namespace)");
    fail(pos, "name '" + name + "' is not defined");
  }

  SlotRef slot_of(const std::string& name, Pos pos) {
    Resolved r = resolve(name, pos);
    if (r.kind == NameKind::Local) return {true, r.slot};
    if (r.kind == NameKind::Global) return {false, r.slot};
    fail(pos, "cannot bind builtin name '" + name + "'");
  }

  // ---- blocks and statements ----------------------------------------------
  BlockNode block(const Block& b, const Stmt* owner) {
    BlockNode out;
    levels_.push_back({&b, 0, owner});
    for (size_t k = 0; k < b.size(); ++k) {
      levels_.back().index = k;
      out.stmts.push_back(stmt(*b[k]));
    }
    levels_.pop_back();
    return out;
  }

  SNodeP stmt(const Stmt& s) {
    bool parallel = parallel_body_;
    parallel_body_ = false;
    switch (s.kind) {
      case StmtKind::Pass: case StmtKind::Import:
        return std::make_unique<FlowStmt>(s.pos, Flow::Normal);
      case StmtKind::Break: case StmtKind::Continue:
        if (loop_depth_ == 0)
          fail(s.pos, std::string("'") + (s.kind == StmtKind::Break ? "break" : "continue") + "' outside loop");
        if (s.kind == StmtKind::Break) ++exits_;
        return std::make_unique<FlowStmt>(s.pos, s.kind == StmtKind::Break ? Flow::Break : Flow::Continue);
      case StmtKind::Return:
        if (!fn_) fail(s.pos, "'return' outside function");
        ++exits_;
        return std::make_unique<ReturnStmt>(s.pos, s.value ? expr(*s.value) : nullptr);
      case StmtKind::ExprStmt:
        return std::make_unique<ExprStmt>(s.pos, expr(*s.value));
      case StmtKind::Param: return param(s);
      case StmtKind::Assign: return assign(s);
      case StmtKind::AugAssign: return aug_assign(s);
      case StmtKind::For: return for_stmt(s, parallel);
      case StmtKind::If: {
        auto n = std::make_unique<IfStmt>(s.pos);
        n->cond = expr(*s.value);
        n->guard = IntGuard::of(n->cond.get());
        n->body = block(s.body, &s);
        n->orelse = block(s.orelse, &s);
        return n;
      }
      case StmtKind::Def: return def(s);
      case StmtKind::Assert: {
        auto n = std::make_unique<AssertStmt>(s.pos);
        n->cond = expr(*s.value);
        if (s.message) n->message = expr(*s.message);
        return n;
      }
      case StmtKind::With: return with(s);
    }
    fail(s.pos, "unsupported statement");
  }

  SNodeP param(const Stmt& s) {
    if (fn_ || levels_.size() != 1) fail(s.pos, "'param' declarations must be at the top level of the program");
    if (prog_->params.count(s.name)) fail(s.name_pos, "parameter '" + s.name + "' is declared twice");
    auto n = std::make_unique<ParamStmt>(s.pos);
    n->slot = global_slot(s.name);
    n->name = s.name;
    n->value = expr(*s.value);
    prog_->params[s.name] = n.get();
    return n;
  }

  static bool may_allocate(const Expr& e) {
    return e.kind == ExprKind::Call || e.kind == ExprKind::Binary || e.kind == ExprKind::Unary ||
           e.kind == ExprKind::IfElse;
  }

  SNodeP assign(const Stmt& s) {
    if (s.targets.empty() && s.target->kind == ExprKind::Name && s.value->kind == ExprKind::Subscript) {
      SlotRef r = slot_of(s.target->name, s.target->pos);
      NodeP v = expr(*s.value);
      if (r.local) return std::make_unique<AssignSubscriptStmt<true>>(s.pos, r.slot, s.target->name, std::move(v));
      return std::make_unique<AssignSubscriptStmt<false>>(s.pos, r.slot, s.target->name, std::move(v));
    }
    if (s.targets.empty() && s.target->kind == ExprKind::Name && !may_allocate(*s.value)) {
      SlotRef r = slot_of(s.target->name, s.target->pos);
      NodeP v = expr(*s.value);
      if (r.local) return std::make_unique<AssignNameStmt<true>>(s.pos, r.slot, std::move(v));
      return std::make_unique<AssignNameStmt<false>>(s.pos, r.slot, std::move(v));
    }
    auto n = std::make_unique<AssignStmt>(s.pos);
    n->value = expr(*s.value);
    for (auto& t : s.targets) n->targets.push_back(target(*t));
    n->targets.push_back(target(*s.target));
    if (s.target->kind == ExprKind::Name && may_allocate(*s.value)) n->result_name = s.target->name;
    if (s.targets.empty() && s.target->kind == ExprKind::Name) {
      n->one_name = true;
      n->name_ref = slot_of(s.target->name, s.target->pos);
    }
    return n;
  }

  TargetP target(const Expr& t) {
    switch (t.kind) {
      case ExprKind::Name: {
        SlotRef r = slot_of(t.name, t.pos);
        if (r.local) return std::make_unique<NameTarget<true>>(t.pos, r.slot);
        return std::make_unique<NameTarget<false>>(t.pos, r.slot);
      }
      case ExprKind::Subscript: {
        auto n = std::make_unique<SubscriptTarget>(t.pos);
        subscript(t, n->s);
        return n;
      }
      case ExprKind::Tuple: case ExprKind::List: {
        auto n = std::make_unique<TupleTarget>(t.pos);
        for (auto& i : t.items) n->items.push_back(target(*i));
        return n;
      }
      default: fail(t.pos, "cannot assign to this expression");
    }
  }

  SNodeP aug_assign(const Stmt& s) {
    const Expr& t = *s.target;
    if (t.kind == ExprKind::Name) {
      auto n = std::make_unique<AugNameStmt>(s.pos);
      n->ref = slot_of(t.name, t.pos);
      n->name = t.name;
      n->op = s.bop;
      n->value = expr(*s.value);
      return n;
    }
    if (t.kind == ExprKind::Subscript) {
      switch (fast_rank(t)) {
        case 1: return fast_aug<1>(s);
        case 2: return fast_aug<2>(s);
        case 3: return fast_aug<3>(s);
        case 4: return fast_aug<4>(s);
        default: break;
      }
      auto n = std::make_unique<AugSubscriptStmt>(s.pos);
      subscript(t, n->s);
      n->op = s.bop;
      n->value = expr(*s.value);
      return n;
    }
    fail(t.pos, "cannot use augmented assignment here");
  }

  bool is_builtin_call(const Expr& e, const char* name) {
    if (e.kind != ExprKind::Call || e.object->kind != ExprKind::Name || e.object->name != name) return false;
    Resolved r = resolve(e.object->name, e.object->pos);
    return r.kind == NameKind::Builtin;
  }

  SNodeP for_stmt(const Stmt& s, bool parallel) {
    const Expr& it = *s.value;
    if (is_builtin_call(it, "range")) {
      if (!it.keywords.empty()) fail(it.keywords[0].pos, "range() takes no keyword arguments");
      if (it.items.empty() || it.items.size() > 3)
        fail(it.pos, "range expected 1 to 3 arguments, got " + std::to_string(it.items.size()));
      if (s.target->kind != ExprKind::Name) fail(s.target->pos, "cannot unpack an int from range()");
      auto n = std::make_unique<ForRangeStmt>(s.pos);
      n->var = slot_of(s.target->name, s.target->pos);
      if (it.items.size() == 1) {
        n->stop = expr(*it.items[0]);
      } else {
        n->start = expr(*it.items[0]);
        n->stop = expr(*it.items[1]);
        if (it.items.size() == 3) n->step = expr(*it.items[2]);
      }
      n->parallel = parallel;
      const uint64_t exits_before = exits_;
      ++loop_depth_;
      n->body = block(s.body, &s);
      --loop_depth_;
      n->can_leave = exits_ != exits_before;
      if (n->body.stmts.size() == 1) n->fused = dynamic_cast<FusedLoop*>(n->body.stmts[0].get());
      if (!n->fused && flat_loops_) {
        n->flat = FlatLoop::of(*n);
        n->fused = n->flat.get();
      }
      return n;
    }
    auto n = std::make_unique<ForIterStmt>(s.pos);
    n->iter = expr(it);
    n->target = target(*s.target);
    n->parallel = parallel;
    ++loop_depth_;
    n->body = block(s.body, &s);
    --loop_depth_;
    return n;
  }

  SNodeP def(const Stmt& s) {
    if (fn_) fail(s.pos, "nested function definitions are not supported");
    auto cf = std::make_unique<CompiledFunction>();
    cf->name = s.name;
    cf->pos = s.pos;
    // Defaults are evaluated in the enclosing (global) scope when `def` runs.
    for (auto& p : s.params) {
      if (p.kwargs) continue;
      cf->params.push_back(p.name);
      cf->defaults.push_back(p.default_value ? expr(*p.default_value) : nullptr);
      if (!p.keyword_only) cf->positional = int(cf->params.size());
    }
    std::map<std::string, int> locals;
    for (auto& p : s.params)
      if (!p.kwargs) locals.emplace(p.name, int(locals.size()));
    // `**kwargs` takes the slot after the named parameters, which call_function fills.
    for (auto& p : s.params)
      if (p.kwargs) cf->kwargs_slot = locals.emplace(p.name, int(locals.size())).first->second;
    NameSet assigned;
    writes_of(s.body, assigned);
    for (auto& n : assigned) {
      if (locals.count(n)) continue;
      locals.emplace(n, int(locals.size()));
    }
    cf->nlocals = int(locals.size());
    cf->local_names.resize(locals.size());
    for (auto& [n, k] : locals) cf->local_names[size_t(k)] = n;

    auto saved_levels = std::move(levels_);
    levels_.clear();
    int saved_loop = loop_depth_;
    loop_depth_ = 0;
    fn_ = cf.get();
    locals_ = std::move(locals);
    cf->body = block(s.body, nullptr);
    fn_ = nullptr;
    locals_.clear();
    loop_depth_ = saved_loop;
    levels_ = std::move(saved_levels);

    auto n = std::make_unique<DefStmt>(s.pos);
    n->target = {false, global_slot(s.name)};
    n->fn = cf.get();
    prog_->functions.push_back(std::move(cf));
    return n;
  }

  // Names read by anything that can run after the current statement of the
  // innermost level: later statements of each enclosing block, and whole
  // bodies of enclosing loops (their next iteration).
  NameSet reads_after() const {
    NameSet out;
    for (size_t l = levels_.size(); l-- > 0;) {
      const Level& lv = levels_[l];
      for (size_t k = lv.index + 1; k < lv.block->size(); ++k) reads_of(*(*lv.block)[k], out);
      if (lv.owner && lv.owner->kind == StmtKind::For) reads_of(lv.owner->body, out);
    }
    if (fn_) {
      // A function's locals die with it, but its globals may be read later by anyone.
      NameSet all;
      for (auto& [name, slot] : globals_) all.insert(name);
      for (auto& n : all)
        if (!locals_.count(n)) out.insert(n);
    }
    return out;
  }

  static bool has_direct_loop(const Block& body) {
    for (auto& st : body)
      if (st->kind == StmtKind::For) return true;
    return false;
  }

  SNodeP with(const Stmt& s) {
    auto n = std::make_unique<WithStmt>(s.pos);
    bool fuse = false, parallel = false;
    for (auto& item : s.items) {
      const BuiltinDef* def = nullptr;
      bool method = false;
      if (item->kind == ExprKind::Call) {
        NodeP callee = expr(*item->object);
        if (auto* c = dynamic_cast<ConstNode*>(callee.get()); c && c->v.tag == VT::Builtin) def = c->v.b;
        method = !def && item->object->kind == ExprKind::Attribute;
      }
      if (method) {
        // A tool's block (`with profiler.profile("x"):`): the call runs when
        // the `with` does and must give a block (tools.h).
        ScopeItem si;
        si.pos = item->pos;
        si.manager = expr(*item);
        n->items.push_back(std::move(si));
        continue;
      }
      if (!def || !def->scope)
        fail(item->pos, "'with' needs a pto scope: " + scope_listing() +
                            ", or a tool's block (profiler.profile(name), visualizer.trace(name), detector.monitor())");
      ScopeItem si;
      si.def = def;
      si.pos = item->pos;
      for (auto& k : item->keywords)
        if (!k.name.empty() && def->scope->check_keyword) def->scope->check_keyword(k.name, k.pos);
      if (has_splat(*item)) {
        si.dynamic = true;
        for (auto& a : item->items) si.pos_nodes.push_back(expr(*a));
        si.kw = keywords(*item);
      } else {
        bind_call(*item, *def, si.args, si.arg_pos, nullptr, si.extra_kw, si.extra_kw_nodes, si.extra_kw_pos);
      }
      if (def->scope->parallel_body && !has_direct_loop(s.body))
        fail(item->pos, "pto.parallel has no `for` loop directly inside its block: nothing would be spread over "
                        "the cores (put the loop whose iterations run in parallel directly under the `with`)");
      if (def->scope->needs_live_after) fuse = true;
      if (def->scope->frees_dead_values) n->auto_reuse = true;
      if (def->scope->parallel_body) parallel = true;
      n->items.push_back(std::move(si));
    }
    if (fuse || n->auto_reuse) {
      NameSet written, after, live;
      writes_of(s.body, written);
      after = reads_after();
      for (auto& w : written)
        if (after.count(w)) live.insert(w);
      for (auto& w : live) n->live_after.push_back(slot_of(w, s.pos));
      if (fuse)
        for (auto& w : written)
          if (!live.count(w)) n->fuse_dead.push_back(slot_of(w, s.pos));
      if (n->auto_reuse) {
        std::map<std::string, size_t> last_use;
        for (size_t k = 0; k < s.body.size(); ++k) {
          NameSet used;
          reads_of(*s.body[k], used);
          writes_of(*s.body[k], used);
          for (auto& u : used) last_use[u] = k;
        }
        n->dead_after.resize(s.body.size());
        for (auto& [name, k] : last_use)
          if (written.count(name) && !live.count(name)) n->dead_after[k].push_back(slot_of(name, s.pos));
      }
    }
    levels_.push_back({&s.body, 0, &s});
    for (size_t k = 0; k < s.body.size(); ++k) {
      levels_.back().index = k;
      parallel_body_ = parallel;
      n->body.stmts.push_back(stmt(*s.body[k]));
    }
    parallel_body_ = false;
    levels_.pop_back();
    return n;
  }

  // ---- expressions --------------------------------------------------------
  NodeP expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Int: return std::make_unique<ConstNode>(e.pos, Value::integer(e.ival));
      case ExprKind::Float: return std::make_unique<ConstNode>(e.pos, Value::number(e.fval));
      case ExprKind::Str: return std::make_unique<ConstNode>(e.pos, Value::str(e.name));
      case ExprKind::Bool: return std::make_unique<ConstNode>(e.pos, Value::boolean(e.ival != 0));
      case ExprKind::None: return std::make_unique<ConstNode>(e.pos, Value::none());
      case ExprKind::Name: return name(e);
      case ExprKind::Attribute: return attribute(e);
      case ExprKind::Call: return call(e);
      case ExprKind::Subscript: {
        switch (fast_rank(e)) {
          case 1: return fast_node<FastReadNode<1>>(e);
          case 2: return fast_node<FastReadNode<2>>(e);
          case 3: return fast_node<FastReadNode<3>>(e);
          case 4: return fast_node<FastReadNode<4>>(e);
          default: break;
        }
        auto n = std::make_unique<SubscriptNode>(e.pos);
        subscript(e, n->s);
        return n;
      }
      case ExprKind::Binary:
        return std::make_unique<BinaryNode>(e.pos, e.bop, expr(*e.items[0]), expr(*e.items[1]));
      case ExprKind::Unary: return std::make_unique<UnaryNode>(e.pos, e.uop, expr(*e.items[0]));
      case ExprKind::Compare: {
        auto n = std::make_unique<CompareNode>(e.pos);
        n->ops = e.cmps;
        for (auto& i : e.items) n->items.push_back(expr(*i));
        for (size_t k = 0; k < e.cmps.size(); ++k) n->op_pos.push_back(e.items[k]->pos);
        n->resolve();
        return n;
      }
      case ExprKind::And: case ExprKind::Or:
        return std::make_unique<LogicNode>(e.pos, e.kind == ExprKind::And, expr(*e.items[0]), expr(*e.items[1]));
      case ExprKind::List: case ExprKind::Tuple: {
        auto n = std::make_unique<SeqNode>(e.pos, e.kind == ExprKind::Tuple);
        for (auto& i : e.items) n->items.push_back(expr(*i));
        return n;
      }
      case ExprKind::IfElse:
        return std::make_unique<IfElseNode>(e.pos, expr(*e.items[0]), expr(*e.items[1]), expr(*e.items[2]));
      case ExprKind::Dict: {
        auto n = std::make_unique<DictNode>(e.pos);
        for (size_t k = 0; k + 1 < e.items.size(); k += 2) {
          n->keys.push_back(expr(*e.items[k]));
          n->values.push_back(expr(*e.items[k + 1]));
        }
        return n;
      }
      case ExprKind::Slice: fail(e.pos, "a slice is only allowed inside [ ]");
    }
    fail(e.pos, "unsupported expression");
  }

  NodeP name(const Expr& e) {
    Resolved r = resolve(e.name, e.pos);
    switch (r.kind) {
      case NameKind::Local: return std::make_unique<NameNode<true>>(e.pos, r.slot, e.name);
      case NameKind::Global: return std::make_unique<NameNode<false>>(e.pos, r.slot, e.name);
      case NameKind::Builtin: return std::make_unique<ConstNode>(e.pos, Value::builtin(r.builtin));
      case NameKind::PtoModule: return std::make_unique<ConstNode>(e.pos, Value::module(0));
    }
    fail(e.pos, "bad name");
  }

  // pto.X and pto.ref.X are resolved now, so a typo is reported before the run.
  NodeP attribute(const Expr& e) {
    NodeP obj = expr(*e.object);
    if (auto* c = dynamic_cast<ConstNode*>(obj.get()); c && c->v.tag == VT::Module) {
      bool ref = c->v.i == 1;
      if (!ref) {
        if (auto dt = exec::dtype_from_name(e.name)) return std::make_unique<ConstNode>(e.pos, Value::dtype(*dt));
        if (e.name == "ref") return std::make_unique<ConstNode>(e.pos, Value::module(1));
      }
      if (const BuiltinDef* d = ref ? find_pto_ref(e.name) : find_pto(e.name)) {
        if (!ref) prog_->pto_used.insert(e.name);
        return std::make_unique<ConstNode>(e.pos, Value::builtin(d));
      }
      if (!ref && (e.name == "float64" || e.name == "int64" || e.name == "int16" || e.name == "uint8" ||
                   e.name == "bool"))
        fail(e.pos, "unsupported dtype 'pto." + e.name +
                        "' (supported: pto.float32, pto.float16, pto.bfloat16, pto.int32, pto.int8)");
      fail(e.pos, std::string("unknown operation '") + (ref ? "pto.ref." : "pto.") + e.name + "'");
    }
    return std::make_unique<AttrNode>(e.pos, std::move(obj), e.name);
  }

  void bind_call(const Expr& e, const BuiltinDef& def, std::vector<NodeP>& args, std::vector<Pos>& arg_pos,
                 std::vector<NodeP>* rest, std::vector<std::string>& extra_kw, std::vector<NodeP>& extra_nodes,
                 std::vector<Pos>& extra_pos) {
    std::vector<std::string> kw_names;
    std::vector<Pos> kw_pos;
    for (auto& k : e.keywords) {
      kw_names.push_back(k.name);
      kw_pos.push_back(k.pos);
    }
    if (!rest && def.variadic && e.items.size() > def.params.size())
      fail(e.pos, def.name + "() takes " + std::to_string(def.params.size()) + " arguments");
    ArgBinding b = bind_args(def, int(e.items.size()), kw_names, kw_pos, e.pos);
    args.resize(def.params.size());
    arg_pos.assign(def.params.size(), Pos{});
    for (int k = 0; k < b.npos; ++k) {
      args[size_t(k)] = expr(*e.items[size_t(k)]);
      arg_pos[size_t(k)] = e.items[size_t(k)]->pos;
    }
    if (rest)
      for (size_t k = size_t(b.npos); k < e.items.size(); ++k) rest->push_back(expr(*e.items[k]));
    for (size_t k = 0; k < e.keywords.size(); ++k) {
      if (b.kw_slot[k] < 0) {
        extra_kw.push_back(e.keywords[k].name);
        extra_nodes.push_back(expr(*e.keywords[k].value));
        extra_pos.push_back(e.keywords[k].pos);
      } else {
        args[size_t(b.kw_slot[k])] = expr(*e.keywords[k].value);
        arg_pos[size_t(b.kw_slot[k])] = e.keywords[k].value->pos;
      }
    }
  }

  static bool has_splat(const Expr& call) {
    for (auto& k : call.keywords)
      if (k.name.empty()) return true;
    return false;
  }
  static bool is_module(const NodeP& n) {
    auto* c = dynamic_cast<ConstNode*>(n.get());
    return c && c->v.tag == VT::Module;
  }
  KeywordNodes keywords(const Expr& call) {
    KeywordNodes kw;
    for (auto& k : call.keywords) {
      kw.names.push_back(k.name);
      kw.nodes.push_back(expr(*k.value));
      kw.pos.push_back(k.pos);
    }
    return kw;
  }

  NodeP call(const Expr& e) {
    if (e.object->kind == ExprKind::Attribute) {
      NodeP obj = expr(*e.object->object);
      if (!is_module(obj)) {
        auto n = std::make_unique<MethodCallNode>(e.pos, std::move(obj), e.object->name);
        for (auto& a : e.items) n->args.push_back(expr(*a));
        n->kw = keywords(e);
        return n;
      }
    }
    NodeP callee = expr(*e.object);
    auto* builtin = dynamic_cast<ConstNode*>(callee.get());
    if (builtin && builtin->v.tag == VT::Builtin && builtin->v.b->scope)
      fail(e.pos, builtin->v.b->name + "(...) is a scope: use it as `with " + builtin->v.b->name + "(...):`");
    // `f(**d)`: the keywords are known only at run time, so they are bound then.
    if (!has_splat(e) && builtin && builtin->v.tag == VT::Builtin) {
      const BuiltinDef* def = builtin->v.b;
      auto n = std::make_unique<CallBuiltinNode>(e.pos, def);
      bind_call(e, *def, n->args, n->arg_pos, &n->rest, n->extra_kw, n->extra_kw_nodes, n->extra_kw_pos);
      return n;
    }
    auto n = std::make_unique<CallNode>(e.pos, std::move(callee));
    for (auto& a : e.items) n->args.push_back(expr(*a));
    n->kw = keywords(e);
    return n;
  }

  // N when `e` is NAME[NAME, ..., NAME] with N <= 4 names bound to slots.
  int fast_rank(const Expr& e) {
    if (e.object->kind != ExprKind::Name || e.items.empty() || e.items.size() > 4) return 0;
    if (slot_kind(*e.object) == 0) return 0;
    for (auto& i : e.items)
      if (i->kind != ExprKind::Name || slot_kind(*i) == 0) return 0;
    return int(e.items.size());
  }
  // 0: not a slot, 1: global, 2: local
  int slot_kind(const Expr& n) {
    Resolved r = resolve(n.name, n.pos);
    return r.kind == NameKind::Global ? 1 : r.kind == NameKind::Local ? 2 : 0;
  }
  template <class FE>
  void fill_fast(const Expr& e, FE& fe) {
    Resolved o = resolve(e.object->name, e.object->pos);
    fe.obj_local = o.kind == NameKind::Local;
    fe.obj_slot = o.slot;
    for (size_t k = 0; k < e.items.size(); ++k) {
      Resolved r = resolve(e.items[k]->name, e.items[k]->pos);
      fe.local[k] = r.kind == NameKind::Local;
      fe.slot[k] = r.slot;
    }
  }
  template <class NodeT>
  NodeP fast_node(const Expr& e) {
    auto n = std::make_unique<NodeT>(e.pos);
    subscript(e, n->s);
    fill_fast(e, n->fe);
    return n;
  }
  // `T[...] op= rhs` with T's indices plain variables; `T[...] += A[...] *
  // B[...]` with every index so, of the same rank: FastMacStmt.
  template <int N>
  SNodeP fast_aug(const Stmt& st) {
    const Expr& v = *st.value;
    auto fast_read = [&](const Expr& x) { return x.kind == ExprKind::Subscript && fast_rank(x) == N; };
    if (st.bop == BinOp::Add && v.kind == ExprKind::Binary && v.bop == BinOp::Mul && fast_read(*v.items[0]) &&
        fast_read(*v.items[1])) {
      auto n = fast_aug_node<FastMacStmt<N>>(st);
      auto* product = dynamic_cast<BinaryNode*>(n->value.get());
      n->a = product ? dynamic_cast<FastReadNode<N>*>(product->l.get()) : nullptr;
      n->b = product ? dynamic_cast<FastReadNode<N>*>(product->r.get()) : nullptr;
      if (!n->a || !n->b) throw std::logic_error("FastMacStmt: expr() no longer makes a BinaryNode of FastReadNodes");
      return n;
    }
    return fast_aug_node<FastAugStmt<N>>(st);
  }
  template <class StmtT>
  std::unique_ptr<StmtT> fast_aug_node(const Stmt& st) {
    auto n = std::make_unique<StmtT>(st.pos);
    subscript(*st.target, n->s);
    fill_fast(*st.target, n->fe);
    n->op = st.bop;
    n->value = expr(*st.value);
    return n;
  }

  void subscript(const Expr& e, Subscript& s) {
    s.obj = expr(*e.object);
    s.pos = e.pos;
    if (e.object->kind == ExprKind::Name) {
      Resolved r = resolve(e.object->name, e.object->pos);
      if (r.kind == NameKind::Local) s.obj_kind = IndexSrc::Local, s.obj_slot = r.slot;
      if (r.kind == NameKind::Global) s.obj_kind = IndexSrc::Global, s.obj_slot = r.slot;
    }
    if (e.items.size() > 8) fail(e.pos, "too many indices (at most 8 dimensions)");
    for (auto& it : e.items) {
      IndexSrc src;
      src.pos = it->pos;
      if (it->kind == ExprKind::Slice) {
        src.kind = IndexSrc::Slice;
        s.has_slice = true;
        if (it->items[0]) src.start = expr(*it->items[0]);
        if (it->items[1]) src.stop = expr(*it->items[1]);
        if (it->items[2]) src.step = expr(*it->items[2]);
      } else if (it->kind == ExprKind::Int) {
        src.kind = IndexSrc::Const;
        src.c = it->ival;
        src.node = expr(*it);
      } else {
        src.node = expr(*it);
        if (it->kind == ExprKind::Name) {
          Resolved r = resolve(it->name, it->pos);
          if (r.kind == NameKind::Local) src.kind = IndexSrc::Local, src.slot = r.slot;
          if (r.kind == NameKind::Global) src.kind = IndexSrc::Global, src.slot = r.slot;
        }
      }
      s.idx.push_back(std::move(src));
    }
  }

  std::unique_ptr<Program> prog_;
  std::map<std::string, int> globals_;
  std::map<std::string, int> locals_;
  CompiledFunction* fn_ = nullptr;
  std::vector<Level> levels_;
  int loop_depth_ = 0;
  // `break` and `return` statements compiled so far: a range loop whose body
  // has none runs every iteration (ForRangeStmt::can_leave).
  uint64_t exits_ = 0;
  bool parallel_body_ = false;
  bool flat_loops_;
};

}  // namespace

std::unique_ptr<Program> compile_program(const Module& m, bool flat_loops) { return Compiler(flat_loops).run(m); }

}  // namespace ptosim::frontend
