#pragma once
// The seam for a new PTO op (docs/ARCHITECTURE.md, "Add a PTO op"): an op is
// written, declared and bound in ONE file, its family's sim/exec/<family>.cpp,
// which ends with
//   PTOSIM_REGISTER(PtoOpConcept, Name, "name", 0, "what it does and its events",
//                   pto_op({"param", ...}, required, run_name));
// The interpreter binds every registered op under `pto.` (sim/frontend), and
// docs/LANGUAGE.md's table of ops is generated from the same registrations.
//
// Why here, below the frontend: the executor may not include the language
// (the include_rules test), so the little a binding needs of the language —
// each argument as a tensor, number, integer, string, shape or flag, and an
// error at the argument's position — is this abstract OpArgs, which the
// frontend implements over its own values. The op's family file then needs
// nothing from sim/frontend, and adding an op edits no list of the others.
//
// Contract: `run` reads its arguments through OpArgs by parameter index (the
// accessors raise the program's error at that argument), computes the values
// and emits the events with the helpers of sim/exec/emit.h, charges its flops
// with ExecContext::compute, throws OpError for a bad combination of
// arguments (reported at the call), and returns the result tensor, or a
// default Tensor for an op with no result (None in the program). The op runs
// as a pto op: its events are its own slice of the timeline.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/common/registry.h"
#include "sim/exec/exec_context.h"
#include "sim/exec/tensor.h"

namespace ptosim {
namespace concepts {
inline constexpr char kPtoOp[] = "pto op";
}  // namespace concepts

namespace exec {

// One call's arguments, laid out by parameter index; an optional parameter
// the call omitted (or passed None) is !has(k). Every accessor fails with the
// program's error, at the argument, when the value is of another type.
class OpArgs {
 public:
  virtual bool has(int k) const = 0;
  virtual const Tensor& tensor(int k, const char* what) const = 0;
  virtual double number(int k, const char* what) const = 0;
  virtual int64_t integer(int k, const char* what) const = 0;
  virtual std::string text(int k, const char* what) const = 0;
  virtual Shape shape(int k, const char* what) const = 0;  // an integer or a list of integers
  virtual bool flag(int k) const = 0;                      // Python truthiness
  [[noreturn]] virtual void fail(int k, const std::string& message) const = 0;

  // An optional argument, or its default.
  int64_t integer_or(int k, int64_t dflt, const char* what) const { return has(k) ? integer(k, what) : dflt; }
  double number_or(int k, double dflt, const char* what) const { return has(k) ? number(k, what) : dflt; }
  std::string text_or(int k, const std::string& dflt, const char* what) const { return has(k) ? text(k, what) : dflt; }

 protected:
  ~OpArgs() = default;
};

using PtoOpFn = Tensor (*)(ExecContext& c, const OpArgs& a);

struct PtoOp {
  std::vector<std::string> params;  // keyword names, in positional order
  int required = 0;                 // how many leading params must be given
  PtoOpFn run = nullptr;
};

// The registration's factory, in parentheses so that its commas stay one
// argument of PTOSIM_REGISTER.
inline PtoOp pto_op(std::vector<std::string> params, int required, PtoOpFn run) {
  return PtoOp{std::move(params), required, run};
}

struct PtoOpConcept {
  using Factory = PtoOp;
  static constexpr const char* kKind = concepts::kPtoOp;
};

}  // namespace exec
}  // namespace ptosim
