// Mattson's stack with size markers (see fa_stack.h for why it is cut).
#include "models/cache/curves/fa_stack.h"

#include <stdexcept>

namespace ptosim::curves {

FaStack::FaStack(std::vector<uint64_t> bounds) : bounds_(std::move(bounds)) {
  if (bounds_.empty() || bounds_[0] == 0) throw std::invalid_argument("FaStack: sizes must be positive");
  for (size_t i = 1; i < bounds_.size(); ++i)
    if (bounds_[i] <= bounds_[i - 1]) throw std::invalid_argument("FaStack: sizes must increase");
  if (bounds_.back() >= (1ull << 31)) throw std::invalid_argument("FaStack: at most 2^31 lines");
  unsigned bits = 1;
  while ((1ull << bits) < 2 * bounds_.back()) ++bits;
  shift_ = 64 - bits;
  clear();
}

void FaStack::clear() {
  tail_.assign(bounds_.size(), 0);
  nodes_.assign(1, Node{0, 0, 0, 0, ~0ull});
  nodes_.reserve(bounds_.back() + 1);
  free_.clear();
  heads_.assign(size_t(1) << (64 - shift_), 0);
  size_ = 0;
}

uint32_t FaStack::find(uint64_t line) const {
  uint32_t n = heads_[hash(line)];
  while (n && nodes_[n].line != line) n = nodes_[n].chain;
  return n;
}

void FaStack::unchain(uint32_t n) {
  uint32_t* p = &heads_[hash(nodes_[n].line)];
  while (*p != n) p = &nodes_[*p].chain;
  *p = nodes_[n].chain;
}

void FaStack::unlink(uint32_t n) {
  nodes_[nodes_[n].prev].next = nodes_[n].next;
  nodes_[nodes_[n].next].prev = nodes_[n].prev;
}

void FaStack::link_front(uint32_t n) {
  Node& s = nodes_[0];
  nodes_[n].prev = 0;
  nodes_[n].next = s.next;
  nodes_[s.next].prev = n;
  s.next = n;
}

uint32_t FaStack::new_node(uint64_t line) {
  uint32_t n;
  if (!free_.empty()) {
    n = free_.back();
    free_.pop_back();
  } else {
    n = uint32_t(nodes_.size());
    nodes_.push_back({});
  }
  const uint64_t h = hash(line);
  nodes_[n].line = line;
  nodes_[n].chain = heads_[h];
  heads_[h] = n;
  return n;
}

void FaStack::drop(uint32_t n) {
  unchain(n);
  unlink(n);
  free_.push_back(n);
  --size_;
}

void FaStack::shift_bounds(uint32_t b) {
  for (uint32_t j = 0; j < b; ++j) {
    if (size_ < bounds_[j]) {
      // Not full to this bound yet: after the push it is, if it lacked one.
      if (size_ + 1 == bounds_[j]) tail_[j] = size_ ? nodes_[0].prev : 0;  // 0: the new line itself
      break;
    }
    const uint32_t e = tail_[j];
    tail_[j] = nodes_[e].prev;  // 0 (the sentinel) when bound 1: the new line itself
    if (j + 1 == bounds_.size()) drop(e);
    else nodes_[e].bucket = j + 1;
  }
}

uint32_t FaStack::touch(uint64_t line) {
  const uint32_t first = nodes_[0].next;
  if (first && nodes_[first].line == line) return 0;
  uint32_t n = find(line);
  const uint32_t b = n ? nodes_[n].bucket : beyond();
  shift_bounds(b);
  if (n) {
    if (b < beyond() && tail_[b] == n) tail_[b] = nodes_[n].prev;
    unlink(n);
  } else {
    n = new_node(line);
    ++size_;
  }
  nodes_[n].bucket = 0;
  link_front(n);
  for (uint32_t j = 0; j < b && j < tail_.size() && size_ >= bounds_[j]; ++j)
    if (tail_[j] == 0) tail_[j] = n;
  return b;
}

}  // namespace ptosim::curves
