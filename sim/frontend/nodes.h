#pragma once
// The executable form of a program: a tree of compiled nodes (closures)
// whose names are already resolved to slots. Expression nodes return Values;
// statement nodes return how control leaves them.
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "sim/common/run_control.h"
#include "sim/exec/exec_context.h"
#include "sim/exec/pto_op.h"
#include "sim/exec/run_figures.h"
#include "sim/frontend/ast.h"
#include "sim/frontend/errors.h"
#include "sim/frontend/value.h"
#include "sim/trace/chunk_ring.h"

namespace ptosim::frontend {

struct Interp;
class InductionProbe;

struct Frame {
  Interp* in;
  Value* globals;
  Value* locals;  // == globals at top level
  Value ret;
};

struct Node {
  Pos pos;
  explicit Node(Pos p) : pos(p) {}
  virtual ~Node() = default;
  virtual Value eval(Frame& f) = 0;
  // Index arithmetic is the hot path of naive kernels: nodes that know they
  // produce an int override this to skip building a Value.
  virtual int64_t eval_int(Frame& f);
  virtual bool eval_bool(Frame& f);
  // An int without building a Value (conv2d's `h_in = h_out * STRIDE - PAD +
  // hh` and `0 <= h_in < H` per multiply-add): true with the value and its
  // token when the node is an int, false when it is not (then eval() gives
  // the value or the error). Only nodes free of side effects override it,
  // so a caller may evaluate the node again after a false.
  virtual bool pure_int(Frame&, int64_t*, uint32_t*) { return false; }
  // Name nodes hand out their slot, so reading a tensor costs no refcount.
  virtual const Value* peek(Frame&) { return nullptr; }
};
using NodeP = std::unique_ptr<Node>;

enum class Flow : uint8_t { Normal, Break, Continue, Return };

struct SNode {
  Pos pos;
  // Its line's site id and position, as the executor tags events with them
  // (filled on the first run: BlockNode::exec).
  exec::ExecContext::Statement stmt;
  explicit SNode(Pos p) : pos(p) {}
  virtual ~SNode() = default;
  virtual Flow exec(Frame& f) = 0;
};
using SNodeP = std::unique_ptr<SNode>;

struct BlockNode {
  std::vector<SNodeP> stmts;
  Flow exec(Frame& f) const;
};

struct CompiledFunction {
  std::string name;
  Pos pos;
  std::vector<std::string> params;  // named parameters (not the `**kwargs` one), in order
  int positional = 0;               // params[0..positional) may be given by position; the rest are keyword-only
  int kwargs_slot = -1;             // local slot of `**kwargs`, or -1
  std::vector<NodeP> defaults;  // one per param; null when required
  int nlocals = 0;
  std::vector<std::string> local_names;
  BlockNode body;
};

struct FuncObj : Obj {
  const CompiledFunction* fn = nullptr;
  std::vector<Value> defaults;  // evaluated when `def` runs, as in Python
};
inline FuncObj* Value::as_func() const { return static_cast<FuncObj*>(o); }

// Arguments of a builtin call, laid out by parameter index. Absent optional
// arguments are Undef.
struct Args {
  Value* v = nullptr;
  const Pos* arg_pos = nullptr;
  int n = 0;
  std::vector<Value> rest;                                  // variadic extras
  std::vector<std::pair<std::string, Value>> extra_kw;      // builtins taking **kwargs
  std::vector<Pos> extra_kw_pos;
  Pos pos;  // the call
  bool has(int k) const { return v[k].tag != VT::Undef && v[k].tag != VT::None; }
  const Value& operator[](int k) const { return v[k]; }
  Pos at(int k) const { return arg_pos[k].line ? arg_pos[k] : pos; }
};

using BuiltinFn = Value (*)(Interp& in, Args& a);

struct BuiltinDef {
  std::string name;  // as the user writes it: "min", "pto.matmul"
  std::vector<std::string> params;
  int required = 0;
  bool variadic = false;    // extra positionals go to Args::rest
  bool any_kwargs = false;  // unknown keywords go to Args::extra_kw
  int positional = -1;      // params fillable by position (-1 = all); the rest are keyword-only
  BuiltinFn fn = nullptr;
  // A registered op (sim/exec/pto_op.h), called instead of fn with the
  // arguments as exec::OpArgs.
  exec::PtoOpFn run = nullptr;
  std::string about;  // one line for docs/LANGUAGE.md's table (`pto-sim schema --pto-ops`)
  const struct ScopeDef* scope = nullptr;  // set: only valid as a `with` item (scopes.h)
  // Checking, not kernel work (pto.check, pto.output, pto.ref.*): scalar
  // arithmetic in its arguments (an `atol=1e-5 * K`) costs no flops.
  bool free_of_cost = false;
  // A pto op (pto.load, pto.matmul, ...): its events are the op's own
  // (ExecContext::OpCall), a slice of the timeline.
  bool op = false;
};


// Looks up `min`, `print`, ... and `pto.X` / `pto.ref.X`; null when unknown.
const BuiltinDef* find_builtin(const std::string& name);
const BuiltinDef* find_pto(const std::string& name);
const BuiltinDef* find_pto_ref(const std::string& name);
// Names of everything under pto. (for "did you mean" style messages).
std::vector<std::string> pto_names();
// Every callable under pto. and pto.ref. (not the scopes), in name order:
// the source of docs/LANGUAGE.md's table of ops.
std::vector<const BuiltinDef*> pto_callables();
// Calls a builtin: its fn, or a registered op's run through exec::OpArgs.
Value call_builtin(const BuiltinDef& def, Interp& in, Args& a);

// Maps call-site arguments to parameter slots. Throws ProgramError with the
// position of the offending argument.
struct ArgBinding {
  std::vector<int> kw_slot;  // per keyword: param index, or -1 = extra kw
  int npos = 0;
};
ArgBinding bind_args(const BuiltinDef& def, int npos, const std::vector<std::string>& kw_names,
                     const std::vector<Pos>& kw_pos, Pos call_pos);

struct Interp {
  exec::ExecContext& ctx;
  const Source& src;
  std::ostream& out;
  uint64_t steps = 0;       // loop iterations + calls: the budget of pure-compute loops
  uint64_t step_limit = 0;
  int depth = 0;            // user function call depth
  std::vector<Value> globals;
  std::vector<std::pair<std::string, Value>> bound_params;  // ParamStmt records its final value
  Pos at;  // the statement being executed (BlockNode), for --check-data's positions
  // The loop learning its induction streams (one at a time) and the
  // addresses of its first two iterations (induction_streams.h).
  InductionProbe* learning_loop = nullptr;
  std::vector<uint64_t> capture[2];

