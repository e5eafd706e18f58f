#pragma once
// The core's side of --check-data (docs/CACHES.md, "Data-integrity mode"):
// a shadow of every memory, written in the order the core issues, against
// which every load's bytes (what the simulated hierarchy returned) are
// compared; the bytes each write stores (from the event stream for a
// program, made up for a trace); the program position; and the final
// comparison of the simulated memories, after the flush, with the shadow
// and with the executor's memory. Plain C++: the core feeds it.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/cache/byte_store.h"
#include "sim/trace/event.h"

namespace ptosim {

class DataChecker {
 public:
  // `stream`: writes' bytes come with the events (a program); else they are
  // trace_bytes(addr, n, write number) (a trace). `source` names the input.
  DataChecker(bool stream, std::string source);

  // A memory that holds bytes at the end (DRAM, a scratchpad): its id.
  size_t add_store(const std::string& name, const ByteStore* store);

  // The memory's own bytes (what add_store was given).
  const ByteStore* actual(size_t store) const { return stores_[store].actual; }

  // ---- fed in stream order ----
  void write_data(const uint8_t* data, size_t n);
  // The bytes the write `a` stores, max(a.bytes, 1) of them, into out.
  void take_write(const Access& a, std::vector<uint8_t>& out);
  // The position of what follows; returns its id (queued events keep theirs).
  uint32_t position(const std::string& file, int line, int col);
  uint32_t current_position() const { return current_; }
  void expect(size_t store, const Access& a, const uint8_t* data, const std::string& tensor, const std::string& space);

  // ---- in issue order ----
  void set_position(uint32_t id) { current_ = id; }
  // a (a write, a fill, or a host write) stored `data` in `store`.
  void wrote(size_t store, const Access& a, const uint8_t* data);
  // Whether a (a read) got the shadow's bytes in `data`; if not, mismatch()
  // throws DataCheckError, `served` naming the level that had them.
  bool read_matches(size_t store, const Access& a, const uint8_t* data);
  // The shadow's bytes for a (what a load forwarded from a store queue gets).
  void shadow_bytes(size_t store, const Access& a, uint8_t* out) const;
  [[noreturn]] void mismatch(const Access& a, const uint8_t* data, const std::string& space,
                             const std::string& served) const;
  void issued() { ++accesses_; }
  // An invalidate record dropped cached copies without writing them back
  // (docs/CACHES.md, "Data-integrity mode"): what they held is gone, as on
  // hardware, and the older bytes below are what a load gets now. The
  // shadow of [addr, addr + bytes) (bytes 0: every byte it holds) takes
  // visible(addr), the byte the hierarchy now holds there.
  void discarded(size_t store, uint64_t addr, uint64_t bytes, const std::function<uint8_t(uint64_t)>& visible);

  // After the flush: every store equals its shadow, and every expected range
  // the executor's bytes. Throws DataCheckError.
  void final_check() const;
  uint64_t reads_checked() const { return reads_; }
  uint64_t tensors_compared() const { return expected_.size(); }

 private:
  std::string where() const;
  template <class F>
  static void pieces(const Access& a, F&& fn);  // fn(addr, bytes, offset in the access's data)

  struct Store {
    std::string name;
    const ByteStore* actual;
    ByteStore shadow;
  };
  struct Expected {
    size_t store;
    Access a;
    std::vector<uint8_t> data;
    std::string tensor, space;
  };
  struct Position {
    std::string file;
    int line, col;
  };
  bool stream_;
  std::string source_;
  std::vector<Store> stores_;
  const uint8_t* next_ = nullptr;
  const uint8_t* end_ = nullptr;
  uint64_t writes_ = 0, accesses_ = 0, reads_ = 0;
  std::vector<Position> positions_;
  uint32_t current_ = 0;  // 0 = none yet
  std::vector<Expected> expected_;
  std::vector<uint8_t> want_;
};

}  // namespace ptosim
