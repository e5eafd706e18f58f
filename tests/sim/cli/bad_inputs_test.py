#!/usr/bin/env python3
"""The bad-input catalogue of configs, traces and the command line: every
case must exit 2 with exactly the expected `file:line[:col]: [key: ]message`
on stderr, nothing on stdout and no output file left behind. (Bad programs
have their own catalogue: tests/frontend/bad_programs_test.cpp and
run_program_tests.py.)

usage: bad_inputs_test.py PTO_SIM SOURCE_DIR
"""
import os
import subprocess
import sys

from harness import Harness

H = Harness("pto-sim-bad-")
run, check, write, tmp = H.run, H.check, H.write, H.tmp

C = "caches: [{size: 1 KiB, ways: 2, line: 64 B}]\n"
STEP = "longer than the model's limit of 2^56 fs (72 s) for one step"
RES = "less than the model's time resolution of 1 fs"

# (config text, what follows "FILE" in the message)
CONFIGS = [
    # YAML itself; a stray flow indicator used to hang yaml-cpp 0.7's LoadAll
    (",", ":1:1: YAML syntax: unexpected ',' outside a [list] or {mapping}"),
    (C + ",\n", ":2:1: YAML syntax: end of map not found"),
    ("]", ":1:1: YAML syntax: illegal flow end"),
    ("}", ":1:1: YAML syntax: illegal flow end"),
    ("[", ":1:1: YAML syntax: end of sequence flow not found"),
    ("{", ":1:1: YAML syntax: end of map flow not found"),
    ("caches: [{size: 1 KiB", ":1:1: YAML syntax: end of map flow not found"),
    ("caches: *x\n", ":1:9: YAML syntax: the referenced anchor is not defined"),
    ("- a\nb: 1\n", ":2: a config is one YAML document, not several"),
    (C + "---\n" + C, ":3: a config is one YAML document, not several"),
    ("\t", ":1: empty config (a config needs at least `caches:`)"),
    ("[" * 100000, ":1:1: YAML syntax: nested too deeply"),
    ("- " * 50000 + "1", ":1:1000: YAML syntax: nested too deeply"),
    ("42\n", ":1: expected a mapping"),
    ("[]\n", ":1: expected a mapping"),
    ("&a [*a]\n", ":1: expected a mapping"),
    # caches
    ("name: x\n", ":1: caches: missing (a config needs at least one cache level)"),
    ("caches: []\n", ":1: caches: empty (a config needs at least one cache level)"),
    ("caches: 3\n", ":1: caches: expected a list of cache levels, L1 first"),
    ("caches: {}\n", ":1: caches: expected a list of cache levels, L1 first"),
    ("caches: [3]\n", ":1: caches[0]: expected a mapping"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, latency: 1e300}]\n", ":1: caches[0].latency: cycle count '1e300' is more than 4e9"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, latency: 4.5 cycles}]\n",
     ":1: caches[0].latency: cycle count '4.5 cycles' is not a whole number"),
    ("clock: 1 Hz\ncaches: [{size: 1 KiB, ways: 2, line: 64 B, latency: 100 cycles}]\n",
     f":2: caches[0].latency: a latency of '100 cycles' takes 100 s, {STEP}"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, bandwidth: 1e-300 B/s}]\n",
     f":1: caches[0].bandwidth: at '1e-300 B/s' one byte takes forever, {STEP}"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, bandwidth: 1e-300 B/cycle}]\n",
     f":1: caches[0].bandwidth: at '1e-300 B/cycle' one byte takes 5e+290 s, {STEP}"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, bandwidth: 0 B/cycle}]\n",
     ":1: caches[0].bandwidth: bandwidth '0 B/cycle' must be positive"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, bandwidth: 1e400 GB/s}]\n",
     ":1: caches[0].bandwidth: expected a bandwidth, got '1e400 GB/s'"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, bandwidth: 1e300 TB/s}]\n",
     ":1: caches[0].bandwidth: '1e300 TB/s' is too large to represent"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, bandwidth: 64 B/fortnight}]\n",
     ":1: caches[0].bandwidth: bad unit 'B/fortnight' in '64 B/fortnight' (expected a bandwidth such as '64 B/cycle' or '140 GB/s')"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, mshrs: 0}]\n", ":1: caches[0].mshrs: expected a whole number from 1 to 4096, got '0'"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, seed: -1}]\n", ":1: caches[0].seed: expected a number, got '-1'"),
    ("caches: [{size: 1 KiB, ways: 0, line: 64 B}]\n", ":1: caches[0].ways: expected a whole number >= 1, got '0'"),
    ("caches: [{size: 1e30 B, ways: 2, line: 64 B}]\n", ":1: caches[0].size: size '1e30 B' does not fit in 64 bits"),
    ("caches: [{size: 1e300 TiB, ways: 2, line: 64 B}]\n", ":1: caches[0].size: '1e300 TiB' is too large to represent"),
    ("caches: [{size: 1.5 B, ways: 2, line: 64 B}]\n", ":1: caches[0].size: size '1.5 B' is not a whole number of bytes"),
    ("caches: [{size: 1 KiB, ways: 2, line: 8 GiB}]\n", ":1: caches[0].line: '8 GiB' is too large"),
    ("caches: [{size: 1 GiB, ways: 2, line: 16 B}]\n", ":1: caches[0].size: size 1 GiB is more than 2^24 lines of 16 B"),
    ("caches: [{size: 0 B, ways: 2, line: 64 B}]\n", ":1: caches[0].size: size 0 B is not divisible by ways x line (2 x 64 B)"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, inclusion: exclusive}]\n",
     ":1: caches[0].inclusion: 'exclusive' is not one of non_inclusive | inclusive"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B, write_policy: write_around}]\n",
     ":1: caches[0].write_policy: 'write_around' is not one of write_back | write_through"),
    ("caches: [{size: 1 KiB, ways: 2, line: 64 B}, {name: L1, size: 2 KiB, ways: 2, line: 64 B}]\n",
     ":1: caches[1].name: name 'L1' used twice"),
    # the clock and the core
    (C + "clock: 1e300 GHz\n", ":2: clock: '1e300 GHz' is too large to represent"),
    (C + "clock: 1e-300 Hz\n", f":2: clock: at '1e-300 Hz' one cycle takes forever, {STEP}"),
    (C + "clock: 1e-3 Hz\n", f":2: clock: at '1e-3 Hz' one cycle takes 1e+03 s, {STEP}"),
    (C + "clock: 2e15 Hz\n", f":2: clock: at '2e15 Hz' one cycle takes 5e-16 s, {RES}"),
    (C + "clock: inf GHz\n", ":2: clock: expected a frequency, got 'inf GHz'"),
    (C + "clock: nan Hz\n", ":2: clock: expected a frequency, got 'nan Hz'"),
    (C + "clock: -3 GHz\n", ":2: clock: expected a frequency, got '-3 GHz'"),
    (C + "clock: 0 Hz\n", ":2: clock: frequency '0 Hz' must be positive"),
    (C + "clock: 3 THz\n", ":2: clock: bad unit 'THz' in '3 THz' (expected a frequency in Hz, kHz, KHz, MHz, GHz)"),
    (C + "clock: [3 GHz]\n", ":2: clock: expected a scalar value"),
    ("clock: 500000 GHz\ncore: {issue_width: 1024}\n" + C,
     f":2: core.issue_width: at 500000 GHz one issue slot takes 1.95e-18 s, {RES}"),
    (C + "core: {flops_per_cycle: 1e-300}\n", f":2: core.flops_per_cycle: at 2 GHz one flop takes 5e+290 s, {STEP}"),
    (C + "core: {flops_per_cycle: 0}\n", ":2: core.flops_per_cycle: must be positive"),
    (C + "core: {cores: 0}\n", ":2: core.cores: expected a whole number >= 1, got '0'"),
    (C + "core: {cores: 1000}\n", ":2: core.cores: at most 256 cores"),
    (C + "core: {issue_width: 2.5}\n", ":2: core.issue_width: expected a whole number from 1 to 1024, got '2.5'"),
    (C + "core: {vector_bytes: 0 B}\n", ":2: core.vector_bytes: must be positive"),
    (C + "core: {max_outstanding: 5000}\n", ":2: core.max_outstanding: expected a whole number from 1 to 4096, got '5000'"),
    (C + "core: 3\n", ":2: core: expected a mapping"),
    (C + "core: {bogus: 1}\n", ":2: core.bogus: unknown key"),
    # the DRAM
    (C + "dram: {latency: 1e300 s}\n", ":2: dram.latency: '1e300 s' is too large to represent"),
    (C + "dram: {latency: 1e-300 s}\n", f":2: dram.latency: '1e-300 s' takes 1e-300 s, {RES}"),
    (C + "dram: {latency: 100 s}\n", f":2: dram.latency: '100 s' takes 100 s, {STEP}"),
    (C + "dram: {bandwidth: 1e-300 B/s}\n", f":2: dram.bandwidth: at '1e-300 B/s' one byte takes forever, {STEP}"),
    (C + "dram: {bandwidth: 0 GB/s}\n", ":2: dram.bandwidth: bandwidth '0 GB/s' must be positive and finite"),
    (C + "dram: {tCL: 1e300 ns}\n", f":2: dram.tCL: '1e300 ns' takes 1e+291 s, {STEP}"),
    (C + "dram: {tCL: 1e300}\n", f":2: dram.tCL: '1e300' takes forever, {STEP}"),
    (C + "dram: {tRFC: 1e-9 ns}\n", f":2: dram.tRFC: '1e-9 ns' takes 1e-18 s, {RES}"),
    (C + "dram: {tRCD: -1}\n", ":2: dram.tRCD: expected a number of DRAM clocks or a time, got '-1'"),
    (C + "dram: {data_rate: 1e-300 MT/s}\n", f":2: dram.data_rate: at '1e-300 MT/s' one DRAM clock takes forever, {STEP}"),
    (C + "dram: {data_rate: 1e300 GT/s}\n", f":2: dram.data_rate: at '1e300 GT/s' one DRAM clock takes 0 s, {RES}"),
    (C + "dram: {data_rate: 3200 MHz}\n", ":2: dram.data_rate: bad unit 'MHz' in '3200 MHz' (expected MT/s or GT/s)"),
    (C + "dram: {bus_width: 3 bytes}\n", ":2: dram.bus_width: bad unit 'bytes' (expected bits)"),
    (C + "dram: {bus_width: 0}\n", ":2: dram.bus_width: expected a bus width of 1 to 4096 bits, got '0'"),
    (C + "dram: {row_size: 3000 B}\n", ":2: dram.row_size: must be a power of two"),
    (C + "dram: {row_size: 2 MiB}\n", ":2: dram.row_size: at most 1 MiB"),
    (C + "dram: {channels: 256, ranks: 64, banks: 1024}\n", ":2: dram: channels x ranks x banks is more than 65536 banks"),
    (C + "dram: {mapping: ro-ba-ra-ch}\n", ":2: dram.mapping: mapping 'ro-ba-ra-ch' must name each of ro ba ra ch co once"),
    (C + "dram: {mapping: ro-ba-ra-ch-co-co}\n", ":2: dram.mapping: mapping field 'co' appears twice"),
    (C + "dram: {mapping: ro-xx-ra-ch-co}\n", ":2: dram.mapping: mapping field 'xx' is not one of ro ba ra ch co"),
    (C + "dram: {timing: magic}\n", ":2: dram.timing: 'magic' is not one of " + H.listing("dram timing")),
    (C + "core: {model: magic}\n", ":2: core.model: 'magic' is not one of " + H.listing("core model")),
    (C + "dram: {page_policy: half}\n", ":2: dram.page_policy: 'half' is not one of open | closed"),
    (C + "dram: {burst_length: 0}\n", ":2: dram.burst_length: expected a whole number from 1 to 1024, got '0'"),
    # memories, ops, spaces, alignment
    (C + "memories: [{name: shared, latency: 1e300}]\n", ":2: memories[0].latency: cycle count '1e300' is more than 4e9"),
    (C + "memories: [{name: shared, bandwidth: 1e-300 B/cycle}]\n",
     f":2: memories[0].bandwidth: at '1e-300 B/cycle' one byte takes 5e+290 s, {STEP}"),
    (C + "memories: [{size: 1 KiB}]\n", ":2: memories[0].name: missing (every memory needs a name)"),
    (C + "memories: [{name: shared, size: 0 B}]\n", ":2: memories[0].size: must be positive"),
    (C + "memories: [{name: shared, kind: rom}]\n", ":2: memories[0].kind: 'rom' is not one of register | scratchpad | constant"),
    (C + "memories: [{name: shared}, {name: shared}]\n", ":2: memories[1].name: memory 'shared' defined twice"),
    (C + "memories: [{name: shared, banks: 0}]\n", ":2: memories[0].banks: expected a whole number from 1 to 4096, got '0'"),
    (C + "memories: [{name: shared, backing: L9}]\n", ":2: memories.shared.backing: 'L9' is not a cache or the DRAM"),
    (C + "memories: {name: shared}\n", ":2: memories: expected a list"),
    (C + "ops: {matmul: 1e300}\n", ":2: ops.matmul: at most 1e9 flops per element, got '1e300'"),
    (C + "ops: {matmul: -1}\n", ":2: ops.matmul: expected a number, got '-1'"),
    (C + "ops: {matmul: fast}\n", ":2: ops.matmul: expected a number, got 'fast'"),
    (C + "alignment: 48 B\n", ":2: alignment: must be a power of two"),
    (C + "spaces: {global: nowhere}\n", ":2: spaces.global: 'nowhere' is not a memory, cache or the DRAM of this config"),
    (C + "spaces: [global]\n", ":2: spaces: expected a mapping"),
    # a cap on the levels: 5,001 levels from aliases took 59 s and 593 MB to build
    ("l: &l {size: 1 KiB, ways: 2, line: 64 B}\ncaches: [" + ", ".join(["*l"] * 5001) + "]\n",
     ":2: caches: 5001 levels, more than the 16 a config may have"),
    ("l: &l {size: 1 KiB, ways: 2, line: 64 B}\ncaches: [" + ", ".join(["*l"] * 17) + "]\n",
     ":2: caches: 17 levels, more than the 16 a config may have"),
    ("m: &m {size: 1 KiB}\nmemories: [" + ", ".join(["*m"] * 65) + "]\n" + C,
     ":2: memories: 65 memories, more than the 64 a config may have"),
]

