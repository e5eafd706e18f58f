#pragma once
#include <cstdio>

#include "sim/trace/byte_source.h"
#include "sim/trace/trace_format.h"

namespace ptosim {

void read_din(ByteSource& in, EventSink& sink, TraceCounts& counts);

class DinWriter : public TraceWriter {
 public:
  explicit DinWriter(FILE* out) : out_(out) {}
  void access(const Access& a) override;
  void compute(const Compute&) override { ++counts_.compute; }  // din has no compute records
  void close() override {}

 private:
  FILE* out_;
};

}  // namespace ptosim
