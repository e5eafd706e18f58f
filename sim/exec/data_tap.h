#pragma once
// The executor's side of --check-data. The events say where a program reads
// and writes, not what: this sink sits between the executor and the real
// sink and adds the bytes — each write's (the executor's values there, as
// encoded in memory), each allocation's initial values (a host write), the
// memory of every tensor alive at the end (to be found in the simulated
// memory after the flush), and the program position of the events. The
// normal run has no tap: the executor writes into the sink's lane directly.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/exec/tensor.h"
#include "sim/trace/event.h"

namespace ptosim::exec {

class DataTap final : public EventSink {
 public:
  explicit DataTap(EventSink& out) : out_(out) {}
  // The statement being executed, read at every access (the interpreter keeps it).
  void follow(const std::string& file, const int* line, const int* col) {
    file_ = file;
    line_ = line;
    col_ = col;
  }

  void access(const Access& a) override;
  void compute(const Compute& c) override { out_.compute(c); }
  void barrier(bool parallel) override { out_.barrier(parallel); }
  void name_tensor(TagId id, const std::string& n) override { out_.name_tensor(id, n); }
  void name_region(TagId id, const std::string& n) override { out_.name_region(id, n); }
  // Attribution's records pass as they are (per line, footprint, op slices).
  void name_site(SiteId id, uint32_t line) override { out_.name_site(id, line); }
  void footprint(SpaceId space, uint64_t bytes) override { out_.footprint(space, bytes); }
  void name_op(uint16_t id, const std::string& n) override { out_.name_op(id, n); }
  void op_mark(uint16_t id, bool begin, CoreId core) override { out_.op_mark(id, begin, core); }
  void finish() override { out_.finish(); }

  // A new allocation (its values as they are now) or new values of a whole
  // storage written by the host (pto.tensor's init): a host write.
  void allocated(const std::shared_ptr<Storage>& st, CoreId core);
  void initialised(const Storage& st, CoreId core);
  // The memory of every storage still alive and not overlaid by a later
  // allocation: what the simulated memory must hold at the end.
  void expect_final();

 private:
  // The bytes of [addr, addr + n) in `space` into out: the executor's values
  // where a storage holds them, else trace_byte(addr, seq).
  void gather(SpaceId space, uint64_t addr, uint64_t n, uint8_t* out);
  void host(const Storage& st, CoreId core);
  void note_position();

  EventSink& out_;
  std::string file_;
  const int* line_ = nullptr;
  const int* col_ = nullptr;
  int last_line_ = -1, last_col_ = -1;
  uint64_t writes_ = 0;
  std::map<std::pair<SpaceId, uint64_t>, std::weak_ptr<Storage>> live_;  // (space, base)
  std::vector<uint8_t> buf_;
};

}  // namespace ptosim::exec
