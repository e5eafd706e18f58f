#pragma once
// Dinero IV's prefetch policies (`-lN-Tfetch a|m|t|l|s`, ref.c's
// d4prefetch_*): each proposes one sub-block, `prefetch_distance`
// sub-blocks after the demand read's (Dinero: the sub-block of address +
// pfdist x sub-block size; without sub-blocks a sub-block is the line), and
// only the condition (When) and where the proposal may go (Where) differ.
#include "models/cache/prefetch/prefetcher.h"

namespace ptosim::prefetch {

// Where: the sub-block `target` (= r.subblock + distance) proposed for a
// read in the line of sub-block `from` with `per_line` sub-blocks per line;
// false for none.
inline bool anywhere(uint64_t, uint64_t*, uint32_t) { return true; }

template <bool (*When)(const DemandRead&), bool (*Where)(uint64_t from, uint64_t* target, uint32_t per_line) = anywhere>
class DineroFetch final : public Prefetcher {
 public:
  explicit DineroFetch(const PrefetchConfig& c) : distance_(c.distance), per_line_(c.subblocks ? c.subblocks : 1) {}
  uint32_t on_read(const DemandRead& r, uint64_t* out) override {
    if (!When(r)) return 0;
    out[0] = r.subblock + distance_;
    return Where(r.subblock, &out[0], per_line_) ? 1 : 0;
  }
  bool proposes_subblocks() const override { return true; }

 private:
  uint64_t distance_;
  uint32_t per_line_;
};

template <bool (*When)(const DemandRead&), bool (*Where)(uint64_t, uint64_t*, uint32_t) = anywhere>
std::unique_ptr<Prefetcher> make_dinero_fetch(const PrefetchConfig& c) {
  return std::make_unique<DineroFetch<When, Where>>(c);
}

inline bool every_read(const DemandRead&) { return true; }

}  // namespace ptosim::prefetch
