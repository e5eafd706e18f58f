#include "models/memory/constant_module.h"

namespace ptosim {

using sc_core::sc_time;

namespace {
CacheConfig constant_cache_config(const CacheConfig& shape, const std::string& memory) {
  CacheConfig c = shape;
  c.name = memory + ".cache";
  c.write_back = false;  // never written: fills go around it
  c.inclusive = false;
  return c;
}
}  // namespace

ConstantModule::ConstantModule(sc_core::sc_module_name name, const MemoryConfig& config, double clock_hz,
                               const CacheConfig* cache, bool backed, double miss_seconds, bool data)
    : ScratchpadModule(name, config, clock_hz),
      backed_(backed || cache),
      miss_time_(sc_time(miss_seconds, sc_core::SC_SEC)) {
  if (cache) {
    cache_ = make_cache_level(constant_cache_config(*cache, config.name), data);
    cache_->connect_below(this);
  }
}

uint64_t ConstantModule::access(const MemRequest& r, uint64_t at) {
  ++backing_reads_;
  backing_bytes_ += r.bytes;
  if (r.data) store_.read(r.addr, r.bytes, r.data);
  return at;
}

unsigned int ConstantModule::transport_dbg(tlm::tlm_generic_payload& trans) {
  if (trans.get_command() != tlm::TLM_WRITE_COMMAND || !trans.get_data_ptr()) return 0;
  if (cache_) cache_->poke(trans.get_address(), trans.get_data_length(), trans.get_data_ptr());
  else store_.write(trans.get_address(), trans.get_data_length(), trans.get_data_ptr());
  return trans.get_data_length();
}

void ConstantModule::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time arrive = now + delay;
  const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
  const uint64_t addr = trans.get_address(), bytes = trans.get_data_length();
  if (!write && have_last_ && addr == last_addr_ && bytes == last_bytes_) {
    ++broadcasts_;
    const AccessTags& tags = tags_of(trans);
    stats_.count(false, true, bytes, tags.tensor, tags.region);
    const sc_time done = last_done_ > arrive ? last_done_ : arrive;
    delay = done - now;
    latency_sum_ += done - arrive;
    move_data(trans);  // the same bytes as the read it shares
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  bool miss = false, moved = false;
  if (!write) {
    if (cache_) {
      const uint64_t before = cache_->stats().misses();
      cache_->request(MemRequest{addr, bytes, false, tags_of(trans).tensor, tags_of(trans).region, trans.get_data_ptr()});
      miss = cache_->stats().misses() > before;
      moved = true;
    } else if (backed_) {
      miss = true;
      request(MemRequest{addr, bytes, false, 0, 0});
    }
  }
  sc_time port_done;
  if (!admit(trans, arrive, !miss, &port_done)) return;
  if (write && cache_ && trans.get_data_ptr()) cache_->poke(addr, bytes, trans.get_data_ptr());  // reaches store_ too
  else if (!moved) move_data(trans);
  // Lines of one request that miss are fetched together: one DRAM latency.
  const sc_time done = port_done + latency_ + (miss ? miss_time_ : sc_core::SC_ZERO_TIME);
  delay = done - now;
  latency_sum_ += done - arrive;
  have_last_ = !write;
  last_addr_ = addr;
  last_bytes_ = bytes;
  last_done_ = done;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void ConstantModule::report(StatsNode& parent, const TagNames& names, double seconds) const {
  StatsNode& n = report_common(parent, names, seconds);
  n.set("broadcasts", broadcasts_);
  if (cache_) {
    const LevelStats& c = cache_->stats();
    n.set("cache_hits", c.read_hits).set("cache_misses", c.read_misses);
  }
  if (backed_) n.set("backing_reads", backing_reads_).set("backing_bytes", backing_bytes_);
}

}  // namespace ptosim
