#pragma once
// A deliberately simple model of a cache hierarchy for differential testing:
// every set is a vector of ways scanned in full, every policy is written out
// from its definition, the 3C shadow is a std::list, and nothing is optimised.
#include <list>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/report/level_stats.h"
#include "models/cache/replacement/random.h"
#include "sim/config/hw_config.h"

namespace ptosim::test {

class RefLevel {
 public:
  struct Way {
    bool valid = false;
    uint64_t line = 0;
    bool dirty = false;
    uint64_t last_use = 0, filled = 0;
    int rrpv = 3;
    TagId tensor = 0, region = 0;
  };

  RefLevel(const CacheConfig& c) : c_(c), sets_(c.sets(), std::vector<Way>(c.ways)), plru_(c.sets()), rng_(c.seed) {
    // The policies written out below (victim, touch, flush order). A policy
    // registered without its twin here fails every differential test loudly
    // instead of being compared against some other policy.
    for (const char* twin : {"lru", "fifo", "random", "plru", "srrip"})
      if (c.replacement == twin) return;
    throw std::logic_error("reference_cache.h has no twin of replacement policy '" + c.replacement +
                           "': write one (victim, touch, flush order) before registering the policy");
  }

  RefLevel* below = nullptr;            // null: main memory
  LevelStats* memory = nullptr;         // counts what reaches main memory
  std::vector<RefLevel*> above;         // for inclusive back-invalidation
  LevelStats stats;

  void request(uint64_t addr, uint64_t bytes, bool write, TagId tensor, TagId region) {
    if (bytes == 0) bytes = 1;
    for (uint64_t a = addr; a < addr + bytes;) {
      uint64_t line = a / c_.line;
      uint64_t end = std::min(addr + bytes, (line + 1) * c_.line);
      one_line(line, a, end - a, write, tensor, region);
      a = end;
    }
  }

  // Dinero IV's whole-cache copyback: the last set first; in a set the
  // least recently used (lru), first filled (fifo) or lowest way (others) first.
  void flush() {
    std::vector<uint64_t> dirty;
    for (size_t s = sets_.size(); s-- > 0;) {
      std::vector<const Way*> ways;
      for (auto& w : sets_[s]) ways.push_back(&w);
      const std::string& p = c_.replacement;
      if (p == "lru" || p == "fifo")
        std::stable_sort(ways.begin(), ways.end(), [&](const Way* a, const Way* b) {
          return p == "lru" ? a->last_use < b->last_use : a->filled < b->filled;
        });
      for (const Way* w : ways)
        if (w->valid && w->dirty) dirty.push_back(w->line);
    }
    for (uint64_t line : dirty) copy_back(line);
  }

  // Dinero IV's copyback (c) and invalidate (v) records: this level, then below.
  void control(bool invalidate, uint64_t addr, uint64_t bytes) {
    if (!invalidate) {
      if (bytes == 0) flush();
      else copy_back(addr / c_.line);
    } else {
      for (auto& set : sets_)
        for (auto& w : set)
          if (w.valid && (bytes == 0 || w.line == addr / c_.line)) w = Way{};
      // The 3C shadow too; a whole-cache invalidate also forgets first references.
      if (bytes == 0) {
        fa_.clear();
        seen_.clear();
      } else {
        fa_.remove(addr / c_.line);
      }
    }
    if (below) below->control(invalidate, addr, bytes);
  }

  void copy_back(uint64_t line) {
    for (auto& w : sets_[line % sets_.size()])
      if (w.valid && w.line == line && w.dirty) {
        w.dirty = false;
        stats.writebacks++;
        send(line * c_.line, c_.line, true, w.tensor, w.region);
        break;
      }
  }

  bool invalidate(uint64_t line, bool& dirty) {
    for (auto& w : sets_[line % sets_.size()])
      if (w.valid && w.line == line) {
        dirty = w.dirty;
        w = Way{};
        return true;
      }
    return false;
  }

 private:
  void send(uint64_t addr, uint64_t bytes, bool write, TagId tensor, TagId region) {
    if (below) below->request(addr, bytes, write, tensor, region);
    else memory->count(write, true, bytes, tensor, region);
  }

