#pragma once
// The banks of a scratchpad: `banks` banks of `bank_width` bytes, word w in
// bank w % banks; each bank serves one word per cycle and the port moves
// `bandwidth` bytes per cycle. A contiguous transfer never conflicts and costs
// ceil(bytes / bandwidth) cycles. A strided one is served in waves of as many
// elements as the port moves per cycle; a wave takes as many cycles as the
// most words it asks of one bank (the same word twice is one read: a
// broadcast). Plain C++, no allocation per call.
#include <cstdint>
#include <vector>

namespace ptosim {

struct BankCost {
  uint64_t cycles = 0;           // total, >= the conflict-free cost
  uint64_t conflict_cycles = 0;  // cycles beyond ceil(bytes / bandwidth)
  uint64_t conflicted_waves = 0; // waves that needed more than one cycle
};

class BankModel {
 public:
  // banks == 1 means an unbanked (wide) port: strided patterns do not conflict.
  BankModel(uint32_t banks, uint32_t bank_width, double bytes_per_cycle);

  uint64_t contiguous(uint64_t bytes) const;
  // `count` elements of `elem_bytes` at addr, addr + stride, ... (stride may be
  // negative or zero).
  BankCost strided(uint64_t addr, uint32_t elem_bytes, uint64_t count, int64_t stride_bytes);

  uint32_t banks() const { return banks_; }
  uint32_t bank_width() const { return width_; }
  double bytes_per_cycle() const { return bandwidth_; }

 private:
  uint32_t bank_of(uint64_t word) const { return banks_pow2_ ? uint32_t(word & (banks_ - 1)) : uint32_t(word % banks_); }
  uint64_t word_of(uint64_t addr) const { return width_pow2_ ? addr >> width_shift_ : addr / width_; }

  uint32_t banks_, width_;
  double bandwidth_;
  bool banks_pow2_, width_pow2_;
  uint32_t width_shift_ = 0;
  // Per bank, for the wave being costed: words asked, the last word, and the
  // wave that last touched the bank (so nothing is cleared between waves).
  std::vector<uint32_t> load_;
  std::vector<uint64_t> last_word_;
  std::vector<uint64_t> stamp_;
  uint64_t wave_ = 0;
};

}  // namespace ptosim
