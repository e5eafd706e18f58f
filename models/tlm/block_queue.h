#pragma once
// The core scheduler's per-core FIFOs (core_scheduler.cpp): a parallel
// section queues up to 2^18 events over the cores and issues them again.
// std::deque allocated and freed a node every ten events there (malloc,
// free, and the pages the allocator gave back and took again: a tenth of
// an 8-core run's time), and a ring per core would keep up to 2^19 slots
// for every core (hundreds of MB of pages touched at 24 cores). Here the
// queues take blocks of kBlock events from one pool they share and give
// them back when emptied: memory stays about the lookahead's, and no block
// is allocated twice (docs/notes/2026-12-06-cores-speed.md).
#include <cstddef>
#include <deque>
#include <memory>
#include <vector>

namespace ptosim {

template <class T, size_t kBlock = 4096>
class BlockQueue {
 public:
  using Block = std::vector<T>;
  // Blocks no queue holds, shared by the queues that take from it.
  class Pool {
   public:
    size_t spare() const { return spare_.size(); }

   private:
    friend class BlockQueue;
    std::vector<std::unique_ptr<Block>> spare_;
  };

  explicit BlockQueue(Pool& pool) : pool_(&pool) {}
  BlockQueue(BlockQueue&&) = default;
  BlockQueue(const BlockQueue&) = delete;  // a block belongs to one queue
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return (*blocks_.front())[head_]; }
  void push_back(const T& x) {
    if (blocks_.empty() || blocks_.back()->size() == kBlock) blocks_.push_back(take());
    blocks_.back()->push_back(x);
    ++size_;
  }
  void pop_front() {
    --size_;
    if (++head_ < blocks_.front()->size()) return;
    // The front block is used up (or it was the last and is now empty).
    blocks_.front()->clear();  // keeps its capacity
    pool_->spare_.push_back(std::move(blocks_.front()));
    blocks_.pop_front();
    head_ = 0;
  }

 private:
  std::unique_ptr<Block> take() {
    if (pool_->spare_.empty()) {
      auto b = std::make_unique<Block>();
      b->reserve(kBlock);
      return b;
    }
    std::unique_ptr<Block> b = std::move(pool_->spare_.back());
    pool_->spare_.pop_back();
    return b;
  }

  Pool* pool_;
  std::deque<std::unique_ptr<Block>> blocks_;  // oldest first; the first from head_ on
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace ptosim