  std::ostream* warnings = nullptr;  // `file:line:col: warning: ...` lines; null = std::cerr
  // The article's tools (tools.h): the simulation's figures so far (null:
  // nothing is simulated), the side model of a CacheSimulator, and the
  // pictures a MemoryVisualizer asked for.
  std::function<exec::RunFigures()> figures;
  exec::CacheModelFactory cache_model;
  std::vector<ProgramResult::Picture> pictures;

  Interp(exec::ExecContext& c, const Source& s, std::ostream& o) : ctx(c), src(s), out(o) {}
  // A construct that ran but did nothing it asked for (a pto.reuse with no hit).
  void warn(Pos p, const std::string& message) const;
  [[noreturn]] void step_limit_hit(Pos pos) const;
  SourcePos source_pos(Pos p) const { return SourcePos{src.path(), p.line, p.col}; }
};

// One loop iteration or call: the step limit, and a stop. The sink sees a
// stop (Ctrl-C) at its next access; a loop that emits none would run on (up
// to the step limit, ~20 s) now that the interpreter shares the
// simulation's thread by default. Every 2^20 steps (~10 ms) it unwinds here
// as it would there.
inline void take_step(Interp& in, Pos pos) {
  if (__builtin_expect(++in.steps > in.step_limit, 0)) in.step_limit_hit(pos);
  if (__builtin_expect((in.steps & 0xFFFFF) == 0, 0) && run_control::stop_signal() != 0) throw pipe::Abandoned();
}

// Scalar/tensor semantics shared by the nodes (arith.cpp).
Value binary_op(Interp& in, BinOp op, const Value& a, const Value& b, Pos pos);
Value unary_op(Interp& in, UnOp op, const Value& a, Pos pos);
bool compare_op(CmpOp op, const Value& a, const Value& b, Pos pos);
bool truthy(const Value& v, Pos pos);
// Binds evaluated arguments to def's parameters (as bind_args does at
// compile time); the Args point into vals and apos.
Args bind_values(const BuiltinDef& def, std::vector<Value>& pos_args, const std::vector<std::string>& kw_names,
                 std::vector<Value>& kw_vals, const std::vector<Pos>& kw_pos, Pos call_pos, std::vector<Value>& vals,
                 std::vector<Pos>& apos);
// The canonical text of a dict key (1, 1.0 and True are one key, as in
// Python); an unhashable key (list, dict, tensor) is an error at pos.
std::string dict_key(const Value& key, Pos pos);
// `obj.name(args)` for dicts (get, items, keys, values), lists (append) and
// tensors (assign); false when obj has no such method.
bool call_method(Interp& in, const Value& obj, const std::string& name, std::vector<Value>& args,
                 const std::vector<std::string>& kw_names, std::vector<Value>& kw_vals, Pos pos, Value& result);
// Calls a function or builtin value with already evaluated arguments.
Value call_value(Interp& in, const Value& callee, std::vector<Value>& pos_args,
                 const std::vector<std::string>& kw_names, std::vector<Value>& kw_vals,
                 const std::vector<Pos>& kw_pos, Pos call_pos);
Value call_function(Interp& in, FuncObj* fn, std::vector<Value>& pos_args,
                    const std::vector<std::string>& kw_names, std::vector<Value>& kw_vals, Pos call_pos);
// obj.name at run time (tensor attributes, pto.X on a module value).
Value get_attribute(Interp& in, const Value& obj, const std::string& name, Pos pos);

// Conversions used by the builtins; each fails with a message at pos.
int64_t to_int(const Value& v, Pos pos, const char* what);
double to_double(const Value& v, Pos pos, const char* what);
exec::Shape to_shape(const Value& v, Pos pos, const char* what);
const exec::Tensor& to_tensor(const Value& v, Pos pos, const char* what);
std::string to_string_arg(const Value& v, Pos pos, const char* what);

// Runs `body` and turns executor errors into program errors at pos.
template <class F>
auto at_pos(Pos pos, F&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const exec::OpError& e) {
    fail(pos, e.what());
  }
}

}  // namespace ptosim::frontend
