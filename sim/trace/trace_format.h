#pragma once
// Trace files: the event stream written down. Two formats:
//  - din: Dinero IV's extended text format, one access per line:
//    `<type> <hexaddr> [<hexsize>]`, type r|w|i (or classic 0|1|2), `0x`
//    optional, size hex and optional (default 1). Other types are counted and
//    skipped. Only the global space fits in it.
//  - native: "PTOTRACE" + version, then compact binary records carrying
//    every field of an event (space, tensor, region, compute, names).
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "sim/trace/event.h"

namespace ptosim {

enum class TraceFormat { Din, Native };

struct TraceCounts {
  uint64_t records = 0;  // accesses delivered
  uint64_t reads = 0, writes = 0, fetches = 0;
  uint64_t compute = 0;
  std::map<std::string, uint64_t> skipped;  // din types other than r w i, by type
  uint64_t dropped_non_global = 0;          // accesses a din writer could not express
};

// Streams the trace at `path` ("-" = stdin) into `sink`, detecting the format
// by its first bytes. Throws InputError("path:line: ...") on a malformed record.
TraceCounts replay_trace(const std::string& path, EventSink& sink);

// "din" or "native" from a name ("x.din", "x.ptt"/"x.trace"), for writers.
TraceFormat format_for_path(const std::string& path);

// A sink that writes a trace. close() must be called; before it, the file is
// written under a temporary name so that a failed run leaves no partial file.
class TraceWriter : public EventSink {
 public:
  static std::unique_ptr<TraceWriter> open(const std::string& path, TraceFormat format);
  virtual void close() = 0;
  const TraceCounts& counts() const { return counts_; }

 protected:
  TraceCounts counts_;
};

}  // namespace ptosim
