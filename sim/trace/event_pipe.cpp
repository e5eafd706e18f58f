#include "sim/trace/event_pipe.h"

#include <cstring>

#include "sim/common/run_control.h"
#include "sim/trace/pipe_writer.h"

namespace ptosim {

using pipe::Chunk;

EventPipe::EventPipe(Producer producer) : state_(std::make_shared<State>()) {
  state_->producer = std::move(producer);
  thread_ = std::thread([st = state_] {
    try {
      pipe::PipeWriter writer(st->ring);
      try {
        st->producer(writer);
      } catch (const pipe::Abandoned&) {
        throw;
      } catch (...) {
        st->error = std::current_exception();
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
  state_->ring.abandon();
  if (!thread_.joinable()) return;
  // After a stop request the process writes its report and exits; a
  // producer blocked in a read of stdin would hold that up indefinitely.
  if (stopped_) thread_.detach();
  else thread_.join();
}

namespace {

void deliver(EventSink& sink, const Chunk& c, const pipe::Other& o) {
  switch (o.kind) {
    case pipe::Other::Compute:
      sink.compute(Compute{o.a, uint16_t(o.b), TagId(o.b >> 16), CoreId(o.b >> 32), uint8_t(o.b >> 40),
                           uint8_t(o.b >> 48), uint8_t(o.b >> 56), {uint32_t(o.deps), uint32_t(o.deps >> 32)}, o.site, o.masked});
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
    case pipe::Other::HostWrite:
    case pipe::Other::Expect: {
      Access a;
      std::memcpy(&a, c.host.data() + o.a, sizeof a);
      const uint8_t* bytes = c.host.data() + o.a + sizeof a;
      if (o.kind == pipe::Other::HostWrite) sink.host_write(a, bytes);
      else sink.expect(a, bytes);
      break;
    }
    case pipe::Other::Position:
      sink.position(c.names[o.a], int(uint32_t(o.b)), int(o.b >> 32));
      break;
  }
}

}  // namespace

bool EventPipe::drain(EventSink& sink, bool (*stop)()) {
  std::exception_ptr error;
  const bool complete = drain(sink, stop, &error);
  if (error) std::rethrow_exception(error);
  return complete;
}

bool EventPipe::drain(EventSink& sink, bool (*stop)(), std::exception_ptr* error) {
  // The accesses between two other records reach the sink as one run
  // (EventSink::accesses), straight from the chunk, so that the core can
  // issue them in a loop of its own.
  pipe::ChunkRing& ring = state_->ring;
  run_control::Counters& progress = run_control::counters();
  for (;;) {
    Chunk* c = ring.next(stop);
    if (stop && stop()) {
      stopped_ = true;  // the events not taken yet stay unsimulated
      return false;
    }
    if (!c) break;
    if (!c->data.empty()) sink.write_data(c->data.data(), c->data.size());
    uint32_t done = 0;
    for (const pipe::Other& o : c->others) {
      if (o.after > done) sink.accesses(c->accesses + done, o.after - done);
      done = o.after;
      deliver(sink, *c, o);
    }
    if (c->count > done) sink.accesses(c->accesses + done, c->count - done);
    progress.events.store(progress.events.load(std::memory_order_relaxed) + c->count + c->others.size(),
                          std::memory_order_relaxed);
    progress.accesses.store(progress.accesses.load(std::memory_order_relaxed) + c->count, std::memory_order_relaxed);
    c->others.clear();
    c->names.clear();
    c->data.clear();
    c->host.clear();
    ring.release();
  }
  thread_.join();
  *error = state_->error;
  return true;
}

}  // namespace ptosim
