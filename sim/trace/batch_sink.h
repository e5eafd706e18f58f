#pragma once
// A producer run on its consumer's own thread (the alternative to the event
// pipe's second thread): its accesses are collected in a buffer small enough
// to stay in the L1 cache and handed over in runs (EventSink::accesses);
// every other event flushes the buffer and goes straight through. The
// stream's order is kept exactly.
#include <cstddef>

#include "sim/common/run_control.h"
#include "sim/trace/chunk_ring.h"
#include "sim/trace/event.h"

namespace ptosim {

class BatchSink final : public EventSink {
 public:
  static constexpr size_t kBatch = 512;

  // `stop` (may be null) is checked before each run is delivered: once it
  // returns true the producer is unwound with pipe::Abandoned (the events
  // not delivered stay unsimulated, as the event pipe's do).
  BatchSink(EventSink& to, bool (*stop)()) : to_(to), stop_(stop) { lane_ = AccessLane{buf_, buf_ + kBatch}; }

  void access(const Access& a) override {
    *lane_.next = a;
    if (++lane_.next == lane_.end) flush();
  }
  AccessLane* lane() override { return &lane_; }
  void accesses(const Access* a, size_t n) override {
    for (size_t i = 0; i < n; ++i) access(a[i]);
  }
  void compute(const Compute& c) override { other().compute(c); }
  void barrier(bool parallel) override { other().barrier(parallel); }
  void name_tensor(TagId id, const std::string& name) override { other().name_tensor(id, name); }
  void name_region(TagId id, const std::string& name) override { other().name_region(id, name); }
  void name_site(SiteId id, uint32_t line) override { other().name_site(id, line); }
  void name_op(uint16_t id, const std::string& name) override { other().name_op(id, name); }
  void op_mark(uint16_t id, bool begin, CoreId core) override { other().op_mark(id, begin, core); }
  void footprint(SpaceId space, uint64_t bytes) override { other().footprint(space, bytes); }
  void host_write(const Access& a, const uint8_t* data) override { other().host_write(a, data); }
  void expect(const Access& a, const uint8_t* data) override { other().expect(a, data); }
  void position(const std::string& file, int line, int col) override { other().position(file, line, col); }
  // As the pipe delivers it: the bytes, then the access.
  void access_data(const Access& a, const uint8_t* data) override {
    other().write_data(data, a.bytes ? a.bytes : 1);
    to_.access(a);
    count(1, 0);
  }

  // Delivers the buffered accesses (after checking `stop`). The buffer is
  // emptied first: if the consumer throws, nothing is delivered twice.
  void flush() {
    const size_t n = size_t(lane_.next - buf_);
    // Once: what the producer's destructors send while it unwinds is dropped
    // (a second throw from a destructor would end the process).
    if (stopped_) {
      lane_.next = buf_;
      return;
    }
    if (stop_ && stop_()) {
      stopped_ = true;
      lane_.next = buf_;
      throw pipe::Abandoned();
    }
    lane_.next = buf_;
    if (n) to_.accesses(buf_, n);
    count(n, n);
  }

 private:
  // Flushes, then returns the consumer for one other event.
  EventSink& other() {
    flush();
    count(1, 0);
    return to_;
  }
  // The progress line's counters, as EventPipe::drain keeps them.
  static void count(size_t events, size_t accesses) {
    run_control::Counters& c = run_control::counters();
    c.events.store(c.events.load(std::memory_order_relaxed) + events, std::memory_order_relaxed);
    c.accesses.store(c.accesses.load(std::memory_order_relaxed) + accesses, std::memory_order_relaxed);
  }

  EventSink& to_;
  bool (*stop_)();
  bool stopped_ = false;
  AccessLane lane_;
  Access buf_[kBatch];
};

}  // namespace ptosim
