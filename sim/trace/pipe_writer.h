#pragma once
// The producer's end of the event pipe: an EventSink that fills chunks of
// the ring. A producer that emits only untagged accesses in bulk (the din
// reader) may bypass the virtual calls with a LaneCursor.
#include <string>

#include "sim/trace/chunk_ring.h"

namespace ptosim::pipe {

class PipeWriter final : public EventSink {
 public:
  explicit PipeWriter(ChunkRing& ring) : ring_(ring), chunk_(ring.acquire()) { open_lane(); }

  void access(const Access& a) override {
    *lane_.next = a;
    if (++lane_.next == lane_.end) flush();
  }
  AccessLane* lane() override { return &lane_; }
  void compute(const Compute& c) override;
  void barrier(bool parallel) override { other(Other{count(), Other::Barrier, parallel, 0}); }
  void name_tensor(TagId id, const std::string& name) override { named(Other::TensorName, id, name); }
  void name_region(TagId id, const std::string& name) override { named(Other::RegionName, id, name); }
  void name_site(SiteId id, uint32_t line) override { other(Other{count(), Other::SiteName, line, id}); }
  void footprint(SpaceId space, uint64_t bytes) override { other(Other{count(), Other::Footprint, bytes, space}); }
  void name_op(uint16_t id, const std::string& name) override { named(Other::OpName, id, name); }
  void op_mark(uint16_t id, bool begin, CoreId core) override {
    other(Other{count(), Other::OpMark, uint64_t(begin) | uint64_t(core) << 8, id});
  }
  void access_data(const Access& a, const uint8_t* data) override;
  void host_write(const Access& a, const uint8_t* data) override { hosted(Other::HostWrite, a, data); }
  void expect(const Access& a, const uint8_t* data) override { hosted(Other::Expect, a, data); }
  void position(const std::string& file, int line, int col) override;

  // Hands over the partial chunk. Call once, at the end (also after an error).
  void close();
  // Hands over the partial chunk and returns once the consumer has simulated
  // every event sent so far and is idle, so that the producer may read the
  // model's counters until it sends the next event (pto.MemoryProfiler).
  bool settle() override;

 private:
  void flush();  // hands the chunk over and takes the next
  void other(const Other& o);
  void named(Other::Kind kind, TagId id, const std::string& name);
  void hosted(Other::Kind kind, const Access& a, const uint8_t* data);
  void open_lane() { lane_ = AccessLane{chunk_->accesses, chunk_->accesses + kAccesses}; }
  uint32_t count() const { return uint32_t(lane_.next - chunk_->accesses); }  // accesses in the chunk

  ChunkRing& ring_;
  Chunk* chunk_;
  AccessLane lane_;  // the free part of chunk_'s accesses
};

}  // namespace ptosim::pipe