for i, (text, expect) in enumerate(CONFIGS):
    path = write(f"c{i}.yaml", text)
    code, out, err = run("config", "show", path, timeout=20)
    check(f"config {text[:60]!r}: exit 2, message, nothing on stdout",
          code == 2 and out == "" and err.strip() == path + expect, (code, err.strip(), expect))

# A bad config stops `run` before anything is written.
path = write("stray.yaml", ",")
din = write("ok.din", "r 0 4\n")
outfile = os.path.join(tmp, "never.json")
code, out, err = run("run", "--trace", din, "--config", path, "-o", outfile, timeout=20)
check("run --config ',': exit 2, no report file",
      code == 2 and not os.path.exists(outfile) and err.strip() == path + CONFIGS[0][1], (code, err))

MAG = b"PTOTRACE\x02\x00\x00\x00"
# (trace bytes, what follows "FILE" in the message)
TRACES = [
    (b"r\n", ":1:2: missing address"),
    (b"c 10\nr\n", ":2:2: missing address"),
    (b"r 10 0\n", ":1:6: size must be positive"),
    (b"? 10\n", ":1:1: bad access type '?' (expected r, w, i, m, c or v)"),
    (b"\x00 10\n", ":1:1: bad access type '\\x00' (expected r, w, i, m, c or v)"),
    (b"read 10\n", ":1:1: bad access type 'read' (expected r, w, i, m, c or v)"),
    (b"r 11112222333344445 4\n", ":1:3: address has more than 64 bits"),
    (b"r 0 ffffffffffffffff\n", ":1:5: size larger than one access may be (1 GiB)"),
    (b"r 10 40000001\n", ":1:6: size larger than one access may be (1 GiB)"),
    (b"r ffffffffffffffff 2\n", ":1:3: the access runs past the end of the 64-bit address space"),
    (b"r zz\n", ":1:3: expected a hexadecimal address, got 'zz'"),
    (b"r 10 zz\n", ":1:6: expected a hexadecimal size, got 'zz'"),
    (b"r 0x 4\n", ":1:3: expected a hexadecimal address, got '0x'"),
    (b"r -1 4\n", ":1:3: expected a hexadecimal address, got '-1'"),
    (b"w 10 4 # ok\nr 1O 4\n", ":2:3: expected a hexadecimal address, got '1O'"),
    (b"r 10 4\n" * 3 + b"w\n", ":4:2: missing address"),
    (b"x" * (1 << 21) + b"\n", ":1: line longer than 1 MiB"),
    (b"PTOTRACE", ": byte 8: truncated record"),
    (b"PTOTRACE\x09\x00\x00\x00", ": byte 12: unsupported native trace version 9"),
    (b"PTOTRACE\x00\x00\x00\x00", ": byte 12: unsupported native trace version 0"),
    (MAG + b"\x04\x00", ": byte 14: 'same size as before' on the first access"),
    (MAG + b"\x00\x00\x00", ": byte 15: access size must be positive"),
    (MAG + b"\x00\x00\x04\x00\x00\x00", ": byte 18: access size must be positive"),
    (MAG + b"\x00\x00", ": byte 14: truncated record"),
    (MAG + b"\x40\x00\x04", ": byte 13: bad record flags"),
    (MAG + b"\x08\xff\xff\x7f\x00\x00\x00\x04", ": byte 16: tag id 2097151 out of range"),
    (MAG + b"\x00" + b"\xff" * 11, ": byte 23: varint longer than 64 bits"),
    (MAG + b"\x13\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", ": byte 23: core 9223372036854775808 out of range"),
    (MAG + b"\x17\x05\x00", ": byte 14: bad barrier record"),
    (MAG + b"\x0b\x01\x05\xff\xff\xff\x01", ": byte 15: truncated name"),
    (MAG + b"\x1f", ": byte 13: unknown meta record 7"),
    (MAG + b"\x00\x01\x04\x00\x1f\x00\x00", ": byte 15: the access runs past the end of the 64-bit address space"),
    (MAG + b"\x00\x00\x81\x80\x80\x80\x04", ": byte 19: access size larger than one access may be (1 GiB)"),
]

