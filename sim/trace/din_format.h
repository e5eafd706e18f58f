#pragma once
#include <cstdio>

#include "sim/trace/byte_source.h"
#include "sim/trace/trace_format.h"

namespace ptosim {

void read_din(ByteSource& in, EventSink& sink, TraceCounts& counts, const TraceRules& rules = {});

// The general (strict) parser of one din line [p, e), without its newline:
// true with `a` set for an access; false for a blank, comment or other-type
// line (counted in counts.skipped); InputError with path:line:col otherwise.
bool parse_din_line(const char* p, const char* e, const std::string& path, uint64_t line, Access& a,
                    TraceCounts& counts);

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
