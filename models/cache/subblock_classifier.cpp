#include "models/cache/subblock_classifier.h"

namespace ptosim {

SubBlockClassifier::SubBlockClassifier(uint64_t lines, uint32_t per_line_log2, bool fifo)
    : where_(lines ? lines : 1),
      capacity_(lines ? lines : 1),
      shift_(per_line_log2),
      all_(per_line_log2 >= 5 ? ~0u : (1u << (1u << per_line_log2)) - 1),
      fifo_(fifo) {
  nodes_.reserve(capacity_ + 1);
  nodes_.push_back(Node{0, 0, 0, ~0ull});
}

SubBlockClasses SubBlockClassifier::classify(uint64_t line, uint32_t sb, bool allocates, bool miss, bool block_miss) {
  const uint32_t* w = where_.find(line);
  const bool full_block_miss = w == nullptr;
  const bool full_miss = full_block_miss || (nodes_[*w].valid & sb) != sb;
  if (!full_block_miss) {
    if (!fifo_) {
      unlink(*w);
      link_front(*w);
    }
    nodes_[*w].valid |= sb;
  } else if (allocates) {
    nodes_[enter(line)].valid = sb;
  }
  SubBlockClasses c{MissClass::Conflict, MissClass::Conflict};
  if (!miss) return c;
  int inf = 0;
  if (full_miss) {
    inf = infinite_cache(line, sb);
    c.miss = inf != 0 ? MissClass::Compulsory : MissClass::Capacity;
  }
  if (block_miss && full_block_miss) c.block = inf == 1 ? MissClass::Compulsory : MissClass::Capacity;
  return c;
}

int SubBlockClassifier::infinite_cache(uint64_t line, uint32_t sb) {
  const uint64_t first = line << shift_;
  const uint32_t per_line = 1u << shift_;
  uint32_t touched = 0, seen = 0;
  for (uint32_t b = 0; b < per_line; ++b)
    if (sb >> b & 1) {
      ++touched;
      seen += seen_.contains(first + b);
    }
  if (seen == touched) return 0;
  if (per_line != 1 && touched != per_line) {
    seen = 0;
    for (uint32_t b = 0; b < per_line; ++b) seen += seen_.contains(first + b);
  }
  for (uint32_t b = 0; b < per_line; ++b)
    if (sb >> b & 1) seen_.insert(first + b);
  return seen == 0 ? 1 : -1;
}

uint32_t SubBlockClassifier::enter(uint64_t line) {
  uint32_t n;
  if (!free_.empty()) {
    n = free_.back();
    free_.pop_back();
  } else if (nodes_.size() <= capacity_) {
    n = uint32_t(nodes_.size());
    nodes_.push_back(Node{});
  } else {
    n = nodes_[0].prev;  // the least recent (the first filled) leaves the shadow
    where_.erase(nodes_[n].line);
    unlink(n);
  }
  nodes_[n].line = line;
  nodes_[n].valid = 0;
  where_.insert(line, n);
  link_front(n);
  return n;
}

void SubBlockClassifier::invalidate(uint64_t line) {
  if (const uint32_t* w = where_.find(line)) {
    const uint32_t n = *w;
    where_.erase(line);
    unlink(n);
    free_.push_back(n);
  }
  for (uint32_t b = 0; b < shift_; ++b) seen_.erase((line << shift_) + b);
}

void SubBlockClassifier::invalidate_all() {
  for (size_t n = 1; n < nodes_.size(); ++n) where_.erase(nodes_[n].line);
  nodes_.resize(1);
  nodes_[0].prev = nodes_[0].next = 0;
  free_.clear();
  seen_.clear();
}

}  // namespace ptosim
