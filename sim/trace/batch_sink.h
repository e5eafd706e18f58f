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
  void compute(const Compute& c) override {
    // Where `run --stop-after-compute` starts counting, and its --probe-period.
    run_control::note_compute(c.site, c.flops > 0);
    if (EventSink* s = other()) s->compute(c);
  }
  void barrier(bool parallel) override {
    if (EventSink* s = other()) s->barrier(parallel);
  }
  void name_tensor(TagId id, const std::string& name) override {
    if (EventSink* s = other()) s->name_tensor(id, name);
  }
  void name_region(TagId id, const std::string& name) override {
    if (EventSink* s = other()) s->name_region(id, name);
  }
  void name_site(SiteId id, uint32_t line) override {
    if (EventSink* s = other()) s->name_site(id, line);
  }
  void name_op(uint16_t id, const std::string& name) override {
    if (EventSink* s = other()) s->name_op(id, name);
  }
  void op_mark(uint16_t id, bool begin, CoreId core) override {
    if (EventSink* s = other()) s->op_mark(id, begin, core);
  }
  void footprint(SpaceId space, uint64_t bytes) override {
    if (EventSink* s = other()) s->footprint(space, bytes);
  }
  void host_write(const Access& a, const uint8_t* data) override {
    if (EventSink* s = other()) s->host_write(a, data);
  }
  void expect(const Access& a, const uint8_t* data) override {
    if (EventSink* s = other()) s->expect(a, data);
  }
  void position(const std::string& file, int line, int col) override {
    if (EventSink* s = other()) s->position(file, line, col);
  }
  // As the pipe delivers it: the bytes, then the access as a run of one
  // (EventSink::accesses, where the consumer attributes it to its line).
  void access_data(const Access& a, const uint8_t* data) override {
    EventSink* s = other();
    if (!s) return;
    s->write_data(data, a.bytes ? a.bytes : 1);
    to_.accesses(&a, 1);
    count(1, 0);
  }

  // The consumer simulates what it is handed before the call returns.
  bool settle() override {
    flush();
    return true;
  }

  // Delivers the buffered accesses (after checking `stop`). The buffer is
  // emptied first: if the consumer throws, nothing is delivered twice.
  void flush() {
    const size_t n = size_t(lane_.next - buf_);
    lane_.next = buf_;
    // A stop seen by other(): thrown here, once, from an access.
    if (pending_) {
      pending_ = false;
      lane_.end = buf_ + kBatch;
      throw pipe::Abandoned();
    }
    // Once: what the producer's destructors send while it unwinds is dropped
    // (a second throw from a destructor would end the process).
    if (stopped_) return;
    if (stop_ && stop_()) {
      stopped_ = true;
      throw pipe::Abandoned();
    }
    if (n) to_.accesses(buf_, n);
    count(n, n);
  }

 private:
  // Delivers the buffered accesses, then returns the consumer for one other
  // event (null once stopped: the event is dropped). A stop seen here is not
  // thrown here: the executor sends compute events from places that must
  // not throw (an op's end, in a destructor), and `run
  // --stop-after-compute` stops right at the first compute. The lane is cut
  // to one slot instead, so that the producer's next access flushes and the
  // stop unwinds it from there.
  EventSink* other() {
    const size_t n = size_t(lane_.next - buf_);
    lane_.next = buf_;
    if (stopped_) return nullptr;
    if (stop_ && stop_()) {
      stopped_ = pending_ = true;
      lane_.end = buf_ + 1;
      return nullptr;
    }
    if (n) to_.accesses(buf_, n);
    count(n + 1, n);
    return &to_;
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
  bool pending_ = false;  // stopped in other(): the next flush throws
  AccessLane lane_;
  Access buf_[kBatch];
};

}  // namespace ptosim
