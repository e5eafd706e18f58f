#include "models/core/cpu_pipeline.h"

#include <algorithm>
#include <cmath>

namespace ptosim {

CpuPipeline::CpuPipeline(const CoreConfig& core, double period_fs)
    : disp_fs_(uint64_t(std::llround(period_fs / core.issue_width))),
      period_fs_(uint64_t(std::llround(period_fs))),
      forward_fs_(uint64_t(std::llround(period_fs * core.forward_latency))),
      loop_uops_(core.loop_uops),
      core_(core),
      done_(kDoneRing, 0),
      done_seq_(kDoneRing, 0),
      rob_(core.rob_entries, 0),
      lq_(core.lq_entries, 0),
      sq_(core.sq_entries, 0),
      load_ports_(core.load_ports, period_fs_),
      store_ports_(core.store_ports, period_fs_),
      forward_(kForwardSlots),
      wide_(kWideSlots),
      regs_(kRegSlots),
      drain_fs_(uint64_t(std::llround(period_fs / std::max(1u, core.store_ports)))),
      line_fs_(core.store_lines_per_cycle ? uint64_t(std::llround(period_fs / core.store_lines_per_cycle)) : 0) {
  units_.resize(size_t(OpClass::Count) * kTimedDtypes);
  for (size_t d = 0; d < kTimedDtypes; ++d) peak_[d] = core.peak_for(timed_dtype_name(d));
  fill_fs_ = uint64_t(std::llround(period_fs * core.store_fill_cycles));
  fill_window_fs_ = uint64_t(std::llround(period_fs * core.store_fill_window));
}

CpuPipeline::Slots& CpuPipeline::unit(OpClass cls, size_t dtype) {
  if (dtype >= kTimedDtypes) dtype = 0;
  std::unique_ptr<Slots>& u = units_[size_t(cls) * kTimedDtypes + dtype];
  if (!u) u = std::make_unique<Slots>(core_.op_timing.at(cls, dtype).throughput, period_fs_);
  return *u;
}

CpuPipeline::Slots::Slots(double throughput, uint64_t period_fs)
    : tag_(kCycles, ~0ull),
      used_(kCycles, 0),
      period_(period_fs ? period_fs : 1),
      per_cycle_(uint16_t(throughput >= 1 ? std::min(std::lround(throughput), 1000l) : 1)),
      span_(throughput >= 1 ? 1 : uint32_t(std::ceil(1 / throughput - 1e-9))) {
  if (span_ == 1) skip_.assign(kCycles, 0);
}

uint64_t CpuPipeline::Slots::take_one(uint64_t t) {
  uint64_t c = t / period_;
  // Within the cycles the last take found full on its way (none of them
  // forgotten since; slots are only ever taken): go on from where it
  // stopped. A register block's loads, dispatched faster than the ports
  // take them, each start a little later than the one before.
  const uint64_t from = c;
  const bool known = c >= full_from_ && c < full_to_ && forgot_ < c;
  if (known) c = full_to_;
  uint64_t walked[16];  // the full cycles the walk stood on (the first 16)
  uint32_t n = 0, i;
  for (;;) {
    i = uint32_t(c % kCycles);
    if (tag_[i] != c) {  // a cycle nobody took yet (or one forgotten)
      if (tag_[i] != ~0ull && tag_[i] > forgot_) forgot_ = tag_[i];
      tag_[i] = c;
      used_[i] = 0;
      skip_[i] = 0;
      break;
    }
    if (used_[i] < per_cycle_) break;
    if (n < 16) walked[n++] = c;
    c = skip_[i] > c + 1 && forgot_ <= c ? skip_[i] : c + 1;
  }
  ++used_[i];
  // Every cycle from each the walk stood on to c is full (and c too, now,
  // if that was its last slot): the next walk from any of them jumps.
  const uint64_t to = used_[i] < per_cycle_ ? c : c + 1;
  for (uint32_t k = 0; k < n; ++k) skip_[walked[k] % kCycles] = to;
  if (!known) full_from_ = from;
  full_to_ = c;
  return std::max(t, c * period_);
}

uint64_t CpuPipeline::Slots::take_span(uint64_t t) {
  uint64_t c = t / period_;
  for (;; ++c) {
    bool free = true;
    for (uint32_t k = 0; k < span_ && free; ++k) {
      const uint32_t i = uint32_t((c + k) % kCycles);
      free = tag_[i] != c + k || used_[i] < per_cycle_;
    }
    if (!free) continue;
    for (uint32_t k = 0; k < span_; ++k) {
      const uint32_t i = uint32_t((c + k) % kCycles);
      if (tag_[i] != c + k) {
        tag_[i] = c + k;
        used_[i] = 0;
      }
      ++used_[i];
    }
    return std::max(t, c * period_);
  }
}

void CpuPipeline::drain_through(size_t n) {
  for (; n && !pending_.empty(); --n) {
    const Waiting w = pending_.front();
    pending_.pop_front();
    for (uint64_t b = w.addr >> 6; b <= (w.addr + w.bytes - 1) >> 6; ++b) --pending_blocks_[b & 255];
    // The line is requested as the store leaves the queue's head; the store
    // is written (and its entry free) when the line is there, in order.
    // rfo: it was requested at dispatch; if it has gone since, the head
    // asks again once the stores before it are written, and waits.
    uint64_t written;
    if (core_.store_request == StoreRequest::Rfo) {
      const uint64_t head = last_commit_ > w.at ? last_commit_ : w.at;
      const uint64_t again = refetcher_(w.id, head);
      if (again != kLineThere) ++stats_.store_refetches;
      written = again != kLineThere ? again : w.line;
    } else
      written = writer_(w.id, w.at);
    uint64_t commit = written > w.at ? written : w.at;
    if (last_commit_ > commit) commit = last_commit_;
    last_commit_ = commit;
    sq_[w.number % sq_.size()] = commit;
    if (commit > drained_) drained_ = commit;
    if (clock_ && commit > clock_->end) clock_->end = commit;
    Forward& f = forward_[(w.addr >> 2) % kForwardSlots];
    if (f.store == w.number && f.addr == w.addr) f.commit = commit;
    if (w.bytes > kScalarBytes)
      for (uint64_t b = w.addr >> 6; b <= (w.addr + w.bytes - 1) >> 6; ++b) {
        Forward& v = wide_[b % kWideSlots];
        if (v.store == w.number && v.addr == w.addr) v.commit = commit;
      }
  }
}

void CpuPipeline::drain_due(uint64_t t) {
  size_t n = 0;
  while (n < pending_.size() && pending_[n].at <= t) ++n;
  drain_through(n);
}

void CpuPipeline::drain_overlapping(uint64_t addr, uint64_t bytes) {
  bool maybe = false;
  for (uint64_t b = addr >> 6; b <= (addr + bytes - 1) >> 6; ++b) maybe |= pending_blocks_[b & 255] != 0;
  if (!maybe) return;
  size_t last = 0;
  for (size_t i = 0; i < pending_.size(); ++i) {
    const Waiting& w = pending_[i];
    if (w.addr < addr + bytes && addr < w.addr + w.bytes) last = i + 1;
  }
  drain_through(last);
}

void CpuPipeline::register_read(uint32_t seq, uint32_t dep, uint64_t addr) {
  ++stats_.register_moves;
  const RegValue& r = regs_[(addr >> 2) % kRegSlots];
  uint64_t t = r.addr == addr ? r.ready : 0;
  const uint64_t a = ready(seq, dep);
  set_done(seq, a > t ? a : t);
}

void CpuPipeline::register_write(uint32_t seq, uint32_t dep, uint64_t addr) {
  ++stats_.register_moves;
  const uint64_t t = ready(seq, dep);
  regs_[(addr >> 2) % kRegSlots] = RegValue{addr, t};
  set_done(seq, t);
}

void CpuPipeline::compute(CoreClock& k, uint32_t seq, const Compute& c) {
  const OpClass cls = c.op_class < uint8_t(OpClass::Count) ? OpClass(c.op_class) : OpClass::Add;
  const OpTiming& timing = core_.op_timing.at(cls, c.dtype);
  if (cls == OpClass::Int && c.flops == 0) {
    // Loop overhead: counter and branch, and a step of each further
    // induction stream (Compute::scalar); nobody waits for their results.
    const uint32_t n = loop_uops_ + (c.scalar > 1 ? c.scalar - 1u : 0u);
    for (uint32_t i = 0; i < n; ++i) retire(k, dispatch(k, Queue::None) + period_fs_);
    return;
  }
  k.computed(c);
  uint64_t t0, occupy;
  if (c.scalar) {
    t0 = dispatch(k, Queue::None);
    occupy = uint64_t(double(period_fs_) / timing.throughput);
  } else {
    // A tensor op's work: flops at the dtype's peak on the vector units,
    // dispatched as the vector instructions it takes (2 flops a lane).
    const double lanes = double(core_.vector_bytes) / (c.dtype == 0 || c.dtype == 3 ? 4 : c.dtype == 4 ? 1 : 2);
    const double instrs = std::ceil(double(c.issued()) / (2 * lanes));
    t0 = dispatch(k, Queue::None);
    k.issue_at += uint64_t(std::max(0.0, instrs - 1) * double(disp_fs_));
    const double peak = peak_[c.dtype < kTimedDtypes ? c.dtype : 0];
    occupy = uint64_t(std::llround(double(period_fs_) * double(c.issued()) / peak));
  }
  uint64_t start = t0;
  for (uint32_t d : c.dep) {
    const uint64_t r = ready(seq, d);
    if (r > start) start = r;
  }
  if (start > t0) stats_.dep_wait_fs += start - t0;
  if (c.scalar) {
    start = unit(cls, c.dtype).take(start);
  } else {
    uint64_t& unit = unit_free_[size_t(cls)];
    if (unit > start) start = unit;
    unit = start + occupy;
  }
  stats_.unit_busy_fs += occupy;
  k.compute_fs += occupy;
  const uint64_t done = start + (c.scalar ? 0 : occupy) + uint64_t(std::llround(timing.latency * double(period_fs_)));
  set_done(seq, done);
  retire(k, done);
}

}  // namespace ptosim
