#pragma once
// How many induction registers a compiled innermost loop steps each
// iteration, learnt from the addresses of its first two iterations: the
// `cpu` core counts one instruction per stream past the first (the
// counter) on top of `loop_uops` (docs/TIMING.md, "Loop overhead"). A
// compiler's strength reduction keeps one pointer or index per distinct
// stride: the native kernels of bench/fidelity, at -O2, step one register
// in the tiled ikj loop (`C[i, j] += a * B[k, j]`: B and C at +4 B share an
// index) and two in the register-accumulator loop (`acc += A[i, k] *
// B[k, j]`: +4 B and +N x 4 B), the instructions the model lacked when it
// ranked those tiles 4th-5th instead of 11th-12th.
#include <cstdint>
#include <vector>

namespace ptosim::frontend {

struct Interp;

// The distinct non-zero differences between the i-th addresses of two
// consecutive iterations, at least 1; 1 when the iterations made different
// numbers of accesses (a branch: no common pattern) or none.
uint32_t induction_streams(const std::vector<uint64_t>& first, const std::vector<uint64_t>& second);

// A loop's learning of its streams while it runs (dataflow only: with
// another core model it does nothing). Call before_iteration() before each
// iteration's loop event and after_iteration() after its body; streams()
// is 1 until two iterations without a loop inside them were seen. One loop
// learns at a time: a loop that starts inside a learning one ends that
// one's learning (it is not innermost).
class InductionProbe {
 public:
  explicit InductionProbe(Interp& in);
  ~InductionProbe() { finish(); }
  InductionProbe(const InductionProbe&) = delete;
  InductionProbe& operator=(const InductionProbe&) = delete;

  // Inline: most loops do not learn (another core model, or not innermost),
  // and conv2d's 3-trip kernel loops pay these twice an iteration.
  void before_iteration() {
    if (learning_ >= 0) capture();
  }
  void after_iteration() {
    if (learning_ >= 0) learn();
  }
  uint32_t streams() const { return streams_; }

 private:
  void capture();
  void learn();
  void finish();
  Interp& in_;
  uint64_t loops_before_ = 0;
  int learning_ = -1;  // the iteration being captured (0, 1); -1: not learning
  uint32_t streams_ = 1;
};

}  // namespace ptosim::frontend
