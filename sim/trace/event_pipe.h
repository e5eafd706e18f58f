#pragma once
// Runs an event producer (a trace reader, the PTO interpreter) on its own
// thread and hands its events to the consumer in chunks, so that producing
// and simulating proceed on two cores. Order is preserved exactly; memory
// stays bounded (a few chunks in flight). An exception in the producer is
// rethrown in the consumer after the events before it were delivered.
#include <exception>
#include <functional>
#include <memory>
#include <thread>

#include "sim/trace/chunk_ring.h"
#include "sim/trace/event.h"

namespace ptosim {

class EventPipe {
 public:
  using Producer = std::function<void(EventSink&)>;
  explicit EventPipe(Producer producer);
  ~EventPipe();
  EventPipe(const EventPipe&) = delete;
  EventPipe& operator=(const EventPipe&) = delete;

  // Delivers every event to `sink` in order, then rethrows the producer's
  // exception if it threw. Call once. With `stop` (may be null), checked
  // between chunks: once it returns true, delivery ends there and drain
  // returns false (the producer is abandoned, see ~EventPipe).
  bool drain(EventSink& sink, bool (*stop)() = nullptr);
  // The same, but the producer's exception is handed back in *error rather
  // than thrown: the simulation drains on a SystemC coroutine, where a throw
  // confuses AddressSanitizer (google/sanitizers#189), so the error is
  // carried out of the SC thread and thrown after sc_start returns.
  bool drain(EventSink& sink, bool (*stop)(), std::exception_ptr* error);

 private:
  // Shared with the producer's thread: after a stop the thread may still be
  // busy (in a blocking read, or computing without events) and is let go
  // rather than waited for, so it must not outlive what it uses.
  struct State {
    pipe::ChunkRing ring;
    std::exception_ptr error;  // the producer's; read after the join
    Producer producer;
  };
  std::shared_ptr<State> state_;
  std::thread thread_;
  bool stopped_ = false;
};

}  // namespace ptosim
