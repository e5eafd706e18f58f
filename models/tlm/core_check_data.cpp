// CoreModule's --check-data path (core_module.h, docs/CACHES.md
// "Data-integrity mode"): every access one at a time with its bytes, reads
// compared with the checker's shadow, host writes to every copy.
#include <sstream>

#include "models/cache/cache_level.h"
#include "models/cache/data_checker.h"
#include "models/tlm/core_module.h"
#include "sim/common/error.h"

namespace ptosim {

using sc_core::sc_time;

void CoreModule::checked(const Access& a, bool host, const uint8_t* host_data) {
  clock(a.core);  // a core the config does not have is an error before anything is queued
  Pending& p = parallel_ ? pending_[a.core].emplace_back() : scratch_;  // scratch_: no allocation per access
  p.position = checker_->current_position();
  if (host) p.bytes.assign(host_data, host_data + a.bytes);
  else if (a.kind == AccessKind::Write || a.kind == AccessKind::Fill) checker_->take_write(a, p.bytes);
  p.seq = host || !dataflow_ ? 0 : ++seq_;  // host writes are not events of the program
  if (!parallel_) return issue_checked(a, host, p);
  Queued q{Queued::AccessEvent, a, Compute{}, p.seq};
  q.host = host;
  enqueue(q);
}

const DataRoute& CoreModule::data_route(SpaceId space) const {
  if (space >= data_routes_.size() || space >= routes_.size() || !routes_[space].socket) {
    std::ostringstream m;
    m << "access to space id " << space << " which this config does not map";
    throw InputError(m.str());
  }
  return data_routes_[space];
}

void CoreModule::issue_checked(const Access& a, bool host, Pending& p) {
  checker_->set_position(p.position);
  const DataRoute& d = data_route(a.space);
  if (host) {
    model_->settle(clock(a.core));  // the program's stores before it land first
    checker_->wrote(d.store, a, p.bytes.data());
    const Route& r = routes_[a.space];
    if (!r.per_core.empty()) {  // a private first level: every core's copies take the bytes
      for (CacheLevel* l : r.per_core) l->poke(a.addr, a.bytes, p.bytes.data());
    } else if (r.cache) {
      r.cache->poke(a.addr, a.bytes, p.bytes.data());
    } else {
      tlm::tlm_generic_payload& t = payload_.set(a.addr, a.bytes, true, a.tensor, a.region);
      t.set_data_ptr(p.bytes.data());
      (*r.socket)->transport_dbg(t);
      t.set_data_ptr(nullptr);
    }
    return;
  }
  if (a.kind == AccessKind::Write || a.kind == AccessKind::Fill) {
    checker_->wrote(d.store, a, p.bytes.data());
    issue_now(a, p.seq, p.bytes.data());
  } else {
    // The first level that holds the first byte's line now serves it; the
    // ones before it miss and fill (a broken fill is in one of them).
    const std::vector<const CacheLevel*>& levels = d.levels_of(a.core);
    size_t server = 0;
    while (server < levels.size() && !levels[server]->contains(a.addr)) ++server;
    read_buf_.assign(a.bytes ? a.bytes : 1, 0);
    // The cpu model forwards a load (or a line of it) from its store queue
    // without a memory access: those bytes are the last store's.
    if (dataflow_) checker_->shadow_bytes(d.store, a, read_buf_.data());
    memory_used_ = false;
    issue_now(a, p.seq, read_buf_.data());
    const bool forwarded = dataflow_ && !memory_used_;
    if (!forwarded && !checker_->read_matches(d.store, a, read_buf_.data())) {
      std::string served = server < levels.size() ? levels[server]->config().name : d.last, missed;
      for (size_t i = 0; i < server; ++i) missed += (i ? ", " : "") + levels[i]->config().name;
      if (d.per_core.size() > 1) served += " of core " + std::to_string(a.core);
      if (!missed.empty()) served += " (missed in " + missed + ")";
      checker_->mismatch(a, read_buf_.data(), routes_[a.space].space, served);
    }
  }
  checker_->issued();
}

void CoreModule::discard_data(const Access& a) {
  const DataRoute& d = data_route(a.space);
  // Every level drops the line holding addr, each by its own line size
  // (powers of two, so the largest covers the others).
  uint64_t line = 1;
  const std::vector<const CacheLevel*>& levels = d.levels_of(a.core);
  for (const CacheLevel* l : levels) line = std::max<uint64_t>(line, l->config().line);
  const uint64_t at = a.bytes ? a.addr & ~(line - 1) : 0, bytes = a.bytes ? line : 0;
  const ByteStore* below = checker_->actual(d.store);
  checker_->discarded(d.store, at, bytes, [&](uint64_t addr) {
    uint8_t b = 0;
    for (const CacheLevel* l : levels)
      if (l->peek(addr, &b)) return b;
    if (below) below->read(addr, 1, &b);
    return b;
  });
}

void CoreModule::host_write(const Access& a, const uint8_t* data) {
  if (checker_) checked(a, true, data);
}

void CoreModule::expect(const Access& a, const uint8_t* data) {
  if (!checker_) return;
  for (CoreClock& k : clocks_) model_->settle(k);  // what it checks includes every store
  const DataRoute& d = data_route(a.space);
  checker_->expect(d.store, a, data, a.tensor < names_.tensors.size() ? names_.tensors[a.tensor] : "?",
                   routes_[a.space].space);
}

void CoreModule::position(const std::string& file, int line, int col) {
  if (checker_) checker_->position(file, line, col);
}

void CoreModule::write_data(const uint8_t* data, size_t n) {
  if (checker_) checker_->write_data(data, n);
}
}  // namespace ptosim
