#pragma once
// Trace files: the event stream written down. Two formats:
//  - din: Dinero IV's extended text format, one record per line:
//    `<type> <hexaddr> [<hexsize> [anything]]`, type r|w|i|m|c|v (either
//    case, or Dinero III's numbers 0-5), `0x` optional, size hex and
//    optional (default 1; 0 on c and v: the whole cache), the rest of the
//    line ignored. Other types are counted and skipped. Only the global
//    space fits in it.
//  - native: "PTOTRACE" + version, then compact binary records carrying
//    every field of an event (space, tensor, region, compute, names).
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/trace/event.h"

namespace ptosim {

enum class TraceFormat { Din, Native };

struct TraceCounts {
  uint64_t records = 0;  // accesses delivered
  uint64_t reads = 0, writes = 0, fetches = 0;
  uint64_t misc = 0, copybacks = 0, invalidates = 0;  // din's m, c, v records
  uint64_t compute = 0;
  std::map<std::string, uint64_t> skipped;  // din types other than r w i, by type
  uint64_t dropped_non_global = 0;          // accesses a din writer could not express
  // hash_file() of the trace, computed while it was read (ByteSource::file_hash):
  // "" when it is not a regular file or was not read to its end.
  std::string source_hash;
};

// What the config that replays a trace accepts. The readers check every
// access against it, so that a trace that does not fit the config fails at
// its line (din) or byte (native) rather than somewhere in the simulation.
struct TraceRules {
  uint32_t cores = kMaxCores;
  // Per space id: its name, and whether it takes writes. Empty: any space
  // id, all writable (converting a trace needs no config).
  std::vector<std::string> spaces;
  std::vector<bool> writable;

  bool fits(const Access& a) const {
    if (a.core >= cores) return false;
    if (spaces.empty()) return true;
    if (a.space >= spaces.size()) return false;
    return writable[a.space] || a.kind != AccessKind::Write;  // a fill loads a read-only memory
  }
  // Why `a` does not fit.
  std::string why_not(const Access& a) const;
};

// Streams the trace at `path` ("-" = stdin) into `sink`, detecting the format
// by its first bytes. Throws InputError("path:line: ...") on a malformed
// record or one that `rules` refuse.
TraceCounts replay_trace(const std::string& path, EventSink& sink, const TraceRules& rules = {});

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
