#pragma once
// The producer's end of the event pipe: an EventSink that encodes events
// into chunks of the ring. A producer that emits only untagged accesses in
// bulk (the din reader) may bypass the virtual calls with a PlainCursor.
#include <new>
#include <string>

#include "sim/trace/chunk_ring.h"

namespace ptosim::pipe {

class PipeWriter final : public EventSink {
 public:
  explicit PipeWriter(ChunkRing& ring) : ring_(ring), chunk_(ring.acquire()) {}

  void access(const Access& a) override;
  void compute(const Compute& c) override;
  void name_tensor(TagId id, const std::string& name) override { named(Code::TensorName, id, name); }
  void name_region(TagId id, const std::string& name) override { named(Code::RegionName, id, name); }

  // Hands over the partial chunk. Call once, at the end (also after an error).
  void close();

 private:
  friend class PlainCursor;
  void flush();  // hands the full chunk over and takes the next
  void named(Code code, TagId id, const std::string& name);

  ChunkRing& ring_;
  Chunk* chunk_;
  uint32_t count_ = 0;
};

// Writes untagged accesses into the writer's chunk with the write position
// held in the caller's registers; the writer sees it again when the cursor
// goes out of scope, also when it does so by an exception. Use no other
// method of the writer while a cursor is alive.
class PlainCursor {
 public:
  explicit PlainCursor(PipeWriter& w) : w_(w) { load(); }
  ~PlainCursor() { store(); }
  PlainCursor(const PlainCursor&) = delete;
  PlainCursor& operator=(const PlainCursor&) = delete;

  void put(uint64_t addr, uint64_t bytes, AccessKind kind) {
    new (slot_++) Slot{addr, bytes};
    *code_++ = Code(kind);
    if (code_ == end_) {
      store();
      w_.flush();
      load();
    }
  }

 private:
  void load() {
    slot_ = static_cast<Slot*>(w_.chunk_->at(w_.count_));
    code_ = &w_.chunk_->code(w_.count_);
    end_ = &w_.chunk_->code(kSlots);
  }
  void store() { w_.count_ = uint32_t(code_ - &w_.chunk_->code(0)); }

  PipeWriter& w_;
  // Separate pointers rather than an index: no shift per access, and two
  // registers (the end is needed only in the compare).
  Slot* slot_;
  Code* code_;
  Code* end_;
};

}  // namespace ptosim::pipe
