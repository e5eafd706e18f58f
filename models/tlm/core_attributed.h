#pragma once
// CoreModule::one_attributed, shared by the files that issue one event at
// a time under attribution (core_attribution.cpp, core_scheduler.cpp).
#include "models/attribution/attribution.h"
#include "models/tlm/core_module.h"

namespace ptosim {

// One event (a parallel section's schedule, a compute): `issue` issues it.
template <class Issue>
void CoreModule::one_attributed(SiteId site, TagId region, CoreId core, uint64_t events, uint64_t flops,
                                Issue&& issue) {
  CoreClock& k = clock(core);
  attr_->close_epochs(k.issue_at);
  attr_->begin(site, region, core, k.issue_at, k.line_requests);
  issue();
  attr_->end(k.issue_at, k.line_requests, events, flops);
}

}  // namespace ptosim
