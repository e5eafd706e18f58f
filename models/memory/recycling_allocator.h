#pragma once
// An allocator that keeps the blocks of up to kKept objects it freed, by
// their count, for the next allocation of as many. The coherence directory
// adds a line (a hash node, its touches' vector) on every private fill and
// drops it when the last holder lets it go: with 8 cores missing in their
// L1s that was ~3.5 mallocs and frees per directory request, 5 % of a run's
// instructions in glibc (docs/notes/2026-12-07-cores-2.md). A thread's
// freed blocks are its own (no locks); they go back to the heap when the
// thread ends.
#include <cstddef>
#include <new>

namespace ptosim {

template <class T>
class RecyclingAllocator {
 public:
  using value_type = T;
  RecyclingAllocator() = default;
  template <class U>
  RecyclingAllocator(const RecyclingAllocator<U>&) {}  // NOLINT: rebinding, as std::allocator's

  static constexpr size_t kKept = 8;  // blocks of 1 to 8 objects are kept (a vector grows 1, 2, 4, 8)

  T* allocate(size_t n) {
    if (n - 1 < kKept && !gone_ && head_[n - 1]) {
      Block* b = head_[n - 1];
      head_[n - 1] = b->next;
      return reinterpret_cast<T*>(b);
    }
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) {
    if (n - 1 >= kKept || gone_) return ::operator delete(p);
    if (!kept_any_) [[unlikely]] {  // the first block kept by this thread: its lists are freed when it ends
      kept_any_ = true;
      reaper_.armed = true;
    }
    Block* b = reinterpret_cast<Block*>(p);
    b->next = head_[n - 1];
    head_[n - 1] = b;
  }
  template <class U>
  bool operator==(const RecyclingAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const RecyclingAllocator<U>&) const { return false; }

 private:
  struct Block {
    Block* next;
  };
  static_assert(sizeof(T) >= sizeof(Block) && alignof(T) <= alignof(std::max_align_t));
  // The lists and flags are trivially destructible thread_locals, read
  // without the call a thread_local with a destructor costs at every use
  // (__tls_init: 0.5 % of an 8-core run); the reaper, which has one, is
  // touched once per thread.
  static thread_local inline Block* head_[kKept] = {};  // by object count - 1
  static thread_local inline bool kept_any_ = false;
  static thread_local inline bool gone_ = false;  // readable until the thread is gone
  struct Reaper {
    bool armed = false;
    ~Reaper() {
      gone_ = true;  // a container freed later in this thread's teardown goes to the heap
      for (Block*& h : head_)
        while (h) {
          Block* n = h->next;
          ::operator delete(h);
          h = n;
        }
    }
  };
  static thread_local inline Reaper reaper_;
};

}  // namespace ptosim
