#pragma once
// The article's tools as program objects: pto.MemoryProfiler (4.3),
// pto.MemoryVisualizer (6.1), pto.CacheSimulator (6.2) and
// pto.MemoryLeakDetector (6.3), and the records their methods return. Each
// is backed by pto-sim's own machinery: the simulation's figures between two
// points of the program (Interp::figures), a side model of other cache
// levels (Interp::cache_model), the leak tracking of --leaks, and the
// pictures of scripts/plot.py drawn from the run's report. docs/LANGUAGE.md,
// "The article's tools".
#include <string>
#include <utility>
#include <vector>

#include "sim/frontend/nodes.h"

namespace ptosim::frontend {

// A program object other than the built-in types: its methods, attributes
// and, for the values `with` takes (`with profiler.profile("x"):`), what
// entering and leaving the block does.
struct ObjectBase : Obj {
  virtual const char* type() const = 0;
  virtual std::string str() const { return std::string("<") + type() + ">"; }
  // obj.name(args, keywords): false when the object has no such method.
  virtual bool method(Interp& in, const std::string& name, std::vector<Value>& args,
                      const std::vector<std::string>& kw_names, std::vector<Value>& kw_vals, Pos pos,
                      Value& result) {
    (void)in, (void)name, (void)args, (void)kw_names, (void)kw_vals, (void)pos, (void)result;
    return false;
  }
  // obj.name: false when it has no such attribute.
  virtual bool attribute(const std::string& name, Value& out) const {
    (void)name, (void)out;
    return false;
  }
  virtual bool is_context() const { return false; }
  virtual void enter(Interp& in, Pos pos) { (void)in, (void)pos; }
  virtual void exit(Interp& in, Pos pos) { (void)in, (void)pos; }
};
inline ObjectBase& as_object(const Value& v) { return *static_cast<ObjectBase*>(v.o); }

// pto.MemoryProfiler(), pto.MemoryVisualizer(), pto.CacheSimulator(...),
// pto.MemoryLeakDetector(): the bindings (pto_bindings.cpp lists them).
Value p_memory_profiler(Interp& in, Args& a);
Value p_memory_visualizer(Interp& in, Args& a);
Value p_cache_simulator(Interp& in, Args& a);
Value p_memory_leak_detector(Interp& in, Args& a);

}  // namespace ptosim::frontend
