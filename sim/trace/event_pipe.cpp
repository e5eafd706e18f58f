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
  Access* const run = buffer.data();
  Access* const run_end = run + kRun;
  Access* out = run;
  // Until a tagged access has been copied into the buffer, every entry's
  // other fields are still zero: an untagged access need not write them.
  bool untagged_only = true;
  while (Chunk* c = ring_.next()) {
    for (uint32_t i = 0;;) {
      const Code code = c->code(i);
      if (code <= Code::Fill) {
        const pipe::Slot& s = *std::launder(static_cast<const pipe::Slot*>(c->at(i)));
        if (!untagged_only) *out = Access();
        out->addr = s.a;
        out->bytes = s.b;
        out->kind = AccessKind(code);
        i += 1;
      } else if (code == Code::Access) {
        *out = *std::launder(static_cast<const Access*>(c->at(i)));
        untagged_only = false;
        i += pipe::kAccessSlots;
      } else {
        if (out != run) sink.accesses(run, size_t(out - run));
        out = run;
        if (code == Code::End) break;
        deliver_other(sink, *c, i);
        i += 1;
        continue;
      }
      if (++out == run_end) {
        sink.accesses(run, kRun);
        out = run;
      }
    }
    c->names.clear();
    ring_.release();
  }
  thread_.join();
  if (error_) std::rethrow_exception(error_);
}

}  // namespace ptosim