for i, (data, expect) in enumerate(TRACES):
    path = os.path.join(tmp, f"t{i}.trace")
    with open(path, "wb") as f:
        f.write(data)
    outfile = os.path.join(tmp, f"t{i}.json")
    code, out, err = run("run", "--trace", path, "--format", "json", "-o", outfile, timeout=20)
    check(f"trace {data[:24]!r}: exit 2, message, no report file",
          code == 2 and out == "" and not os.path.exists(outfile) and err.strip() == path + expect,
          (code, err.strip()[:300], expect))

# The command line: (arguments, the whole of stderr)
prog = write("ok.pto", "x = 1\n")
pprog = write("param.pto", "param M = 4\nparam TM = 2\nl = [0] * M\n")
slow_clock = write("slow.yaml", "clock: 1 Hz\n" + C)
slow_trace = write("slow.din", "".join("r %x 4\n" % (i * 64) for i in range(50000)))
grow = write("grow.pto", "l = [1]\nfor i in range(64):\n    l = l + l\n")
sgrow = write("sgrow.pto", "s = 'ab'\nfor i in range(64):\n    s = s + s\n")
spin = write("spin.pto", "for i in range(10**12):\n    pass\n")
CLI = [
    (["simulate", "x"], "pto-sim: unknown subcommand 'simulate' (expected one of: run, check, annotate, trace, config, schema, sweep, compare, curves, tune)"),
    (["config", "sho"], "pto-sim: unknown subcommand 'sho' (expected one of: show, host)"),
    (["run", "--trace", din, "-o", ""], "pto-sim: --output: an empty file name (use - for stdout)"),
    (["trace", prog, "-o", ""], "pto-sim: --output: an empty file name (use - for stdout)"),
    (["annotate", prog, "-o", ""], "pto-sim: --output: an empty file name (use - for stdout)"),
    (["sweep", prog, "-o", ""], "pto-sim: --output: an empty file name (use - for stdout)"),
    (["run", "--trace", din, "-D", "X=1"], "-D: applies to a PROGRAM, not to a --trace replay"),
    (["run", "--trace", din, "--max-events", "5"], "--max-events: applies to a PROGRAM, not to a --trace replay"),
    (["run", prog, "--trace", din], "pto-sim run: give either a PROGRAM or --trace FILE"),
    (["run", prog, "-D", "X"], "-D: X: expected NAME=VALUE"),
    (["run", prog, "--max-memory", "5XB"],
     "pto-sim: --max-memory: bad unit 'XB' in '5XB' (expected a size in B, KB, KiB, MB, MiB, GB, GiB, TB, TiB)"),
    (["check", prog, "--max-memory", "0 B"], "pto-sim: --max-memory: must be positive"),
    (["run", "--trace", din, "--log-level", "loud"], "pto-sim: --log-level: loud not in {trace,debug,info,warn,error,off}"),
    (["run", "--trace", din, "--format", "xml"], "pto-sim: --format: xml not in {text,json,csv}"),
    (["run", "--trace", din, "-o", din], f"{din}: is the input file {din}: not writing over it"),
    (["run", "--trace", din, "-o", tmp], f"{tmp}: cannot write output file: it is a directory"),
    (["run", "--trace", os.path.join(tmp, "none.din")], f"{os.path.join(tmp, 'none.din')}: cannot open trace file"),
    (["run", "--trace", slow_trace, "--config", slow_clock],
     "pto-sim: the simulated time passed 2^63 fs (about 2.56 hours at 1 Hz), the longest the model can count"),
    (["run", pprog, "-D", "M=99999999999999999999"], "-D: M=99999999999999999999: the integer is out of range (-2^63 .. 2^63-1)"),
    (["check", pprog, "-D", "M=-0x8000000000000001"], "-D: M=-0x8000000000000001: the integer is out of range (-2^63 .. 2^63-1)"),
    (["run", pprog, "-D", "M=8", "-D", "M=16"], "-D: M: given twice (M=8 and M=16); give it once"),
    (["run", prog, "--set", "caches.L1.size=8KiB", "--set", "caches.L1.size=16KiB"],
     "--set: caches.L1.size: given twice (caches.L1.size=8KiB and caches.L1.size=16KiB); give it once"),
    (["sweep", pprog, "-D", "TM=8", "-D", "TM=16", "-o", os.path.join(tmp, "dup.csv")],
     "-D: TM: given twice (TM=8 and TM=16); give it once"),
    (["run", grow, "--max-memory", "16 MiB"],
     f"{grow}:3:5: out of memory: the program's lists, strings and tensors would need more than 16.0 MiB (--max-memory)\n"
     "    l = l + l\n    ^"),
    # Runaway inputs end in seconds: a doubling list or string meets the
    # values' own budget (256 MiB) after about a second (the whole budget,
    # a quarter of the machine, took minutes) ...
    (["check", grow],
     f"{grow}:3:5: out of memory: the program's lists, strings and dicts would need more than 256.0 MiB "
     "(--max-value-memory)\n    l = l + l\n    ^"),
    (["run", sgrow, "--max-value-memory", "1 MiB"],
     f"{sgrow}:3:5: out of memory: the program's lists, strings and dicts would need more than 1.0 MiB "
     "(--max-value-memory)\n    s = s + s\n    ^"),
    (["check", prog, "--max-value-memory", "0 B"], "pto-sim: --max-value-memory: must be positive"),
    # ... and a loop that cannot leave early and runs past the iteration
    # limit stops before its first iteration (it ran 2 minutes to the limit).
    (["check", spin],
     f"{spin}:1:1: iteration limit exceeded: this loop runs 1000000000000 times, more than the 2000000000 loop "
     "iterations and calls left of the limit of 2000000000 (it follows --max-events)\nfor i in range(10**12):\n^"),
]
for args, expect in CLI:
    code, out, err = run(*args, timeout=20)
    check(f"CLI {args[:4]}: exit 2, message", code == 2 and out == "" and err.strip() == expect, (code, err.strip(), expect))

