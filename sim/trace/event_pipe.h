#pragma once
// Runs an event producer (a trace reader, the PTO interpreter) on its own
// thread and hands its events to the consumer in chunks, so that producing
// and simulating proceed on two cores. Order is preserved exactly; memory
// stays bounded (a few chunks in flight). An exception in the producer is
// rethrown in the consumer after the events before it were delivered.
#include <exception>
#include <functional>
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
  // exception if it threw. Call once.
  void drain(EventSink& sink);

 private:
  pipe::ChunkRing ring_;
  std::exception_ptr error_;  // the producer's; read after the join
  Producer producer_;
  std::thread thread_;
};

}  // namespace ptosim
