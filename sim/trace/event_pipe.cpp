#include "sim/trace/event_pipe.h"

#include <cstring>
#include <new>

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
  Access plain;  // untagged accesses differ only in addr, bytes and kind
  while (Chunk* c = ring_.next()) {
    for (uint32_t i = 0;;) {
      const Code code = c->code(i);
      if (code <= Code::Fill) {
        std::memcpy(static_cast<void*>(&plain), c->at(i), sizeof(pipe::Slot));
        plain.kind = AccessKind(code);
        sink.access(plain);
        i += 1;
      } else if (code == Code::Access) {
        sink.access(*std::launder(static_cast<const Access*>(c->at(i))));
        i += pipe::kAccessSlots;
      } else if (code != Code::End) {
        deliver_other(sink, *c, i);
        i += 1;
      } else {
        break;
      }
    }
    c->names.clear();
    ring_.release();
  }
  thread_.join();
  if (error_) std::rethrow_exception(error_);
}

}  // namespace ptosim
