// CoreModule's multi-core scheduler (core_module.h, docs/TIMING.md
// "Several cores"): a parallel section's events queued per core and issued
// in the order of the cores' clocks; barriers.
#include "models/attribution/attribution.h"
#include "models/tlm/core_attributed.h"
#include "models/tlm/core_module.h"

namespace ptosim {

using sc_core::sc_time;

void CoreModule::enqueue(const Queued& q) {
  const CoreId core = q.kind == Queued::AccessEvent ? q.access.core : q.compute.core;
  clock(core);  // a core the config does not have is an error now, not later
  if (queues_[core].empty()) {
    --empty_queues_;
    // One more core to choose from: a scan, unless it is the core chosen
    // last, which only ran out of events; the bounds of the others then
    // still hold (their queues and clocks have not moved since), and it is
    // the earliest if its clock is within them, as the scan would find.
    const bool again = core == emptied_ && clocks_[core].issue_at < lower_ && clocks_[core].issue_at <= higher_;
    next_ = again ? core : kNoCore;
    emptied_ = kNoCore;
    // Chosen again and schedule() would not wait: it would issue this event
    // at once and find the queue empty again. Issued here, as it would be,
    // without its copy into the queue and out (past the lookahead most
    // events go this way: the earliest core's events arrive one at a time).
    if (again && (empty_queues_ == 0 || queued_ + 1 >= kLookahead)) {
      ++empty_queues_;
      issue_event(q, core);
      next_ = kNoCore;
      emptied_ = core;
      schedule(false);
      return;
    }
  }
  queues_[core].push_back(q);
  ++queued_;
  schedule(false);
}

void CoreModule::schedule(bool drain) {
  for (;;) {
    // The core whose clock is earliest goes next; a core with nothing queued
    // may still receive earlier events, so it holds everyone up (within the
    // lookahead) until the barrier says it is done. Most calls end here (a
    // core's whole iteration arrives before the next core's): no scan.
    if (!drain && empty_queues_ && queued_ < kLookahead) return;
    if (next_ == kNoCore) {
      // It stays the earliest until its clock passes another core's (a lower
      // core wins a tie): only its own events move its clock, so it issues
      // until then without a scan per event, in the order a scan would give.
      // Past the lookahead with a core's queue empty it issues one event per
      // event queued: the choice is kept across calls until a queue empties
      // or fills (enqueue), which is what changes it.
      // One pass finds the earliest core and both bounds: the earliest
      // clock of the cores below it (lower_) and above it (higher_). When a
      // core beats the best so far, every core seen before is below it and
      // the old best was their earliest. Cores whose clocks run close take
      // turns every few events, so this scan runs about once an event.
      size_t best = queues_.size();
      uint64_t best_at = ~0ull, below = ~0ull, above = ~0ull;
      for (size_t c = 0; c < queues_.size(); ++c) {
        if (queues_[c].empty()) continue;
        const uint64_t at = clocks_[c].issue_at;
        if (best == queues_.size() || at < best_at) {
          below = best == queues_.size() ? ~0ull : best_at;
          above = ~0ull;
          best = c;
          best_at = at;
        } else {
          above = std::min(above, at);
        }
      }
      emptied_ = kNoCore;  // the bounds are now the new choice's
      if (best == queues_.size()) return;
      lower_ = below;
      higher_ = above;
      next_ = best;
    }
    const size_t best = next_;
    do issue_queued(best);
    while (!queues_[best].empty() && (drain || !empty_queues_ || queued_ >= kLookahead) &&
           clocks_[best].issue_at < lower_ && clocks_[best].issue_at <= higher_);
    if (queues_[best].empty() || clocks_[best].issue_at >= lower_ || clocks_[best].issue_at > higher_) {
      next_ = kNoCore;
      if (queues_[best].empty()) emptied_ = best;  // enqueue() checks its clock against the bounds
    }
  }
}

void CoreModule::issue_queued(size_t best) {
  const Queued q = queues_[best].front();
  queues_[best].pop_front();
  empty_queues_ += queues_[best].empty();
  --queued_;
  issue_event(q, best);
}

void CoreModule::issue_event(const Queued& q, size_t best) {
  switch (q.kind) {
    case Queued::AccessEvent: {
      auto issue = [&] {
        if (checker_ && !is_control(q.access.kind)) {
          Pending p = std::move(pending_[best].front());
          pending_[best].pop_front();
          issue_checked(q.access, q.host, p);
        } else {
          issue_now(q.access, q.seq);
        }
      };
      // A host write (--check-data) is no event of the program: not attributed.
      if (attr_ && !q.host) one_attributed(q.access.site, q.access.region, q.access.core, 1, 0, issue);
      else issue();
      break;
    }
    case Queued::ComputeEvent: attr_ ? compute_attributed(q.compute, q.seq) : compute_now(q.compute, q.seq); break;
    case Queued::OpBegin:
    case Queued::OpEnd:
      attr_->op_mark(q.compute.op, q.kind == Queued::OpBegin, CoreId(best), clocks_[best].issue_at);
      break;
  }
}

void CoreModule::barrier(bool parallel) {
  ++barriers_;
  schedule(true);
  next_ = emptied_ = kNoCore;  // the clocks move below
  for (CoreClock& k : clocks_) model_->settle(k);
  parallel_ = parallel && clocks_.size() > 1;
  if (clocks_.size() == 1) return;  // one core: nothing to wait for
  uint64_t all = 0;
  for (const CoreClock& k : clocks_) all = std::max(all, k.idle_at());
  for (CoreClock& k : clocks_) {
    if (all <= k.issue_at) continue;
    k.barrier_wait_fs += all - k.issue_at;
    k.issue_at = all;
  }
}
}  // namespace ptosim
