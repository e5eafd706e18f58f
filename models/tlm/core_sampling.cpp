// CoreModule's sampled run (run --sample, core_module.h; the schedule and
// the estimate in sim/report/sampling.h): the stream is cut into phases —
// accesses that only warm the caches' contents (or are dropped), accesses
// simulated in detail to warm the timing state, and measured units, at
// whose ends the probe's totals are read. The clock runs only in the
// detailed phases, so a unit's cycles are the time it took.
#include "models/cache/cache_level.h"
#include "models/tlm/core_module.h"

namespace ptosim {

void CoreModule::set_sampling(const SampleParams& p, std::function<void(std::vector<double>&)> probe) {
  sample_params_ = p;
  sampler_ = std::make_unique<SampleSchedule>(p);
  sample_probe_ = std::move(probe);
}

// An access's weight in the schedule: the line requests it makes at the
// first level of its space (one for a memory without lines, none for a
// control record), as the core's line_requests counts them.
uint64_t CoreModule::sample_weight(const Access& a) const {
  return is_control(a.kind) ? 0 : sample_weight(route_of(a), a);
}

uint64_t CoreModule::sample_weight(const Route& r, const Access& a) {
  if (!r.split) return 1;
  const uint64_t bytes = a.bytes ? a.bytes : 1;
  return (a.addr + bytes - 1) / r.split - a.addr / r.split + 1;
}

void CoreModule::sampled(const Access* a, size_t n) {
  size_t i = 0;
  while (i < n) {
    const SampleSchedule::Phase phase = sampler_->phase();
    // The events of this phase: up to and with the one that reaches its end.
    const uint64_t left = sampler_->left_in_phase();
    uint64_t counted = 0;
    size_t j = i;
    if (phase == SampleSchedule::Phase::Skip) {
      j += warm(a + i, n - i, left, &counted);
    } else {
      while (j < n && counted < left) counted += sample_weight(a[j++]);
      if (phase == SampleSchedule::Phase::Measure && !in_unit_) {
        sample_probe_(sample_at_start_);
        in_unit_ = true;
        unit_from_ = sampler_->position();
      }
      issue_runs(a + i, j - i);  // one core, a model without per-access engines: System refused the rest
    }
    sampler_->advance(counted);
    if (phase == SampleSchedule::Phase::Measure && counted >= left) {  // the unit is complete
      sample_probe_(sample_now_);
      for (size_t m = 0; m < sample_now_.size(); ++m) sample_now_[m] -= sample_at_start_[m];
      sample_units_.push_back(sample_now_);
      sample_weights_.push_back(double(sampler_->position() - unit_from_));
      in_unit_ = false;
    }
    i = j;
  }
}

// Between units, up to and with the access that brings *counted to
// `budget`: each access's first cache level takes it functionally
// (CacheLevel::warm_run: a run of one space in one call), or nothing does
// (warming: none). Scratchpads and other memories hold no state a later
// unit depends on. Returns how many accesses it took.
size_t CoreModule::warm(const Access* a, size_t n, uint64_t budget, uint64_t* counted) {
  const bool functional = sample_params_.warming == SampleWarming::Functional;
  size_t i = 0;
  while (i < n && *counted < budget) {
    const Access& e = a[i];
    if (is_control(e.kind)) {
      if (functional) issue_now(e, 0);
      ++i;
      continue;
    }
    const Route& r = route_of(e);
    if (functional && r.cache) {
      i += r.cache->warm_run(a + i, n - i, e.space, budget - *counted, counted);
      continue;
    }
    *counted += sample_weight(r, e);
    ++i;
  }
  return i;
}

// A compute event between units: the model counts its flops and its time
// (compute_fs) as in a full run, and the clock stays where it was. The
// models sampling allows (no dataflow, no per-access engines: System
// refuses the others) add compute to the issue time and nothing else, so
// the whole run's compute time is known exactly and only the memory part
// of the cycles is sampled.
void CoreModule::compute_skipped(const Compute& c) {
  CoreClock& k = clock(c.core);
  const uint64_t at = k.issue_at;
  model_->compute(k, 0, c);
  k.issue_at = at;
}

// The prefix before the first compute event (warm_until_compute). A
// dataflow model's events keep their numbers: the later ones name them.
void CoreModule::warm_prefix(const Access* a, size_t n) {
  if (dataflow_)
    for (size_t x = 0; x < n; ++x) seq_ += !is_control(a[x].kind);
  uint64_t lines = 0;
  warm(a, n, ~0ull, &lines);
}

}  // namespace ptosim
