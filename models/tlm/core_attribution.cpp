// CoreModule's attribution hooks (core_module.h, docs/ATTRIBUTION.md):
// accesses and compute events cut into runs of one site, region and core
// at time-epoch ends, and the names and marks the stream sends.
#include "models/attribution/attribution.h"
#include "models/tlm/core_attributed.h"
#include "models/tlm/core_module.h"

namespace ptosim {

using sc_core::sc_time;

void CoreModule::accesses_attributed(const Access* a, size_t n) {
  size_t i = 0;
  while (i < n) {
    const Access& h = a[i];
    CoreClock& k = clock(h.core);
    attr_->close_epochs(k.issue_at);
    const size_t limit = size_t(std::min<uint64_t>(n - i, std::max<uint64_t>(attr_->events_left(), 1)));
    // Parallel sections take the queue; elsewhere the stream stays on one
    // core (a trace that switches cores without barriers has its other
    // cores' events counted, but their cycles not), so region and site cut.
    const uint32_t key = site_and_region(h);
    size_t j = 1;
    // Four at a time first: this scan is most of what attribution costs per access.
    const Access* b = a + i;
    while (j + 4 <= limit && ((site_and_region(b[j]) ^ key) | (site_and_region(b[j + 1]) ^ key) |
                              (site_and_region(b[j + 2]) ^ key) | (site_and_region(b[j + 3]) ^ key)) == 0)
      j += 4;
    while (j < limit && site_and_region(b[j]) == key) ++j;
    attr_->begin(h.site, h.region, h.core, k.issue_at, k.line_requests);
    const size_t m = !every_ && !checker_ ? issue_some(a + i, j) : issue_each(a + i, j);
    attr_->end(k.issue_at, k.line_requests, m, 0);
    i += m;
  }
}

void CoreModule::compute_attributed(const Compute& c, uint32_t seq) {
  one_attributed(c.site, c.region, c.core, 0, c.flops, [&] { compute_now(c, seq); });
}

void CoreModule::name_site(SiteId id, uint32_t line) {
  if (id >= names_.site_lines.size()) names_.site_lines.resize(size_t(id) + 1, 0);
  names_.site_lines[id] = line;
  if (attr_) attr_->name_site(id, line);
}

void CoreModule::name_op(uint16_t id, const std::string& name) {
  if (attr_) attr_->name_op(id, name);
}

void CoreModule::op_mark(uint16_t id, bool begin, CoreId core) {
  if (!attr_) return;
  Compute c;
  c.op = id;
  c.core = core;
  if (parallel_) return enqueue(Queued{begin ? Queued::OpBegin : Queued::OpEnd, Access{}, c, 0});
  attr_->op_mark(id, begin, core, clock(core).issue_at);
}

void CoreModule::footprint(SpaceId space, uint64_t bytes) {
  if (!attr_) return;
  uint64_t t = 0;
  for (const CoreClock& k : clocks_) t = std::max(t, k.issue_at);
  attr_->footprint(space, bytes, t);
}
}  // namespace ptosim
