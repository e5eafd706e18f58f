#pragma once
// A fixed-size array of plain records that starts as zero bytes, taken from
// calloc. For the sizes of a large level's tags, slot records and 3C buckets
// glibc maps fresh pages, which the OS zeroes when they are first touched:
// a 32 MiB L3 then costs page faults only for the sets a trace reaches,
// where a filled std::vector writes all of them before the first access
// (matmul 128^3 over the Xeon-like 3-level hierarchy: ~5,400 page faults,
// about 6 % of the run, for a level the trace hardly uses).
// A starting value that is not all zero bytes is written out as usual (a
// record with padding should be told apart by its fields: see
// SetAssocArray's slots).
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

namespace ptosim {

template <class T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "zero bytes must be a valid T and nothing may need destroying");

 public:
  ZeroedArray() = default;
  explicit ZeroedArray(size_t n) : n_(n) {
    if (n == 0) return;
    p_.reset(static_cast<T*>(std::calloc(n, sizeof(T))));
    if (!p_) throw std::bad_alloc();
  }
  ZeroedArray(size_t n, const T& value) : ZeroedArray(n) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    bool zero = true;
    for (unsigned char b : bytes) zero = zero && b == 0;
    if (!zero) fill(value);
  }
  void fill(const T& value) {
    for (size_t i = 0; i < n_; ++i) p_.get()[i] = value;
  }

  T& operator[](size_t i) { return p_.get()[i]; }
  const T& operator[](size_t i) const { return p_.get()[i]; }
  size_t size() const { return n_; }
  T* begin() { return p_.get(); }
  T* end() { return p_.get() + n_; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  size_t n_ = 0;
  std::unique_ptr<T, Free> p_;
};

}  // namespace ptosim
