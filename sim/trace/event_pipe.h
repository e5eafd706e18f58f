#pragma once
// Runs an event producer (a trace reader, the PTO interpreter) on its own
// thread and hands its events to the consumer in chunks, so that producing
// and simulating proceed on two cores. Order is preserved exactly; memory
// stays bounded (a few chunks in flight). An exception in the producer is
// rethrown in the consumer after the events before it were delivered.
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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

  struct Item {
    enum Type : uint8_t { Access, Compute, TensorName, RegionName } type;
    ptosim::Access access;  // Compute: flops in addr, op in tensor, region in region
  };
  struct Chunk {
    std::vector<Item> items;  // kChunkItems long; the first `count` are filled
    size_t count = 0;
    std::vector<std::string> names;  // for TensorName / RegionName (index in access.addr)
  };

 private:
  friend class PipeSink;
  Chunk* acquire();           // producer: an empty chunk to fill
  void publish(Chunk* c);     // producer: hand a full chunk over
  void close(std::exception_ptr error);

  static constexpr size_t kChunks = 8;
  std::vector<Chunk> chunks_;
  std::vector<Chunk*> free_, full_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool closed_ = false;
  std::exception_ptr error_;
  Producer producer_;
  std::thread thread_;
};

}  // namespace ptosim
