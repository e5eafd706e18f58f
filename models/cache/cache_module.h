#pragma once
// A cache level in time: a TLM target above, an initiator below, the exact
// CacheLevel logic inside. A request waits for the port ("busy until"), pays
// the hit latency, and a miss adds the time of the fill from below. MSHRs:
// a request for a line whose fill is still on its way waits for that fill
// (a merge: nothing goes below twice), and a miss that finds every MSHR busy
// waits for the earliest to free. Writebacks and write-throughs are posted:
// they occupy the levels below but the requester does not wait for them.
#include <systemc>
#include <tlm>
#include <vector>

#include "models/cache/cache_level.h"
#include "models/cache/level_report.h"
#include "models/core/completion_window.h"
#include "models/system/access_tags.h"
#include "models/system/target_base.h"

namespace ptosim {

class CacheModule : public sc_core::sc_module, public LtTarget, public LtInitiator, private MemPort {
 public:
  TargetSocket up;
  tlm::tlm_initiator_socket<> down;

  CacheModule(sc_core::sc_module_name name, const CacheConfig& config, double clock_hz);

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  // The same without TLM: a request arriving at absolute time `arrive` (fs)
  // while the kernel's time is `now` (fs); returns when its data is there.
  uint64_t access_at(const MemRequest& r, uint64_t arrive, uint64_t now);
  // The hit fast path of access_at: true (and *done) only if `r` hits in one
  // line and needs nothing from below; otherwise nothing has changed.
  bool try_hit_at(const MemRequest& r, uint64_t arrive, uint64_t* done) {
    uint64_t slot;
    if (!logic_->try_hit(r, &slot)) return false;
    const uint64_t start = arrive > busy_until_ ? arrive : busy_until_;
    const uint64_t busy = busy_for(r.bytes);
    busy_until_ = start + busy;
    busy_total_ += busy;
    uint64_t d = start + latency_fs_;
    if (ready_[slot] > d) {  // the line's fill is still on its way: merge
      d = ready_[slot];
      ++merges_;
    }
    latency_sum_ += d - arrive;
    ++requests_;
    *done = d;
    return true;
  }

  // The level below is a CacheModule too (bound to `down`): call it directly,
  // as the core calls L1, instead of converting times for a TLM call.
  void set_direct_below(CacheModule* below) { direct_below_ = below; }

  CacheLevel& logic() { return *logic_; }
  const CacheLevel& logic() const { return *logic_; }
  uint64_t hit_latency_fs() const { return latency_fs_; }
  // Writes back every dirty line; `at` is the offset from now at which it happens.
  void flush(const sc_core::sc_time& at);
  void report(StatsNode& parent, const TagNames& names, double seconds) const;

 private:
  // The port time of `bytes`; the last answer is kept (sizes repeat).
  uint64_t busy_for(uint64_t bytes) {
    if (bytes != busy_bytes_) {
      busy_bytes_ = bytes;
      busy_fs_ = uint64_t(double(bytes) * fs_per_byte_);
    }
    return busy_fs_;
  }
  void request(const MemRequest& r) override;  // what the logic sends below
  uint64_t send(const MemRequest& r, uint64_t at);

  std::unique_ptr<CacheLevel> logic_;
  uint64_t latency_fs_;
  double fs_per_byte_;
  uint64_t busy_until_ = 0, busy_total_ = 0;  // fs
  uint64_t busy_bytes_ = ~0ull, busy_fs_ = 0;  // busy_for()'s last answer (none yet)
  std::vector<uint64_t> ready_;  // per slot: when the line's fill arrives (fs)
  CompletionWindow mshrs_;
  uint64_t now_ = 0;             // kernel time of the request being served
  uint64_t fill_done_ = 0;       // latest fill completion of that request
  uint64_t issue_ = 0;           // when that request's misses go below
  TaggedPayload below_;
  CacheModule* direct_below_ = nullptr;
  uint64_t latency_sum_ = 0, requests_ = 0, merges_ = 0, mshr_stalls_ = 0;
  double clock_hz_;
};

}  // namespace ptosim
