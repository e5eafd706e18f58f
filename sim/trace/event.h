#pragma once
// The one contract between producers of memory traffic (trace readers, the
// PTO frontend) and its consumers (the simulated hierarchy, trace writers).
// Events are pushed one at a time into an EventSink; nothing is materialised.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "sim/common/ids.h"

namespace ptosim {

// Fill: a host-side write that initialises a read-only memory (a pto.load or
// copy into `constant`); any other write to a read-only memory is an error.
// Misc, Copyback and Invalidate are Dinero IV's din records `m`, `c`, `v`
// (replayed traces only): Misc is a read that starts no prefetch; Copyback
// writes the dirty line holding `addr` below at every cache level, the
// whole cache when `bytes` is 0; Invalidate drops the line holding `addr`
// (or everything, `bytes` 0) at every level without writing it back. Both
// are requests to the caches, not accesses of the core: they count in no
// level's reads or writes. Bit 0 says write for the kinds up to Misc (the
// caches' fast path reads it); the kinds after Misc are not accesses.
enum class AccessKind : uint8_t { Read = 0, Write = 1, Fetch = 2, Fill = 3, Misc = 4, Copyback = 5, Invalidate = 6 };
// Whether `k` is a cache-control record (Copyback, Invalidate) rather than an access.
inline bool is_control(AccessKind k) { return uint8_t(k) > uint8_t(AccessKind::Misc); }

// The most one access of a trace may cover: a cache splits an access per
// line, so a size near 2^64 would never end. No program's event comes near.
constexpr uint64_t kMaxAccessBytes = 1ull << 30;
// Whether [addr, addr + bytes) is an access a trace may hold.
inline bool access_in_range(uint64_t addr, uint64_t bytes) {
  return bytes <= kMaxAccessBytes && addr + (bytes ? bytes - 1 : 0) >= addr;
}

struct Access {
  uint64_t addr = 0;
  uint64_t bytes = 0;  // may span many lines (a tile row, a burst): consumers split
  AccessKind kind = AccessKind::Read;
  SpaceId space = kGlobalSpace;
  TagId tensor = 0;
  TagId region = 0;
  // The program statement that issued it (0 = none, e.g. a replayed trace):
  // a dense id the producer names with EventSink::name_site before first use.
  // It fits the padding, so attribution costs the pipe nothing; right after
  // `region`, so that one 32-bit compare tells where a run of one (region,
  // site) ends (see site_and_region()).
  SiteId site = 0;
  CoreId core = 0;  // the core that issues it (pto.parallel); fits the padding too
  // Strided pattern (scratchpads only, for the bank model): `bytes` is
  // elem_bytes x count, elements `stride` bytes apart from addr. 0 = contiguous.
  // One byte: an element (a dtype) is at most 8 bytes; a trace's at most 255.
  uint8_t elem_bytes = 0;
  // Dataflow (docs/TIMING.md, core model `cpu`): the number of the event
  // whose result this access waits for (a load: its address; a store: its
  // data); 0 = none. Events are numbered 1, 2, ... in stream order,
  // accesses and computes alike; the number itself is implicit (and wraps
  // at 2^32: an event numbered 0 cannot be waited for).
  uint32_t dep = 0;
  int64_t stride = 0;
};
static_assert(sizeof(Access) == 40, "the event pipe's chunks hold Access objects: keep them small");
static_assert(offsetof(Access, site) == offsetof(Access, region) + sizeof(TagId), "region and site adjacent");
// Region and site of an access as one word (attribution cuts runs where it changes).
inline uint32_t site_and_region(const Access& a) {
  uint32_t w;
  std::memcpy(&w, &a.region, sizeof w);
  return w;
}

// Compute work. op names a row of the flop cost table (config `ops:`); the
// producer has already multiplied element counts by the per-element cost.
struct Compute {
  uint64_t flops = 0;
  uint16_t op = 0;  // index into OpCostTable, for per-op reporting
  TagId region = 0;
  CoreId core = 0;
  // Dataflow (core model `cpu`): `scalar` = `scalar` instructions of the
  // program's own arithmetic (0: a tensor op's bulk work), dtype its
  // element type (exec::DType), dep the events whose results it uses. A
  // loop iteration (op_class Int, no flops): `scalar` = its induction
  // streams, the index or pointer registers a compiler steps (one per
  // distinct address stride of the iteration's accesses, at least one:
  // the counter); the core dispatches loop_uops + scalar - 1 instructions.
  uint8_t dtype = 0;
  uint8_t scalar = 0;
  uint8_t op_class = 0;  // OpClass (sim/config/op_timing.h): which latency and unit
  uint32_t dep[2] = {0, 0};
  SiteId site = 0;  // the statement (as Access::site); last, after the dataflow fields
  // The flops of vector lanes issued but masked off: a register block or a
  // vector narrower than the vector unit's lanes still takes whole
  // instructions. Time, not work: `flops` (the program's work, the roofline's)
  // leaves them out, the core models' issue and unit time count them.
  uint32_t masked = 0;

