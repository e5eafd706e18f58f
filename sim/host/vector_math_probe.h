#pragma once
// How long this host's vector unit takes to run exp and GELU (vector_math.h)
// over data in L1, for `config host --measure`: a transcendental op's cost in
// pto-sim is the time of such a sequence, and it differs by core far more
// than an FMA does (2 vs 4 vector pipes, a divider of 5 or 16 cycles a
// vector). The op table's defaults (sim/exec/op_table.h) count the
// sequence's instructions at two a cycle; a host's config says what its core
// really does.
namespace ptosim::host {

struct VectorMathTimes {
  int vector_bytes = 0;                    // the width the sequences ran at (0: not measured)
  double exp_ns = 0, gelu_ns = 0;          // per element, the best of interleaved rounds
};

// Runs the sequences at `vector_bytes` (64 AVX-512, 32 AVX2+FMA, 16 SSE) when
// the CPU has that extension, else at the widest it has.
VectorMathTimes measure_vector_math(int vector_bytes);

}  // namespace ptosim::host
