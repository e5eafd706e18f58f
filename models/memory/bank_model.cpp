#include "models/memory/bank_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ptosim {

namespace {
bool pow2(uint64_t v) { return v && !(v & (v - 1)); }
}  // namespace

BankModel::BankModel(uint32_t banks, uint32_t bank_width, double bytes_per_cycle)
    : banks_(banks ? banks : 1),
      width_(bank_width ? bank_width : 1),
      bandwidth_(bytes_per_cycle > 0 ? bytes_per_cycle : 1),
      banks_pow2_(pow2(banks_)),
      width_pow2_(pow2(width_)),
      load_(banks_, 0),
      last_word_(banks_, 0),
      stamp_(banks_, 0) {
  while ((1u << width_shift_) < width_) ++width_shift_;
}

uint64_t BankModel::contiguous(uint64_t bytes) const {
  return uint64_t(std::ceil(double(bytes) / bandwidth_ - 1e-9));
}

BankCost BankModel::strided(uint64_t addr, uint32_t elem_bytes, uint64_t count, int64_t stride_bytes) {
  BankCost c;
  if (count == 0 || elem_bytes == 0) return c;
  const uint64_t free_cycles = contiguous(uint64_t(elem_bytes) * count);
  if (banks_ == 1 || stride_bytes == int64_t(elem_bytes)) {
    c.cycles = free_cycles;
    return c;
  }
  const uint64_t per_wave = std::max<uint64_t>(1, uint64_t(bandwidth_ / elem_bytes));
  uint64_t cycles = 0;
  uint64_t a = addr;
  for (uint64_t done = 0; done < count;) {
    ++wave_;
    uint32_t worst = 1;
    const uint64_t n = std::min(per_wave, count - done);
    for (uint64_t e = 0; e < n; ++e, a += uint64_t(stride_bytes)) {
      const uint64_t w_end = word_of(a + elem_bytes - 1);
      for (uint64_t w = word_of(a); w <= w_end; ++w) {
        const uint32_t b = bank_of(w);
        if (stamp_[b] != wave_) {
          stamp_[b] = wave_;
          load_[b] = 1;
          last_word_[b] = w;
        } else if (last_word_[b] != w) {
          last_word_[b] = w;
          worst = std::max(worst, ++load_[b]);
        }
      }
    }
    cycles += worst;
    if (worst > 1) ++c.conflicted_waves;
    done += n;
  }
  c.cycles = std::max(cycles, free_cycles);
  c.conflict_cycles = c.cycles - free_cycles;
  return c;
}

}  // namespace ptosim