  uint64_t issued() const { return flops + masked; }
};
static_assert(sizeof(Compute) == 32, "the event pipe and the cores' queues hold Compute objects: keep them small");

// Slots a sink lends its producer so that accesses are written in place,
// with no virtual call and no copy: a producer may fill *next and advance
// it while next + 1 < end; the last slot goes through access(), which hands
// the full buffer on and renews the lane.
struct AccessLane {
  Access* next = nullptr;
  Access* end = nullptr;
};

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void access(const Access& a) = 0;
  // A run of consecutive accesses (what a producer's buffer holds): the same
  // as access() on each in order, for sinks that can do better in a loop.
  virtual void accesses(const Access* a, size_t n) {
    for (size_t i = 0; i < n; ++i) access(a[i]);
  }
  virtual void compute(const Compute& c) = 0;
  // The sink's lane, or null when it has none; valid for the sink's life.
  virtual AccessLane* lane() { return nullptr; }
  // Every core waits until all have issued everything before this point and
  // their data is there (the edges of a pto.parallel loop). `parallel`:
  // whether the cores run in parallel after it (a loop begins) or only
  // core 0 does (the loop ended).
  virtual void barrier(bool parallel) { (void)parallel; }
  // Names for ids used in later events; called before the first use.
  virtual void name_tensor(TagId id, const std::string& name) { (void)id; (void)name; }
  virtual void name_region(TagId id, const std::string& name) { (void)id; (void)name; }
  // Site `id` is line `line` of the program (for per-line attribution).
  virtual void name_site(SiteId id, uint32_t line) { (void)id; (void)line; }
  // An op of the program (pto.load, pto.matmul, ...) begins or ends on
  // `core`; the events in between are its own (the timeline draws it as a
  // slice). `id` is named by name_op before its first use. Producers send
  // these only when asked (ExecContext::enable_op_marks): nothing else needs them.
  virtual void name_op(uint16_t id, const std::string& name) { (void)id; (void)name; }
  virtual void op_mark(uint16_t id, bool begin, CoreId core) { (void)id; (void)begin; (void)core; }
  // Bytes now allocated in `space` (after an allocation or a release), for
  // the footprint over time; sinks that keep no time ignore it.
  virtual void footprint(SpaceId space, uint64_t bytes_in_use) { (void)space; (void)bytes_in_use; }
  // End of stream: flush buffers, finish timing.
  virtual void finish() {}
  // Delivers every event sent so far and returns once the model has
  // simulated them, so that the producer may read the model's counters until
  // it sends the next event (pto.MemoryProfiler). False: this sink has no
  // model behind it (a trace writer).
  virtual bool settle() { return false; }

  // ---- --check-data (docs/CACHES.md, "Data-integrity mode") ----
  // Sinks that keep no data ignore all of these (access_data is access).
  // An access with the bytes it stores: a write or fill, `data` holding
  // max(a.bytes, 1) bytes (a strided access: its elements in order).
  virtual void access_data(const Access& a, const uint8_t* data) {
    (void)data;
    access(a);
  }
  // The host sets [a.addr, a.addr + a.bytes) of a.space outside the timing
  // model (a tensor's initial values): every copy takes the bytes, nothing
  // is counted. a.core orders it among that core's events.
  virtual void host_write(const Access& a, const uint8_t* data) { (void)a, (void)data; }
  // At the end, after the flush, that range must hold `data` (the functional
  // executor's memory); a.tensor says whose it is.
  virtual void expect(const Access& a, const uint8_t* data) { (void)a, (void)data; }
  // Where the following events come from (a program's statement).
  virtual void position(const std::string& file, int line, int col) { (void)file, (void)line, (void)col; }
  // Consumer side of the event pipe: the bytes of the writes it delivers
  // next (a chunk's, before its accesses), in order; each write's
  // max(bytes, 1) are the next ones.
  virtual void write_data(const uint8_t* data, size_t n) { (void)data, (void)n; }
};

}  // namespace ptosim
