#include "sim/trace/event_pipe.h"

#include "sim/trace/pipe_writer.h"

namespace ptosim {

using pipe::Chunk;

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

void deliver(EventSink& sink, const Chunk& c, const pipe::Other& o) {
  switch (o.kind) {
    case pipe::Other::Compute:
      sink.compute(Compute{o.a, uint16_t(o.b), TagId(o.b >> 16), CoreId(o.b >> 32), uint8_t(o.b >> 40),
                           uint8_t(o.b >> 48), uint8_t(o.b >> 56), {uint32_t(o.deps), uint32_t(o.deps >> 32)}, o.site});
      break;
    case pipe::Other::Barrier:
      sink.barrier(o.a != 0);
      break;
    case pipe::Other::TensorName:
      sink.name_tensor(TagId(o.b), c.names[o.a]);
      break;
    case pipe::Other::RegionName:
      sink.name_region(TagId(o.b), c.names[o.a]);
      break;
    case pipe::Other::SiteName:
      sink.name_site(SiteId(o.b), uint32_t(o.a));
      break;
    case pipe::Other::Footprint:
      sink.footprint(SpaceId(o.b), o.a);
      break;
    case pipe::Other::OpName:
      sink.name_op(uint16_t(o.b), c.names[o.a]);
      break;
    case pipe::Other::OpMark:
      sink.op_mark(uint16_t(o.b), (o.a & 1) != 0, CoreId(o.a >> 8));
      break;
  }
}

}  // namespace

void EventPipe::drain(EventSink& sink) {
  // The accesses between two other records reach the sink as one run
  // (EventSink::accesses), straight from the chunk, so that the core can
  // issue them in a loop of its own.
  while (Chunk* c = ring_.next()) {
    uint32_t done = 0;
    for (const pipe::Other& o : c->others) {
      if (o.after > done) sink.accesses(c->accesses + done, o.after - done);
      done = o.after;
      deliver(sink, *c, o);
    }
    if (c->count > done) sink.accesses(c->accesses + done, c->count - done);
    c->others.clear();
    c->names.clear();
    ring_.release();
  }
  thread_.join();
  if (error_) std::rethrow_exception(error_);
}

}  // namespace ptosim
