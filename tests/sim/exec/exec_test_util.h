#pragma once
// Shared fixtures for the executor tests: a small config and a recording sink.
#include <gtest/gtest.h>

#include <vector>

#include "sim/exec/exec_context.h"
#include "sim/exec/ops.h"

namespace ptosim::test {
// The executor's tests once lived in its namespace; they still name its types unqualified.
using namespace ptosim::exec;

inline HwConfig small_config(uint64_t shared_size = 64 * 1024, uint64_t reg_size = 64 * 1024) {
  HwConfig c;
  c.core.vector_bytes = 32;
  CacheConfig l1;
  l1.name = "L1"; l1.size = 32 * 1024; l1.ways = 8; l1.line = 64;
  c.caches.push_back(l1);
  MemoryConfig smem; smem.name = "smem"; smem.kind = MemoryKind::Scratchpad; smem.size = shared_size;
  MemoryConfig regs; regs.name = "regs"; regs.kind = MemoryKind::Register; regs.size = reg_size;
  MemoryConfig cmem; cmem.name = "cmem"; cmem.kind = MemoryKind::Constant; cmem.size = 64 * 1024; cmem.read_only = true;
  c.memories = {smem, regs, cmem};
  c.spaces = {{"global", "L1"}, {"shared", "smem"}, {"register", "regs"}, {"constant", "cmem"}};
  return c;
}

struct Recorder : EventSink {
  std::vector<Access> acc;
  std::vector<Compute> comp;
  void access(const Access& a) override { acc.push_back(a); }
  void compute(const Compute& c) override { comp.push_back(c); }
  uint64_t count(SpaceId s, AccessKind k) const {
    uint64_t n = 0;
    for (auto& a : acc) n += a.space == s && a.kind == k;
    return n;
  }
  uint64_t bytes(SpaceId s, AccessKind k, TagId tag = 0) const {
    uint64_t n = 0;
    for (auto& a : acc)
      if (a.space == s && a.kind == k && (tag == 0 || a.tensor == tag)) n += a.bytes;
    return n;
  }
  void clear() { acc.clear(); comp.clear(); }
};

inline Tensor make(ExecContext& c, const std::string& name, Shape shape, const std::string& init = "random",
                   uint64_t seed = 1, const std::string& memory = "", DType dt = DType::F32, Layout lay = {}) {
  TensorSpec s;
  s.name = name; s.shape = std::move(shape); s.init = init; s.seed = seed; s.memory = memory; s.dtype = dt;
  s.layout = lay;
  return c.create(s);
}

inline IndexItem sl(int64_t a, int64_t b) { return IndexItem::slice(a, b); }

// pto.matmul under pto.tile(M=tm, N=tn, K=tk), its result named "C".
inline Tensor tiled_matmul(ExecContext& c, const Tensor& a, const Tensor& b, int64_t tm, int64_t tn, int64_t tk) {
  TileDirective td;
  td.sizes = {{"M", tm}, {"N", tn}, {"K", tk}};
  c.tile_push(td);
  c.set_result_name("C");
  Tensor out = matmul(c, a, b);
  c.set_result_name("");
  c.tile_pop();
  return out;
}

}  // namespace ptosim::test
