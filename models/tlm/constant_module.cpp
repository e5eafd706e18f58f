#include "models/tlm/constant_module.h"

#include "models/tlm/sc_fs.h"

namespace ptosim {

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
                               const CacheConfig* cache, bool backed, Fs miss_time, bool data)
    : MemoryModule(name, config, clock_hz), backed_(backed || cache), miss_time_(miss_time) {
  backing_.store = &store_;
  if (cache) {
    cache_ = make_cache_level(constant_cache_config(*cache, config.name), data);
    cache_->connect_below(&backing_);
  }
}

unsigned int ConstantModule::transport_dbg(tlm::tlm_generic_payload& trans) {
  if (trans.get_command() != tlm::TLM_WRITE_COMMAND || !trans.get_data_ptr()) return 0;
  if (cache_) cache_->poke(trans.get_address(), trans.get_data_length(), trans.get_data_ptr());  // and store_
  else store_.write(trans.get_address(), trans.get_data_length(), trans.get_data_ptr());
  return trans.get_data_length();
}

void ConstantModule::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const Fs now = now_fs();
  const Fs arrive = now + to_fs(delay);
  const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
  const uint64_t addr = trans.get_address(), bytes = trans.get_data_length();
  if (!write && have_last_ && addr == last_addr_ && bytes == last_bytes_) {
    ++broadcasts_;
    const AccessTags& tags = tags_of(trans);
    stats_.count(false, true, bytes, tags.tensor, tags.region);
    move_data(trans);  // the same bytes as the read it shares
    complete(trans, delay, now, arrive, last_done_ > arrive ? last_done_ : arrive);
    return;
  }
  bool miss = false, moved = false;
  if (!write) {
    if (cache_) {
      const uint64_t before = cache_->stats().misses();
      cache_->request(
          MemRequest{addr, bytes, false, tags_of(trans).tensor, tags_of(trans).region, trans.get_data_ptr()});
      miss = cache_->stats().misses() > before;
      moved = true;
    } else if (backed_) {
      miss = true;
      backing_.request(MemRequest{addr, bytes, false, 0, 0});
    }
  }
  Fs port_done;
  if (!admit(trans, arrive, !miss, &port_done)) return;
  if (write && cache_ && trans.get_data_ptr()) cache_->poke(addr, bytes, trans.get_data_ptr());  // reaches store_ too
  else if (!moved) move_data(trans);
  // Lines of one request that miss are fetched together: one DRAM latency.
  const Fs done = port_done + latency_ + (miss ? miss_time_ : 0);
  have_last_ = !write;
  last_addr_ = addr;
  last_bytes_ = bytes;
  last_done_ = done;
  complete(trans, delay, now, arrive, done);
}

void ConstantModule::report(StatsNode& parent, const TagNames& names, double seconds) const {
  StatsNode& n = report_common(parent, names, seconds);
  n.set("broadcasts", broadcasts_);
  if (cache_) {
    const LevelStats& c = cache_->stats();
    n.set("cache_hits", c.read_hits).set("cache_misses", c.read_misses);
  }
  if (backed_) n.set("backing_reads", backing_.reads).set("backing_bytes", backing_.bytes);
}

}  // namespace ptosim
