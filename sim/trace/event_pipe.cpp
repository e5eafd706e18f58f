#include "sim/trace/event_pipe.h"

namespace ptosim {

namespace {
constexpr size_t kChunkItems = 1024;  // 40 KiB: handed over while still in the caches
}

// The producer's side: fills a chunk and publishes it when full.
class PipeSink final : public EventSink {
 public:
  explicit PipeSink(EventPipe& pipe) : pipe_(pipe) { take(); }
  void access(const Access& a) override {
    EventPipe::Item* it = next_++;
    it->type = EventPipe::Item::Access;
    it->access = a;
    if (next_ == end_) flush();
  }
  void compute(const Compute& c) override {
    EventPipe::Item* it = next_++;
    it->type = EventPipe::Item::Compute;
    it->access = Access();
    it->access.addr = c.flops;
    it->access.tensor = c.op;
    it->access.region = c.region;
    if (next_ == end_) flush();
  }
  void name_tensor(TagId id, const std::string& name) override { named(EventPipe::Item::TensorName, id, name); }
  void name_region(TagId id, const std::string& name) override { named(EventPipe::Item::RegionName, id, name); }
  void flush() {
    chunk_->count = size_t(next_ - chunk_->items.data());
    pipe_.publish(chunk_);
    take();
  }
  void finish_chunk() {
    chunk_->count = size_t(next_ - chunk_->items.data());
    if (chunk_->count) pipe_.publish(chunk_);
    chunk_ = nullptr;
  }

 private:
  void take() {
    chunk_ = pipe_.acquire();
    next_ = chunk_->items.data();
    end_ = next_ + chunk_->items.size();
  }
  void named(EventPipe::Item::Type type, TagId id, const std::string& name) {
    EventPipe::Item* it = next_++;
    it->type = type;
    it->access = Access();
    it->access.addr = chunk_->names.size();
    it->access.tensor = id;
    chunk_->names.push_back(name);
    if (next_ == end_) flush();
  }
  EventPipe& pipe_;
  EventPipe::Chunk* chunk_ = nullptr;
  EventPipe::Item* next_ = nullptr;
  EventPipe::Item* end_ = nullptr;
};

EventPipe::EventPipe(Producer producer) : chunks_(kChunks), producer_(std::move(producer)) {
  for (auto& c : chunks_) {
    c.items.resize(kChunkItems);
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
      c->count = 0;
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
      c->count = 0;
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
    static thread_local Access run[256];  // consecutive accesses go to the sink as one run (not re-initialised per chunk)
    size_t n = 0;
    for (const Item *it_p = c->items.data(), *it_end = it_p + c->count; it_p != it_end; ++it_p) {
      const Item& it = *it_p;
      if (it.type == Item::Access) {
        run[n++] = it.access;
        if (n == 256) {
          sink.accesses(run, n);
          n = 0;
        }
        continue;
      }
      if (n) sink.accesses(run, n);
      n = 0;
      switch (it.type) {
        case Item::Access: break;
        case Item::Compute: sink.compute(Compute{it.access.addr, it.access.tensor, it.access.region}); break;
        case Item::TensorName: sink.name_tensor(it.access.tensor, c->names[it.access.addr]); break;
        case Item::RegionName: sink.name_region(it.access.tensor, c->names[it.access.addr]); break;
      }
    }
    if (n) sink.accesses(run, n);
    c->count = 0;
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
