#include "sim/trace/event_pipe.h"

namespace ptosim {

namespace {
constexpr size_t kChunkItems = 4096;  // 128 KiB: handed over while still in the caches
}

// The producer's side: fills a chunk and publishes it when full.
class PipeSink final : public EventSink {
 public:
  explicit PipeSink(EventPipe& pipe) : pipe_(pipe), chunk_(pipe.acquire()) {}
  void access(const Access& a) override {
    chunk_->items.push_back({EventPipe::Item::Access, a});
    if (chunk_->items.size() == kChunkItems) flush();
  }
  void compute(const Compute& c) override {
    Access a;
    a.addr = c.flops;
    a.tensor = c.op;
    a.region = c.region;
    chunk_->items.push_back({EventPipe::Item::Compute, a});
    if (chunk_->items.size() == kChunkItems) flush();
  }
  void name_tensor(TagId id, const std::string& name) override { named(EventPipe::Item::TensorName, id, name); }
  void name_region(TagId id, const std::string& name) override { named(EventPipe::Item::RegionName, id, name); }
  void flush() {
    pipe_.publish(chunk_);
    chunk_ = pipe_.acquire();
  }
  void finish_chunk() {
    if (!chunk_->items.empty()) pipe_.publish(chunk_);
    chunk_ = nullptr;
  }

 private:
  void named(EventPipe::Item::Type type, TagId id, const std::string& name) {
    Access a;
    a.addr = chunk_->names.size();
    a.tensor = id;
    chunk_->names.push_back(name);
    chunk_->items.push_back({type, a});
  }
  EventPipe& pipe_;
  EventPipe::Chunk* chunk_;
};

EventPipe::EventPipe(Producer producer) : chunks_(kChunks), producer_(std::move(producer)) {
  for (auto& c : chunks_) {
    c.items.reserve(kChunkItems);
    free_.push_back(&c);
  }
  thread_ = std::thread([this] {
    std::exception_ptr error;
    PipeSink sink(*this);
    try {
      producer_(sink);
    } catch (...) {
      error = std::current_exception();
    }
    sink.finish_chunk();  // the events before an error still arrive
    close(error);
  });
}

EventPipe::~EventPipe() {
  {
    // A consumer that stopped early (an error of its own) must not leave the
    // producer blocked on a full pipe: hand every chunk back as free.
    std::lock_guard<std::mutex> lock(mutex_);
    for (Chunk* c : full_) {
      c->items.clear();
      c->names.clear();
      free_.push_back(c);
    }
    full_.clear();
    closed_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

EventPipe::Chunk* EventPipe::acquire() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return !free_.empty(); });
  Chunk* c = free_.back();
  free_.pop_back();
  return c;
}

void EventPipe::publish(Chunk* c) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) {  // the consumer is gone: recycle
      c->items.clear();
      c->names.clear();
      free_.push_back(c);
      return;
    }
    full_.push_back(c);
  }
  changed_.notify_all();
}

void EventPipe::close(std::exception_ptr error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = error;
    closed_ = true;
  }
  changed_.notify_all();
}

void EventPipe::drain(EventSink& sink) {
  size_t next = 0;  // full_ is a FIFO: take from the front
  for (;;) {
    Chunk* c = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return next < full_.size() || closed_; });
      if (next < full_.size()) {
        c = full_[next++];
        if (next == full_.size()) {
          full_.clear();
          next = 0;
        }
      } else {
        break;  // closed and drained
      }
    }
    for (const Item& it : c->items) {
      switch (it.type) {
        case Item::Access: sink.access(it.access); break;
        case Item::Compute: sink.compute(Compute{it.access.addr, it.access.tensor, it.access.region}); break;
        case Item::TensorName: sink.name_tensor(it.access.tensor, c->names[it.access.addr]); break;
        case Item::RegionName: sink.name_region(it.access.tensor, c->names[it.access.addr]); break;
      }
    }
    c->items.clear();
    c->names.clear();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      free_.push_back(c);
    }
    changed_.notify_all();
  }
  thread_.join();
  if (error_) std::rethrow_exception(error_);
}

}  // namespace ptosim