  void one_line(uint64_t line, uint64_t addr, uint64_t bytes, bool write, TagId tensor, TagId region) {
    ++time_;
    auto& set = sets_[line % sets_.size()];
    const size_t s = line % sets_.size();
    Way* hit = nullptr;
    for (auto& w : set)
      if (w.valid && w.line == line) hit = &w;
    const bool whole = bytes == c_.line;
    const bool allocate = !write || (c_.write_allocate && (whole || !c_.allocate_nofetch));
    stats.count(write, hit != nullptr, bytes, tensor, region);
    classify(line, hit != nullptr, allocate);
    if (hit) {
      hit->last_use = time_;
      hit->rrpv = 0;
      plru_touch(s, size_t(hit - set.data()));
      if (write && c_.write_back) hit->dirty = true;
    } else if (allocate) {
      // Dinero IV's order below: the fill (none for a write of the whole
      // line), the write-through, then the victim's writeback.
      size_t v = set.size();
      for (size_t i = 0; i < set.size(); ++i)
        if (!set[i].valid) { v = i; break; }
      bool evicted = false;
      Way old;
      if (v == set.size()) {
        v = victim(s);
        old = set[v];
        set[v] = Way{};  // removed now; the new line arrives after the fill
        evicted = true;
      }
      if (!(write && whole)) send(line * c_.line, c_.line, false, tensor, region);
      set[v] = Way{true, line, write && c_.write_back, time_, time_, 2, tensor, region};
      plru_touch(s, v);
      if (write && !c_.write_back) send(addr, bytes, true, tensor, region);
      if (evicted) {
        stats.evictions++;
        bool dirty = old.dirty;
        if (c_.inclusive) {
          for (RefLevel* up : above)
            for (uint64_t a = old.line * c_.line; a < (old.line + 1) * c_.line; a += up->c_.line) {
              bool d = false;
              if (up->invalidate(a / up->c_.line, d)) { up->stats.back_invalidations++; dirty |= d; }
            }
        }
        if (dirty) {
          stats.writebacks++;
          send(old.line * c_.line, c_.line, true, old.tensor, old.region);
        }
      }
      return;
    }
    if (write && (!c_.write_back || !hit)) send(addr, bytes, true, tensor, region);
  }

  size_t victim(size_t s) {
    auto& set = sets_[s];
    const std::string& p = c_.replacement;
    if (p == "random") return size_t(rng_.next() % set.size());
    if (p == "lru" || p == "fifo") {
      size_t best = 0;
      for (size_t i = 1; i < set.size(); ++i) {
        uint64_t a = p == "lru" ? set[i].last_use : set[i].filled;
        uint64_t b = p == "lru" ? set[best].last_use : set[best].filled;
        if (a < b) best = i;
      }
      return best;
    }
    if (p == "srrip") {
      for (;;) {
        for (size_t i = 0; i < set.size(); ++i)
          if (set[i].rrpv >= 3) return i;
        for (auto& w : set) w.rrpv++;
      }
    }
    // plru: follow the pointers from the root
    size_t lo = 0, hi = set.size();
    while (hi - lo > 1) {
      size_t mid = lo + (hi - lo) / 2;
      if (plru_[s][{lo, hi}]) lo = mid; else hi = mid;
    }
    return lo;
  }

  // Each node over [lo, hi) remembers which half to evict from (true = right).
  void plru_touch(size_t s, size_t way) {
    size_t lo = 0, hi = sets_[s].size();
    while (hi - lo > 1) {
      size_t mid = lo + (hi - lo) / 2;
      bool left = way < mid;
      plru_[s][{lo, hi}] = left;
      if (left) hi = mid; else lo = mid;
    }
  }

  void classify(uint64_t line, bool hit, bool allocate) {
    const bool first = seen_.insert(line).second;
    auto it = std::find(fa_.begin(), fa_.end(), line);
    const bool fa_hit = it != fa_.end();
    if (fa_hit && c_.replacement == "fifo") {  // the shadow of a FIFO level keeps fill order
      if (!hit) {
        if (first) stats.compulsory++;
        else stats.conflict++;
      }
      return;
    }
    if (fa_hit) fa_.erase(it);
    if (!hit) {
      if (first) stats.compulsory++;
      else if (!fa_hit) stats.capacity++;
      else stats.conflict++;
    }
    if (fa_hit || allocate) {  // Dinero IV: not a write, or a hit in the shadow, or write-allocate
      fa_.push_front(line);
      if (fa_.size() > c_.lines()) fa_.pop_back();
    }
  }

  CacheConfig c_;
  std::vector<std::vector<Way>> sets_;
  std::vector<std::map<std::pair<size_t, size_t>, bool>> plru_;
  replacement::Xorshift64 rng_;
  uint64_t time_ = 0;
  std::list<uint64_t> fa_;
  std::set<uint64_t> seen_;
};

}  // namespace ptosim::test
