#pragma once
// Writes untagged accesses into a sink's lane (EventSink::lane: the event
// pipe's chunk, a BatchSink's buffer) with the write position held in the
// caller's registers: no virtual call per access, and the lane sees the
// position again when the cursor goes out of scope, also when it does so by
// an exception. Use nothing else of the sink while a cursor is alive.
#include "sim/trace/event.h"

namespace ptosim {

class LaneCursor {
 public:
  // `sink` must have a lane.
  explicit LaneCursor(EventSink& sink) : sink_(sink), lane_(*sink.lane()) { load(); }
  ~LaneCursor() { lane_.next = next_; }
  LaneCursor(const LaneCursor&) = delete;
  LaneCursor& operator=(const LaneCursor&) = delete;

  void put(uint64_t addr, uint64_t bytes, AccessKind kind, CoreId core = 0) {
    if (next_ + 1 < end_) {
      *next_++ = Access{addr, bytes, kind, kGlobalSpace, 0, 0, 0, core};
      return;
    }
    // The lane's last slot goes through access(), which hands the lane's
    // buffer on and renews it.
    lane_.next = next_;
    sink_.access(Access{addr, bytes, kind, kGlobalSpace, 0, 0, 0, core});
    load();
  }

 private:
  void load() {
    next_ = lane_.next;
    end_ = lane_.end;
  }

  EventSink& sink_;
  AccessLane& lane_;
  Access* next_;
  Access* end_;
};

}  // namespace ptosim
