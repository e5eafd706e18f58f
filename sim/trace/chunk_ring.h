#pragma once
// A single-producer single-consumer ring of pipe chunks. The two threads
// meet only at chunk boundaries, through two counters; a side that finds
// nothing to do spins briefly and then sleeps on a condition variable, so
// an idle side does not hold a core. The producer, once it has filled the
// ring, sleeps until half of it is free again: one wake-up per several
// chunks instead of one per chunk.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "sim/trace/pipe_chunk.h"

namespace ptosim::pipe {

// Thrown in the producer once the consumer has gone away (an error of its
// own): it unwinds the producer instead of letting it run to its end.
// Deliberately not a std::exception, so that no producer handler takes it
// for one of its own errors.
struct Abandoned {};

// One side waits for a condition the other side makes true. The waker pays
// one load unless the waiter is really asleep.
class Doorbell {
 public:
  template <class Ready>
  void wait(Ready ready, int spins) {
    for (int i = 0; i < spins; ++i) {
      if (ready()) return;
      relax();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    // seq_cst store, then seq_cst loads in ready(): either this side sees
    // the waker's update or the waker sees this flag (the waker stores its
    // update seq_cst before loading the flag).
    sleeping_.store(true);
    // Timed, so that a waiter also notices a stop request (a signal, which
    // cannot ring a doorbell) within a tenth of a second.
    while (!ready()) woken_.wait_for(lock, std::chrono::milliseconds(100));
    sleeping_.store(false, std::memory_order_relaxed);
  }
  void ring() {
    if (!sleeping_.load()) return;
    // Taking the lock orders this notify after the waiter's wait() began.
    { std::lock_guard<std::mutex> lock(mutex_); }
    woken_.notify_one();
  }

 private:
  static void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }
  std::atomic<bool> sleeping_{false};
  std::mutex mutex_;
  std::condition_variable woken_;
};

class ChunkRing {
 public:
  ChunkRing() : chunks_(std::make_unique<Chunk[]>(kChunks)) {}

  // Producer: the chunk to fill next. Blocks while the ring is full; throws
  // Abandoned once the consumer has gone.
  Chunk* acquire() {
    if (pub_ - released_.load(std::memory_order_acquire) >= kChunks)
      space_.wait([this] { return pub_ - released_.load() <= kChunks / 2 || abandoned_.load(); }, kProducerSpins);
    if (abandoned_.load(std::memory_order_relaxed)) throw Abandoned();
    return &chunks_[pub_ % kChunks];
  }
  // Producer: hands the acquired chunk over (its count set).
  void publish() {
    published_.store(++pub_);
    data_.ring();
  }
  // Producer: blocks until the consumer has given back every chunk handed
  // over, i.e. has simulated every event so far and waits for more (a
  // pto.MemoryProfiler reads the model's counters meanwhile: the release
  // that ends the wait orders the consumer's writes before those reads).
  // Throws Abandoned once the consumer has gone.
  void wait_idle() {
    space_.wait([this] { return released_.load() == pub_ || abandoned_.load(); }, kProducerSpins);
    if (abandoned_.load()) throw Abandoned();
  }
  // Producer: no more chunks. Call after the last publish().
  void close() {
    closed_.store(true);
    data_.ring();
  }

  // Consumer: the oldest published chunk, or null once the producer has
  // closed and every chunk was taken.
  // `stop` (may be null) ends the wait early, with null.
  Chunk* next(bool (*stop)() = nullptr) {
    if (published_.load(std::memory_order_acquire) == rel_) {
      data_.wait([this, stop] { return published_.load() != rel_ || closed_.load() || (stop && stop()); },
                 kConsumerSpins);
      if (published_.load() == rel_) return nullptr;  // closed (after its last publish)
    }
    return &chunks_[rel_ % kChunks];
  }
  // Consumer: done with the chunk next() returned.
  void release() {
    released_.store(++rel_);
    if (published_.load() - rel_ <= kChunks / 2) space_.ring();
  }
  // Consumer: stops taking chunks; the producer gets Abandoned at its next
  // acquire(), or at once if it is waiting in one.
  void abandon() {
    abandoned_.store(true);
    space_.ring();
  }

 private:
  static constexpr uint64_t kChunks = 8;
  // The producer is usually the faster side and has half a ring of work
  // queued when it waits: it may as well sleep almost at once. The consumer
  // waits when it is faster, and a brief spin then saves the producer a
  // wake-up call per chunk.
  static constexpr int kProducerSpins = 16;
  static constexpr int kConsumerSpins = 256;

  std::unique_ptr<Chunk[]> chunks_;
  alignas(64) std::atomic<uint64_t> published_{0};  // chunks handed over so far
  uint64_t pub_ = 0;                                 // the producer's copy
  alignas(64) std::atomic<uint64_t> released_{0};   // chunks given back so far
  uint64_t rel_ = 0;                                 // the consumer's copy
  alignas(64) std::atomic<bool> closed_{false};
  std::atomic<bool> abandoned_{false};
  Doorbell space_, data_;
};

}  // namespace ptosim::pipe
