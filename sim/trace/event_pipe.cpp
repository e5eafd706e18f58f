#include "sim/trace/event_pipe.h"

#include <new>
#include <vector>

#include "sim/trace/pipe_writer.h"

namespace ptosim {

using pipe::Chunk;
using pipe::Code;

EventPipe::EventPipe(Producer producer) : producer_(std::move(producer)) {
  thread_ = std::thread([this] {
    try {
      pipe::PipeWriter writer(ring_);
      try {
        producer_(writer);
      } catch (const pipe::Abandoned&) {
        throw;
      } catch (...) {
        error_ = std::current_exception();
      }
      writer.close();  // the events before an error still arrive
    } catch (const pipe::Abandoned&) {
      // The consumer is gone: nobody is left to tell.
    }
  });
}

EventPipe::~EventPipe() {
  // A consumer that stopped early (an error of its own) must not leave the
  // producer blocked on a full ring, nor running to the end of its input.
  ring_.abandon();
  if (thread_.joinable()) thread_.join();
}

namespace {

// Compute and name records.
void deliver_other(EventSink& sink, const Chunk& c, uint32_t i) {
  const pipe::Slot& s = *std::launder(static_cast<const pipe::Slot*>(c.at(i)));
  switch (c.code(i)) {
    case Code::Compute:
      sink.compute(Compute{s.a, uint16_t(s.b), TagId(s.b >> 16)});
      break;
    case Code::TensorName:
      sink.name_tensor(TagId(s.b), c.names[s.a]);
      break;
    case Code::RegionName:
      sink.name_region(TagId(s.b), c.names[s.a]);
      break;
    default:
      std::terminate();  // accesses and End do not come here
  }
}

}  // namespace

void EventPipe::drain(EventSink& sink) {
  // Consecutive accesses reach the sink as runs (EventSink::accesses), so
  // that the core can issue them in a loop of its own.
  constexpr size_t kRun = 256;
  std::vector<Access> buffer(kRun);
  Access* run = buffer.data();
  size_t n = 0;
  while (Chunk* c = ring_.next()) {
    for (uint32_t i = 0;;) {
      const Code code = c->code(i);
      if (code <= Code::Fill) {  // untagged: only addr, bytes and kind differ
        const pipe::Slot& s = *std::launder(static_cast<const pipe::Slot*>(c->at(i)));
        Access& a = run[n];
        a.addr = s.a;
        a.bytes = s.b;
        a.kind = AccessKind(code);
        a.space = kGlobalSpace;
        a.tensor = a.region = 0;
        a.elem_bytes = 0;
        a.stride = 0;
        i += 1;
      } else if (code == Code::Access) {
        run[n] = *std::launder(static_cast<const Access*>(c->at(i)));
        i += pipe::kAccessSlots;
      } else {
        if (n) sink.accesses(run, n);
        n = 0;
        if (code == Code::End) break;
        deliver_other(sink, *c, i);
        i += 1;
        continue;
      }
      if (++n == kRun) {
        sink.accesses(run, n);
        n = 0;
      }
    }
    c->names.clear();
    ring_.release();
  }
  thread_.join();
  if (error_) std::rethrow_exception(error_);
}

}  // namespace ptosim
