// run_program: read, parse, compile, bind -D parameters, execute.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/exec/data_tap.h"
#include "sim/exec/ops.h"
#include "sim/frontend/compiler.h"
#include "sim/frontend/frontend.h"
#include "sim/common/memory_budget.h"
#include "sim/common/read_file.h"
#include "sim/frontend/parser.h"
#include "sim/frontend/run_text.h"

namespace ptosim {

namespace {

using namespace frontend;

// -D values: int, then float, then True/False, else a string.
Value parse_define(const std::string& s) {
  if (!s.empty()) {
    char* end = nullptr;
    errno = 0;
    long long i = strtoll(s.c_str(), &end, 0);
    if (*end == '\0' && errno == 0) return Value::integer(i);
    end = nullptr;
    double d = strtod(s.c_str(), &end);
    if (*end == '\0') return Value::number(d);
  }
  if (s == "True") return Value::boolean(true);
  if (s == "False") return Value::boolean(false);
  if (s == "None") return Value::none();
  return Value::str(s);
}

std::string read_file(const std::string& path) { return read_input_file(path, "program"); }

}  // namespace

ProgramResult run_program_text(const std::string& path, const std::string& text, const HwConfig& config,
                               const ProgramOptions& options, EventSink* sink) {
  Source src(path, text);
  std::unique_ptr<Program> prog;
  try {
    Module m = parse_program(text);
    prog = compile_program(m, options.flat_loops);
  } catch (const ProgramError& e) {
    throw src.error(e);
  }
  for (auto& [name, value] : options.defines) {
    auto it = prog->params.find(name);
    if (it == prog->params.end()) {
      // A -D name has no place in the text: point at the first `param`
      // statement (where it would be declared), or 1:1 when there is none.
      std::string known;
      Pos first{1, 1};
      bool any = false;
      for (auto& [n, p] : prog->params) {
        known += (known.empty() ? "" : ", ") + n;
        if (!any || p->pos.line < first.line || (p->pos.line == first.line && p->pos.col < first.col)) first = p->pos;
        any = true;
      }
      throw src.error(first, "unknown parameter '" + name + "' given with -D (the program declares: " +
                                 (known.empty() ? std::string("no parameters") : known) + ")");
    }
    it->second->override_value = parse_define(value);
  }

  std::unique_ptr<exec::DataTap> tap;
  if (options.check_data && sink) {
    tap = std::make_unique<exec::DataTap>(*sink);
    sink = tap.get();
  }
  memory_budget::set_limit(options.max_memory ? options.max_memory : memory_budget::default_limit());
  memory_budget::set_value_limit(options.max_value_memory ? options.max_value_memory : memory_budget::kDefaultValueLimit);
  exec::ExecContext ctx(config, sink, options.max_events);
  if (options.hot_spots) ctx.enable_hot_tiles(options.hot_tile);
  if (options.heatmap_bins) ctx.enable_heatmap_bins(options.heatmap_bins);
  if (options.op_marks) ctx.enable_op_marks();
  if (!options.values) ctx.disable_values();
  ctx.set_data_tap(tap.get());
  std::ostream& out = options.print_stream ? *options.print_stream : std::cout;
  Interp in(ctx, src, out);
  in.warnings = options.warning_stream;
  in.figures = options.figures;
  in.cache_model = options.cache_model;
  if (tap) tap->follow(path, &in.at.line, &in.at.col);
  in.step_limit = std::max<uint64_t>(options.max_events, 1'000'000);
  in.globals.resize(prog->global_names.size());
  Frame f{&in, in.globals.data(), in.globals.data(), Value()};
  try {
    prog->main.exec(f);
  } catch (const ProgramError& e) {
    throw src.error(e);
  } catch (const exec::OpError& e) {
    throw src.error(Pos{}, e.what());
  } catch (const std::bad_alloc&) {
    throw src.error(Pos{}, "out of memory while running the program");
  }
  std::vector<ProgramParam> params;
  for (auto& [name, v] : in.bound_params) {
    ProgramParam p;
    p.name = name;
    p.text = to_str(v);
    if (v.tag == VT::Bool) { p.kind = ProgramParam::Kind::Bool; p.b = v.i != 0; }
    else if (v.tag == VT::Int) { p.kind = ProgramParam::Kind::Int; p.i = v.i; }
    else if (v.tag == VT::Float) { p.kind = ProgramParam::Kind::Float; p.f = v.f; }
    else if (v.tag == VT::Str) p.kind = ProgramParam::Kind::Str;
    auto same = std::find_if(params.begin(), params.end(), [&](const ProgramParam& q) { return q.name == p.name; });
    if (same != params.end()) *same = p; else params.push_back(p);
  }
  // What the program's variables still hold in managed spaces is a leak.
  ctx.collect_leaks(path);
  if (tap) tap->expect_final();  // while the program's tensors are alive
  // Drop the program's references first so that footprints are final.
  in.bound_params.clear();
  in.globals.clear();
  ProgramResult result = ctx.take_result();
  result.params = std::move(params);
  result.pictures = std::move(in.pictures);
  return result;
}

std::vector<std::string> declared_parameters(const std::string& path) {
  const std::string text = read_file(path);
  Source src(path, text);
  std::unique_ptr<Program> prog;
  Module m;
  try {
    m = parse_program(text);
    prog = compile_program(m);
  } catch (const ProgramError& e) {
    throw src.error(e);
  }
  std::vector<std::pair<Pos, std::string>> at;
  for (auto& [name, p] : prog->params) at.emplace_back(p->pos, name);
  std::sort(at.begin(), at.end(), [](auto& a, auto& b) {
    return a.first.line != b.first.line ? a.first.line < b.first.line : a.first.col < b.first.col;
  });
  std::vector<std::string> names;
  for (auto& [pos, name] : at) names.push_back(name);
  return names;
}

std::set<std::string> pto_names_used(const std::string& path) {
  const std::string text = read_file(path);
  Source src(path, text);
  try {
    return compile_program(parse_program(text))->pto_used;
  } catch (const ProgramError& e) {
    throw src.error(e);
  }
}

ProgramResult run_program(const std::string& path, const HwConfig& config, const ProgramOptions& options,
                          EventSink* sink) {
  return run_program_text(path, read_file(path), config, options, sink);
}

}  // namespace ptosim
