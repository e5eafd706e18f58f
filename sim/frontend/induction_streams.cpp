#include "sim/frontend/induction_streams.h"

#include <algorithm>

#include "sim/frontend/nodes.h"

namespace ptosim::frontend {

uint32_t induction_streams(const std::vector<uint64_t>& first, const std::vector<uint64_t>& second) {
  if (first.empty() || first.size() != second.size()) return 1;
  std::vector<uint64_t> d;
  for (size_t i = 0; i < first.size(); ++i)
    if (second[i] != first[i]) d.push_back(second[i] - first[i]);
  std::sort(d.begin(), d.end());
  const size_t distinct = size_t(std::unique(d.begin(), d.end()) - d.begin());
  return uint32_t(std::max<size_t>(1, distinct));
}

InductionProbe::InductionProbe(Interp& in) : in_(in) {
  if (!in.ctx.dataflow()) return;
  if (in.learning_loop) in.learning_loop->finish();
  in.learning_loop = this;
  in.capture[0].clear();
  in.capture[1].clear();
  learning_ = 0;
}

void InductionProbe::capture() {
  in_.ctx.capture_addresses(&in_.capture[learning_]);
  loops_before_ = in_.ctx.loop_iterations();
}

void InductionProbe::learn() {
  // More than this loop's own iteration event: a loop ran inside (and
  // ended this one's learning already; the count says so for certain).
  if (in_.ctx.loop_iterations() != loops_before_ + 1) return finish();
  if (learning_ == 0) {
    learning_ = 1;
    return;
  }
  streams_ = induction_streams(in_.capture[0], in_.capture[1]);
  finish();
}

void InductionProbe::finish() {
  if (learning_ < 0) return;
  learning_ = -1;
  in_.ctx.capture_addresses(nullptr);
  if (in_.learning_loop == this) in_.learning_loop = nullptr;
}

}  // namespace ptosim::frontend
