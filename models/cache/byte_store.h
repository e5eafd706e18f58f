#pragma once
// The bytes of a memory that `--check-data` runs keep: DRAM's backing store,
// a scratchpad's or constant memory's contents, the checker's shadow. Sparse
// (4 KiB pages made on first write), so an address space of 2^64 costs only
// what a run touches; a byte never written reads as 0, as memory starts.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

namespace ptosim {

class ByteStore {
 public:
  static constexpr uint64_t kPage = 4096;

  void read(uint64_t addr, uint64_t bytes, uint8_t* out) const {
    while (bytes) {
      const uint64_t off = addr % kPage, n = std::min(bytes, kPage - off);
      auto it = pages_.find(addr / kPage);
      if (it == pages_.end())
        std::memset(out, 0, n);
      else
        std::memcpy(out, it->second.get() + off, n);
      addr += n, out += n, bytes -= n;
    }
  }
  void write(uint64_t addr, uint64_t bytes, const uint8_t* in) {
    while (bytes) {
      const uint64_t off = addr % kPage, n = std::min(bytes, kPage - off);
      std::unique_ptr<uint8_t[]>& p = pages_[addr / kPage];
      if (!p) p.reset(new uint8_t[kPage]());
      std::memcpy(p.get() + off, in, n);
      addr += n, in += n, bytes -= n;
    }
  }
  // Calls fn(page_address, const uint8_t* page) for every page written.
  template <class F>
  void for_each_page(F&& fn) const {
    for (auto& [page, data] : pages_) fn(page * kPage, data.get());
  }

 private:
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
};

}  // namespace ptosim
