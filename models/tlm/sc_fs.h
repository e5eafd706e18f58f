#pragma once
// Where Fs (sim/common/time.h) meets SystemC: the only conversions a model
// makes, at its TLM calls.
#include <systemc>

#include "sim/common/time.h"

namespace ptosim {

inline sc_core::sc_time to_sc_time(Fs t) { return sc_core::sc_time::from_value(t); }
inline Fs to_fs(const sc_core::sc_time& t) { return t.value(); }
inline Fs now_fs() { return sc_core::sc_time_stamp().value(); }

}  // namespace ptosim
