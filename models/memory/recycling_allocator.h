#pragma once
// An allocator that keeps single objects it freed for the next allocation
// of one. The coherence directory adds a line (a hash node, its touches'
// vector) on every private fill and drops it when the last holder lets it
// go, and a BusyCalendar adds and merges an interval per request: with 8
// cores missing in their L1s that was ~3.5 mallocs and frees per directory
// request, 5 % of a run's instructions in glibc (docs/notes/2026-12-07-cores-2.md). A thread's freed blocks are its own
// (no locks); they go back to the heap when the thread ends.
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

  T* allocate(size_t n) {
    if (n == 1 && !gone_ && free_.head) {
      Block* b = free_.head;
      free_.head = b->next;
      return reinterpret_cast<T*>(b);
    }
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) {
    if (n != 1 || gone_) return ::operator delete(p);
    Block* b = reinterpret_cast<Block*>(p);
    b->next = free_.head;
    free_.head = b;
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
  struct FreeList {
    Block* head = nullptr;
    ~FreeList() {
      gone_ = true;  // a container freed later in this thread's teardown goes to the heap
      while (head) {
        Block* n = head->next;
        ::operator delete(head);
        head = n;
      }
    }
  };
  static thread_local inline FreeList free_;
  static thread_local inline bool gone_ = false;  // trivially destructible: readable until the thread is gone
};

}  // namespace ptosim
