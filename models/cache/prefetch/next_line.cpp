// Next-line prefetching as CPUs' L1s do it (ChampSim's next_line, with a
// degree): every demand read of line L proposes L + distance ...
// L + distance + degree - 1. With degree 1 it is Dinero IV's `always`.
#include "models/cache/prefetch/prefetcher.h"

namespace ptosim::prefetch {
namespace {

class NextLine final : public Prefetcher {
 public:
  explicit NextLine(const PrefetchConfig& c) : distance_(c.distance), degree_(c.degree) {}
  uint32_t on_read(const DemandRead& r, uint64_t* out) override {
    for (uint32_t i = 0; i < degree_; ++i) out[i] = r.line + distance_ + i;
    return degree_;
  }

 private:
  uint64_t distance_;
  uint32_t degree_;
};

}  // namespace

PTOSIM_REGISTER(PrefetcherConcept, NextLine, "next_line", 6,
                "ChampSim's next_line: the degree lines from line + distance on every read (degree 1 = always)",
                make_from_config<NextLine>);

}  // namespace ptosim::prefetch
