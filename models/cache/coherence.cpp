// The MESI directory of coherence.h: what a core's request does to the
// other cores' copies, and what it costs.
#include "models/cache/coherence.h"

#include <algorithm>
#include <cstring>

#include "models/cache/cache_level.h"

namespace ptosim {

uint64_t touch_mask(uint64_t addr, uint64_t bytes, uint32_t line_shift) {
  const uint64_t line = uint64_t(1) << line_shift;
  const uint32_t unit_shift = line_shift > 6 ? line_shift - 6 : 0;  // bytes per bit, log2
  const uint64_t lo = (addr & (line - 1)) >> unit_shift;
  const uint64_t end = std::min(line, (addr & (line - 1)) + (bytes ? bytes : 1));
  const uint64_t hi = (end - 1) >> unit_shift;  // inclusive
  const uint64_t upto = hi >= 63 ? ~0ull : (uint64_t(1) << (hi + 1)) - 1;
  return upto & ~((uint64_t(1) << lo) - 1);
}

// What core c's last private level sends below.
class Coherence::Port final : public MemPort {
 public:
  Port(Coherence& c, CoreId core) : c_(c), core_(core) {}
  uint64_t access(const MemRequest& r, uint64_t at) override { return c_.request(core_, r, at); }
  void control(AccessKind kind, uint64_t addr, uint64_t bytes, uint64_t at) override {
    c_.below_->control(kind, addr, bytes, at);
  }
  void poke(uint64_t addr, uint64_t bytes, const uint8_t* data) override { c_.below_->poke(addr, bytes, data); }

