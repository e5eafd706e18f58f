#pragma once
// Dinero IV's prefetch policies (`-lN-Tfetch a|m|t`, ref.c) without
// sub-blocks: each proposes the one line `prefetch_distance` lines after the
// demand read's (Dinero: the sub-block of address + pfdist x sub-block
// size; a sub-block is the whole block here), and only the condition differs.
// `load_forward` and `subblock` act within a block's sub-blocks, which
// pto-sim does not model, so they are not offered.
#include "models/cache/prefetch/prefetcher.h"

namespace ptosim::prefetch {

template <bool (*When)(const DemandRead&)>
class DineroFetch final : public Prefetcher {
 public:
  explicit DineroFetch(const PrefetchConfig& c) : distance_(c.distance) {}
  uint32_t on_read(const DemandRead& r, uint64_t* out) override {
    if (!When(r)) return 0;
    out[0] = r.line + distance_;
    return 1;
  }

 private:
  uint64_t distance_;
};

template <bool (*When)(const DemandRead&)>
std::unique_ptr<Prefetcher> make_dinero_fetch(const PrefetchConfig& c) {
  return std::make_unique<DineroFetch<When>>(c);
}

}  // namespace ptosim::prefetch
