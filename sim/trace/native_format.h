#pragma once
// The native binary trace: magic "PTOTRACE", u32 version, then records.
// A record starts with a flag byte:
//   bits 0-1  kind: 0 read, 1 write, 2 fetch, 3 meta
//   access:   bit 2 size as previous, bit 3 tags follow (space, tensor, region
//             varints), bit 4 a fill (kind bits say write), bit 5 a stride
//             follows (elem_bytes varint, zigzag stride varint, after the
//             tags), bit 6 a dependence follows (varint: how many events
//             back the event it waits for is, after the stride), bit 7 one
//             of din's m/c/v records (kind bits: 0 misc, 1 copyback, 2
//             invalidate; never with bit 4); then the zigzag varint address
//             delta from the previous access, then the size varint unless
//             bit 2.
//   meta:     bits 2-7 subtype: 1 compute (flops, op, region varints),
//             2 tensor name, 3 region name (id varint, length varint, bytes),
//             4 core (varint: the core of the accesses and computes that
//             follow; 0 at the start), 5 barrier (varint: 1 = parallel after),
//             6 compute with dataflow (flops, op, region, dtype, scalar, op class, and
//             two dependences as distances back in events, 0 = none),
//             7 as 6 followed by the flops of masked-off vector lanes (varint).
// Events (accesses and computes) are numbered from 1 in file order; the
// dependences name them (Access::dep, Compute::dep).
// Version 2 added subtypes 4 and 5, version 3 bit 6 and subtype 6, version
// 4 bit 7, version 5 subtype 7; older files are read as before.
// Sequential streams cost 2-3 bytes per access.
#include <cstdio>

#include "sim/trace/byte_source.h"
#include "sim/trace/trace_format.h"

namespace ptosim {

constexpr char kNativeMagic[8] = {'P', 'T', 'O', 'T', 'R', 'A', 'C', 'E'};
constexpr uint32_t kNativeVersion = 5;

void read_native(ByteSource& in, EventSink& sink, TraceCounts& counts, const TraceRules& rules = {});

class NativeWriter : public TraceWriter {
 public:
  explicit NativeWriter(FILE* out);
  void access(const Access& a) override;
  void compute(const Compute& c) override;
  void barrier(bool parallel) override;
  void name_tensor(TagId id, const std::string& name) override { meta_name(2, id, name); }
  void name_region(TagId id, const std::string& name) override { meta_name(3, id, name); }
  void close() override {}

 private:
  void varint(uint64_t v);
  void meta_name(int subtype, TagId id, const std::string& name);
  void set_core(CoreId core);
  FILE* out_;
  uint64_t last_addr_ = 0, last_size_ = 0;
  SpaceId space_ = 0;
  TagId tensor_ = 0, region_ = 0;
  CoreId core_ = 0;
  uint32_t seq_ = 0;  // events written, the last one's number
};

}  // namespace ptosim