 private:
  Coherence& c_;
  CoreId core_;
};

Coherence::Coherence(uint32_t cores, uint32_t line_bytes, uint64_t latency_fs, uint64_t fs_per_byte,
                     uint32_t message_bytes)
    : line_bytes_(line_bytes),
      line_shift_(0),
      latency_fs_(latency_fs),
      message_bytes_(message_bytes),
      levels_(cores),
      counters_(cores),
      port_(Fs(fs_per_byte), true) {  // the cores reach it out of time order (busy_calendar.h)
  while ((1u << line_shift_) < line_bytes) ++line_shift_;
  for (uint32_t c = 0; c < cores; ++c) ports_.push_back(std::make_unique<Port>(*this, CoreId(c)));
}

Coherence::~Coherence() = default;

MemPort& Coherence::port(CoreId c) { return *ports_.at(c); }

void Coherence::add_level(CoreId c, CacheLevel* level) {
  levels_.at(c).push_back(level);
  level->attach_coherence(this, c);
}

template <class F>
void Coherence::each_copy(CoreId c, uint64_t line, F&& f) const {
  const uint64_t lo = line << line_shift_, hi = lo + line_bytes_;
  for (CacheLevel* l : levels_[c]) {
    const uint32_t shift = uint32_t(__builtin_ctz(l->config().line));
    const uint64_t step = std::min<uint64_t>(l->config().line, line_bytes_);
    for (uint64_t a = lo; a < hi; a += step) f(l, a >> shift);
  }
}

bool Coherence::holds(CoreId c, uint64_t line) const {
  // Asked at every eviction from a private level (left()): the first copy
  // found answers, without looking at the rest (each_copy visits them all).
  const uint64_t lo = line << line_shift_, hi = lo + line_bytes_;
  for (CacheLevel* l : levels_[c]) {
    const uint64_t step = std::min<uint64_t>(l->config().line, line_bytes_);
    for (uint64_t a = lo; a < hi; a += step)
      if (l->contains(a)) return true;
  }
  return false;
}

uint64_t Coherence::round_trip(CoreId c, Entry& e, uint32_t cores, uint64_t at) {
  const uint64_t messages = 1 + 2 * uint64_t(cores);  // the request; to each core and its answer back
  const uint64_t start = port_.reserve(std::max(at, e.busy_until), messages * message_bytes_);
  const uint64_t done = start + port_.transfer(messages * message_bytes_) + latency_fs_;
  e.busy_until = done;
  counters_[c].stall_fs += done - at;
  return done;
}

void Coherence::snoop_writeback(CoreId d, uint64_t line, uint64_t at) {
  ++counters_[d].snoop_writebacks;
  counters_[d].bytes_below += line_bytes_;
  MemRequest w{line << line_shift_, line_bytes_, true};
  w.writeback = true;
  if (!line_buf_.empty()) w.data = line_buf_.data();
  below_->access(w, at);
}

uint64_t Coherence::peer_transfer(CoreId c, const MemRequest& r, uint64_t at) {
  ++counters_[c].cache_to_cache;
  if (r.data && !line_buf_.empty())
    std::memcpy(r.data, line_buf_.data() + (r.addr & (line_bytes_ - 1)), r.bytes);
  const uint64_t start = port_.reserve(at, line_bytes_);
  const uint64_t done = start + port_.transfer(line_bytes_);
  counters_[c].stall_fs += done - at;
  return done;
}

bool Coherence::copy_line(CoreId d, uint64_t line) {
  if (line_buf_.empty()) return false;
  const uint64_t base = line << line_shift_;
  for (CacheLevel* l : levels_[d])  // nearest first: the nearest copy is the newest
    if (l->contains(base)) {
      for (uint32_t i = 0; i < line_bytes_; ++i) l->peek(base + i, &line_buf_[i]);
      return true;
    }
  return false;
}

Coherence::Touch Coherence::touch(Entry& e, CoreId c, uint64_t mask, TagId tensor, SiteId site) {
  Touch* t = nullptr;
  for (Touch& x : e.touches)
    if (x.core == c) t = &x;
  if (!t) {
    // Room for a few holders at once: growing one at a time reallocated and
    // copied the touches on most requests for a line several cores read.
    if (e.touches.empty()) e.touches.reserve(4);
    e.touches.push_back(Touch{});
    t = &e.touches.back();
    t->core = c;
  }
  t->mask |= mask;
  if (tensor) t->tensor = tensor;
  if (site) t->site = site;
  return *t;
}

Coherence::Touch Coherence::forget(Entry& e, CoreId c) {
  for (size_t i = 0; i < e.touches.size(); ++i)
    if (e.touches[i].core == c) {
      const Touch t = e.touches[i];
      e.touches[i] = e.touches.back();
      e.touches.pop_back();
      return t;
    }
  return Touch{};
}

void Coherence::record_sharing(uint64_t line, bool false_sharing, const Touch& writer, const Touch& victim) {
  SharedLine& s = shared_lines_[line];
  s.line = line;
  ++(false_sharing ? s.false_invalidations : s.true_invalidations);
  for (const Touch* t : {&writer, &victim}) {
    if (t->tensor && s.tensors.size() < 4 && std::find(s.tensors.begin(), s.tensors.end(), t->tensor) == s.tensors.end())
      s.tensors.push_back(t->tensor);
    if (t->site && s.sites.size() < 4 && std::find(s.sites.begin(), s.sites.end(), t->site) == s.sites.end())
      s.sites.push_back(t->site);
  }
}

uint32_t Coherence::invalidate_others(CoreId c, uint64_t line, Entry& e, const Touch& mine, uint64_t at) {
  uint32_t reached = 0;
  std::bitset<kMaxCores> others = e.holders;  // none(), not count(): see one_holder
  others.reset(c);
  if (others.none()) return 0;
  for (size_t d = e.holders._Find_first(); d < kMaxCores; d = e.holders._Find_next(d)) {
    if (d == c) continue;
    e.holders.reset(d);
    const Touch theirs = forget(e, CoreId(d));
    copy_line(CoreId(d), line);  // with data: its bytes, for a snoop writeback or a cache-to-cache fill
    bool dirty = false, had = false;
    each_copy(CoreId(d), line, [&](CacheLevel* l, uint64_t own) {
      bool dd = false;
      had |= l->coherence_invalidate(own, &dd);
      dirty |= dd;
    });
    if (!had) continue;  // it let the line go without the directory hearing
    ++reached;
    ++counters_[c].invalidations_sent;
    ++counters_[d].invalidations_received;
    if (dirty) snoop_writeback(CoreId(d), line, at);
    if (theirs.mask && mine.mask) record_sharing(line, (theirs.mask & mine.mask) == 0, mine, theirs);
  }
  return reached;
}

uint64_t Coherence::request(CoreId c, const MemRequest& r, uint64_t at) {
  CoherenceCounters& k = counters_[c];
  if (r.write && r.writeback) {  // a dirty line of this core going down
    k.bytes_below += r.bytes;
    return below_->access(r, at);
  }
  ++k.requests;
  const uint64_t line = r.addr >> line_shift_;
  Entry& e = dir_[line];
  uint64_t t = at;
  if (!r.write && !r.rfo) {  // GetS
    bool from_peer = false;
    // The holders' bits, not every core's (most lines have one holder or none).
    for (size_t d = e.holders._Find_first(); d < kMaxCores; d = e.holders._Find_next(d)) {
      if (d == c) continue;
      if (!holds(CoreId(d), line)) {  // it let the line go without the directory hearing
        e.holders.reset(d);
        forget(e, CoreId(d));
        continue;
      }
      if (!e.exclusive) continue;
      // The owner keeps a shared, clean copy; its dirty bytes go below first.
      ++k.interventions;
      if (copy_line(CoreId(d), line))  // with data: every copy of the owner takes its newest bytes
        for (CacheLevel* l : levels_[d]) l->overwrite(line << line_shift_, line_bytes_, line_buf_.data());
      bool dirty = false;
      each_copy(CoreId(d), line, [&](CacheLevel* l, uint64_t own) { dirty |= l->coherence_clean(own); });
      if (dirty) snoop_writeback(CoreId(d), line, at);
      t = round_trip(c, e, 1, at);
      from_peer = true;
    }
    e.holders.set(c);
    e.exclusive = one_holder(e);
    touch(e, c, r.touch, r.tensor, r.site);
    if (from_peer) return peer_transfer(c, r, t);
    k.bytes_below += r.bytes;
    return below_->access(r, t);
  }
  // GetM: a fill for a write, or a write no private level keeps.
  const bool owned = r.rfo && other_owner(c, e);  // a fill another core's E/M copy can serve
  const Touch mine = touch(e, c, r.rfo ? r.touch : touch_mask(r.addr, r.bytes, line_shift_), r.tensor, r.site);
  const uint32_t reached = invalidate_others(c, line, e, mine, at);
  if (reached) t = round_trip(c, e, reached, at);
  e.holders.set(c);
  e.exclusive = true;
  if (owned && reached) return peer_transfer(c, r, t);
  k.bytes_below += r.bytes;
  const uint64_t done = below_->access(r, t);
  if (r.write && !holds(c, line)) left(c, r.addr);  // written through, kept nowhere
  return done;
}

uint64_t Coherence::write(CoreId c, uint64_t addr, uint64_t bytes, TagId tensor, SiteId site, uint64_t at) {
  const uint64_t line = addr >> line_shift_;
  auto it = dir_.find(line);
  if (it != dir_.end() && it->second.exclusive && it->second.holders.test(c)) return at;  // E or M: silent
  Entry& e = it != dir_.end() ? it->second : dir_[line];
  const bool shared = e.holders.test(c);  // S: an upgrade
  const Touch mine = touch(e, c, touch_mask(addr, bytes, line_shift_), tensor, site);
  const uint32_t reached = invalidate_others(c, line, e, mine, at);
  uint64_t t = at;
  if (shared) {
    ++counters_[c].upgrades;
    ++counters_[c].requests;
    t = round_trip(c, e, reached, at);  // the directory is asked even when no other core holds the line now
  } else if (reached) {
    t = round_trip(c, e, reached, at);
  }
  e.holders.set(c);
  e.exclusive = true;
  return t;
}

void Coherence::left(CoreId c, uint64_t addr) {
  const uint64_t line = addr >> line_shift_;
  if (holds(c, line)) return;
  auto it = dir_.find(line);
  if (it == dir_.end() || !it->second.holders.test(c)) return;
  it->second.holders.reset(c);
  forget(it->second, c);
  if (it->second.holders.none()) dir_.erase(it);
}

void Coherence::kept(CoreId c, uint64_t addr) {
  Entry& e = dir_[addr >> line_shift_];
  if (e.holders.test(c)) return;
  e.holders.set(c);
  e.exclusive = one_holder(e);
}

CoherenceCounters Coherence::total() const {
  CoherenceCounters t;
  for (const CoherenceCounters& k : counters_) t += k;
  return t;
}

std::vector<SharedLine> Coherence::false_sharing(size_t n) const {
  std::vector<SharedLine> lines;
  for (auto& [line, s] : shared_lines_)
    if (s.false_invalidations) lines.push_back(s);
  std::sort(lines.begin(), lines.end(), [](const SharedLine& a, const SharedLine& b) {
    return a.false_invalidations != b.false_invalidations ? a.false_invalidations > b.false_invalidations
                                                          : a.line < b.line;
  });
  if (lines.size() > n) lines.resize(n);
  return lines;
}

}  // namespace ptosim
