#pragma once
// The seam for a new PTO op (docs/ARCHITECTURE.md, "Add a PTO op"): its
// binding is registered by name beside its implementation with
// PTOSIM_REGISTER(PtoOpConcept, ...), as the models' choices are, instead
// of a row in pto_bindings.cpp's table, so adding an op touches no file
// that lists the others. The registered ops join the `pto.` namespace the
// first time a program is compiled; a name that is already a built-in is
// refused then (a logic error: two ops would answer one call).
//
// Contract: `fn` unpacks Args with the to_* helpers of nodes.h (which raise
// the program's error at the argument's position), calls the executor
// (sim/exec) for the values and the events, and returns the result. The op
// runs as a pto op: its events are its own slice of the timeline.
#include <string>
#include <vector>

#include "sim/common/registry.h"
#include "sim/frontend/nodes.h"

namespace ptosim {
namespace concepts {
inline constexpr char kPtoOp[] = "pto op";
}  // namespace concepts

namespace frontend {

struct PtoOpBinding {
  std::vector<std::string> params;  // keyword names, in positional order
  int required = 0;                 // how many leading params must be given
  BuiltinFn fn = nullptr;
};

struct PtoOpConcept {
  using Factory = PtoOpBinding;
  static constexpr const char* kKind = concepts::kPtoOp;
};

}  // namespace frontend
}  // namespace ptosim