# A 2^24-way fully associative level is built in memory proportional to the
# lines it holds (its tables used to take 1.2 GB and a minute before the
# first access), with every policy; the counts are those of any other size.
PEAK = ("import resource, subprocess, sys\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, p.stdout.count('\"read_misses\": 1,'))\n")
for policy in H.choices("replacement"):
    huge = write(f"huge-{policy}.yaml", "caches: [{size: 1 GiB, ways: 16777216, line: 64 B, replacement: %s}]\n" % policy)
    p = subprocess.run([sys.executable, "-c", PEAK, H.pto_sim, "run", "--trace", din, "--config", huge, "--check-data",
                        "--format", "json"], capture_output=True, text=True, env=H.env, timeout=120)
    code, rss_kib, misses = (p.stdout.split() + ["?", "?", "?"])[:3]
    check(f"2^24 ways, {policy}: runs, one read miss", code == "0" and misses == "1", (p.stdout, p.stderr[-300:]))
    check(f"2^24 ways, {policy}: peak RSS under 200 MiB (was 1.2 GB)", rss_kib.isdigit() and int(rss_kib) < 200 * 1024,
          f"{rss_kib} KiB")

# A report that cannot be written to stdout is an error, not a silent loss.
if os.path.exists("/dev/full"):
    for args in (["run", "--trace", din], ["config", "show"], ["check", prog], ["--version"]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([H.pto_sim, *args], stdout=full, stderr=subprocess.PIPE, text=True, env=H.env, timeout=60)
        check(f"{args[0]} > /dev/full: exit 2 with a message",
              p.returncode == 2 and ("No space left on device" in p.stderr or "cannot write to standard output" in p.stderr),
              (p.returncode, p.stderr))
    # A report larger than stdout's buffer fails inside the write: its reason
    # must survive until the commit (it said "Success").
    big = write("big.pto", "".join(f"param P{i} = {i}\n" for i in range(3000)))
    with open("/dev/full", "w") as full:
        p = subprocess.run([H.pto_sim, "run", big, "--format", "json"], stdout=full, stderr=subprocess.PIPE,
                           text=True, env=H.env, timeout=60)
    check("a large report > /dev/full: the real reason", p.returncode == 2 and "No space left on device" in p.stderr and
          "Success" not in p.stderr, (p.returncode, p.stderr))

print(f"{len(CONFIGS)} configs, {len(TRACES)} traces, {len(CLI)} command lines in the catalogue")
H.finish()
