#!/usr/bin/python3
"""Pictures of pto-sim runs, drawn with Debian's python3-matplotlib, because
a heatmap or a roofline says in a glance what the report's columns say in a
page.

From one JSON report (`pto-sim run ... --format json`):
  plot.py heatmap  REPORT.json -o out.png [--metric accesses|misses]
      tensors x time (the report's epochs: run with --epoch or
      --epoch-accesses), colour = accesses or misses, one panel per level;
      with --heatmap-bins N each tensor's address range in N rows
  plot.py levels   REPORT.json -o out.png
      per level: hits and misses (requests), and the miss rate
  plot.py roofline REPORT.json -o out.png
      peak compute, the DRAM roof and each level's bandwidth roof; the run
  plot.py timeline REPORT.json -o out.png
      per level over time (the epochs): bandwidth, miss rate (caches), and
      the region that issued most of each epoch
  heatmap and timeline take --cycles A:B (only the epochs in those core
  cycles: a pto.MemoryVisualizer's traced block) and --title-note TEXT.

From a sweep CSV (one row per point, parameters and report keys as columns):
  plot.py sweep-rate    SWEEP.csv [--x PARAM] -o out.png [--rate COL...] [--misses COL...] [--per COL] [--group COL]
      miss rate per level (columns ending in miss_rate) and misses per 1000
      accesses (columns ending in misses, over --per, default `accesses`)
  plot.py sweep-dram    SWEEP.csv [--x TILE] -o out.png [--bytes COL] [--group COL]
                        [--matmul M N K --capacity BYTES --elem BYTES]
      DRAM bytes vs tile size, with the matmul lower bound 2*M*N*K/sqrt(S)
      words (S = capacity in words) drawn in when --matmul is given
  plot.py sweep-heatmap SWEEP.csv [--x P1 --y P2] -o out.png [--metric cycles]
  plot.py sweep-roofline SWEEP.csv -o out.png [--peak-flops F --peak-bw B] [--label COL...]
      every point at (flops / dram_bytes, flops / seconds)
  Left out, --x and --y are the sweep's first and second swept parameters (param.*
  or set.* columns that vary), the peaks and labels pto-sim's CSV's own.

Every picture is 1000 x 600 pixels (--width, --height) with a title, axis
labels with units and a legend. --data FILE writes the numbers drawn as JSON
(the tests compare them with the report). Exit 2 with a message on bad input.
"""
import argparse
import csv
import json
import math
import sys

try:
    import matplotlib
except ImportError:
    # A python3 that is not Debian's (a venv, /usr/local) has no matplotlib:
    # say which package and which interpreter, not a bare traceback.
    print(f"plot.py: needs matplotlib, which {sys.executable} cannot import: install Debian's python3-matplotlib "
          "(apt-get install python3-matplotlib) and run plot.py with /usr/bin/python3", file=sys.stderr)
    sys.exit(2)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402


class PlotError(Exception):
    pass


def load_report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise PlotError(f"{path}: {e}")


def load_csv(path):
    try:
        with open(path, newline="") as f:
            head = f.read(1)
            f.seek(0)
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise PlotError(f"{path}: {e}")
    # A JSON report read as CSV gave a header of '{' and a TypeError (issue 28, `plot.py curves` on
    # `pto-sim curves --format json`): say what the verb reads instead.
    if head in ("{", "["):
        raise PlotError(f"{path}:1: this is JSON; this verb reads CSV (pto-sim's --format csv, or a sweep's -o)")
    if not rows:
        raise PlotError(f"{path}: no rows")
    return rows


def column(rows, name, path):
    # pto-sim sweep names a parameter's column param.NAME: --x TM finds it.
    if name not in rows[0] and "param." + name in rows[0]:
        name = "param." + name
    if name not in rows[0]:
        raise PlotError(f"{path}: no column '{name}' (columns: {', '.join(rows[0].keys())})")
    out = []
    for i, r in enumerate(rows):
        try:
            out.append(float(r[name]))
        except (TypeError, ValueError):
            raise PlotError(f"{path}:{i + 2}: {name}: not a number: {r[name]!r}")
    return out


def figure(args, ncols=1, nrows=1):
    fig, axes = plt.subplots(nrows, ncols, figsize=(args.width / 100, args.height / 100), dpi=100, squeeze=False)
    return fig, [a for row in axes for a in row]


def save(fig, args, data):
    fig.savefig(args.output, dpi=100)  # no tight bbox: the size stays what was asked
    plt.close(fig)
    if args.data:
        with open(args.data, "w") as f:
            json.dump(data, f, indent=1)


def level_names(rep):
    return [l["name"] for l in rep["levels"] if l["reads"] + l["writes"] > 0]


# ---- one report ----

def human_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if n == int(n) else f"{n:.1f} {unit}"
        n /= 1024


def count_colorbar(fig, mesh, ax, label):
    """A log colour bar labelled with plain numbers (minor ticks too when the range is under a decade)."""
    cb = fig.colorbar(mesh, ax=ax)
    cb.set_label(label)
    plain = ticker.FuncFormatter(lambda v, _: f"{v:g}")
    cb.ax.yaxis.set_major_formatter(plain)
    lo, hi = mesh.norm.vmin, mesh.norm.vmax
    cb.ax.yaxis.set_minor_formatter(plain if hi / lo < 10 else ticker.NullFormatter())
    return cb


def report_epochs(args):
    """The report and its epochs, those within --cycles A:B when given."""
    rep = load_report(args.input)
    epochs = rep.get("epochs")
    if not epochs:
        raise PlotError(f"{args.input}: no epochs in the report (run pto-sim with --epoch CYCLES or --epoch-accesses N)")
    if args.cycles:
        try:
            lo, hi = (float(x) for x in args.cycles.split(":"))
        except ValueError:
            raise PlotError(f"--cycles {args.cycles}: expected A:B (core cycles)")
        epochs = [e for e in epochs if e["end_cycles"] > lo and e["start_cycles"] < hi] or \
            [min(epochs, key=lambda e: abs(e["start_cycles"] - lo))]
    return rep, epochs


def title(rep, text, args):
    note = f" — {args.title_note}" if args.title_note else ""
    return f"{text}\n{rep.get('source', '')} on {rep.get('config', '')}{note}"


def plot_heatmap(args):
    rep, epochs = report_epochs(args)
    # Only the levels where the metric has something to show (misses: caches),
    # and in each panel only the tensors that have some.
    shown = {}
    for e in epochs:
        for l in e["levels"]:
            for t in l.get("tensors", []):
                if t[args.metric] and t["name"] != "(untagged)":
                    names = shown.setdefault(l["name"], [])
                    if t["name"] not in names:
                        names.append(t["name"])
    levels = [n for n in level_names(rep) if n in shown]
    if not levels:
        raise PlotError(f"{args.input}: no tagged {args.metric} in the epochs")
    # With --heatmap-bins each tensor is `bins` rows: its address range, low
    # addresses at the bottom; without, one row per tensor.
    bins = rep.get("heatmap_bins", 1)
    sizes = {t["name"]: t["bytes"] for t in rep.get("heatmap_tensors", [])}
    order = [t["name"] for t in rep.get("heatmap_tensors", [])]
    for names in shown.values():
        names.sort(key=lambda n: order.index(n) if n in order else len(order))
    clock = rep["clock_hz"]
    edges = [e["start_cycles"] / clock * 1e6 for e in epochs] + [epochs[-1]["end_cycles"] / clock * 1e6]
    ncols = min(3, len(levels))
    nrows = (len(levels) + ncols - 1) // ncols
    fig, axes = figure(args, ncols=ncols, nrows=nrows)
    for ax in axes[len(levels):]:
        ax.set_visible(False)
    data = {"bins": bins, "time_edges_us": edges, "tensors": {}, "levels": {}}
    for k, (ax, name) in enumerate(zip(axes, levels)):
        tensors = shown[name]
        grid = [[0] * len(epochs) for _ in range(len(tensors) * bins)]
        for x, e in enumerate(epochs):
            lv = next(l for l in e["levels"] if l["name"] == name)
            for t in lv.get("tensors", []):
                if t["name"] not in tensors:
                    continue
                row = tensors.index(t["name"]) * bins
                if bins > 1:
                    for b in t.get("bins", []):
                        grid[row + b["bin"]][x] = b[args.metric]
                else:
                    grid[row][x] = t[args.metric]
        data["tensors"][name] = tensors
        data["levels"][name] = grid
        peak = max(max(r) for r in grid)
        norm = LogNorm(vmin=1, vmax=max(peak, 2))
        masked = [[v if v > 0 else float("nan") for v in r] for r in grid]
        mesh = ax.pcolormesh(edges, range(len(grid) + 1), masked, norm=norm, cmap="viridis", shading="flat")
        ax.set_yticks([(i + 0.5) * bins for i in range(len(tensors))])
        if bins > 1:
            ax.set_yticklabels([f"{t}\n{human_bytes(sizes[t])}" if t in sizes else t for t in tensors])
            for i in range(1, len(tensors)):
                ax.axhline(i * bins, color="black", linewidth=0.8)
        else:
            ax.set_yticklabels(tensors)
        if k % ncols == 0:
            ax.set_ylabel("tensor: address, low at the bottom" if bins > 1 else "tensor")
        ax.set_ylim(0, len(grid))
        ax.set_xlabel("simulated time (µs)")
        ax.set_title(name)
        count_colorbar(fig, mesh, ax, f"{args.metric} per epoch (log)")
    what = f"address within each tensor ({bins} bins of its range)" if bins > 1 else "tensor"
    fig.suptitle(title(rep, f"{args.metric} by {what} over time (white: none)", args))
    fig.tight_layout()
    save(fig, args, data)


def plot_timeline(args):
    """Bandwidth and miss rate per level over the epochs, and who issued them."""
    rep, epochs = report_epochs(args)
    clock = rep["clock_hz"]
    mids = [(e["start_cycles"] + e["end_cycles"]) / 2 / clock * 1e6 for e in epochs]
    names = [n for n in level_names(rep) if any(
        next(l for l in e["levels"] if l["name"] == n)["accesses"] for e in epochs)]
    if not names:
        raise PlotError(f"{args.input}: no level has accesses in the epochs shown")
    kinds = {l["name"]: l["kind"] for l in rep["levels"]}
    fig, (bw, mr, who) = figure(args, nrows=3)
    data = {"time_us": mids, "bandwidth_gb_s": {}, "miss_rate": {}, "region": [e.get("region", "") for e in epochs]}
    for n in names:
        rows = [next(l for l in e["levels"] if l["name"] == n) for e in epochs]
        data["bandwidth_gb_s"][n] = [r["bandwidth_bytes_per_s"] / 1e9 for r in rows]
        bw.plot(mids, data["bandwidth_gb_s"][n], marker=".", label=n)
        if kinds.get(n) == "cache":
            data["miss_rate"][n] = [r["miss_rate"] * 100 for r in rows]
            mr.plot(mids, data["miss_rate"][n], marker=".", label=n)
    bw.set_ylabel("bandwidth (GB/s)")
    # Legends beside the panels, where they hide no point.
    outside = dict(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", borderaxespad=0)
    bw.legend(**outside)
    mr.set_ylabel("miss rate (%)")
    mr.set_ylim(0, 105)
    if data["miss_rate"]:
        mr.legend(**outside)
    regions = []
    for r in data["region"]:
        if r not in regions:
            regions.append(r)
    colours = plt.get_cmap("tab10")
    width = [(e["end_cycles"] - e["start_cycles"]) / clock * 1e6 for e in epochs]
    for i, r in enumerate(regions):
        xs = [(e["start_cycles"] / clock * 1e6, w) for e, w, g in zip(epochs, width, data["region"]) if g == r]
        who.broken_barh(xs, (0, 1), color=colours(i % 10), label=r or "(top level)")
    who.set_yticks([])
    who.set_ylabel("region")
    who.legend(**outside)
    for ax in (bw, mr, who):
        ax.set_xlim(epochs[0]["start_cycles"] / clock * 1e6, epochs[-1]["end_cycles"] / clock * 1e6)
    who.set_xlabel("simulated time (µs)")
    fig.suptitle(title(rep, "bandwidth and miss rate per level over time (one point per epoch)", args))
    fig.tight_layout()
    save(fig, args, data)


def plot_levels(args):
    rep = load_report(args.input)
    lv = [l for l in rep["levels"] if l["reads"] + l["writes"] > 0]
    if not lv:
        raise PlotError(f"{args.input}: no level saw any traffic")
    names = [l["name"] for l in lv]
    hits = [l["read_hits"] + l["write_hits"] for l in lv]
    misses = [l["read_misses"] + l["write_misses"] for l in lv]
    rates = [l["miss_rate"] for l in lv]
    fig, (a, b) = figure(args, ncols=2)
    x = range(len(names))
    a.bar(x, hits, label="hits", color="tab:green")
    a.bar(x, misses, bottom=hits, label="misses", color="tab:red")
    a.set_xticks(list(x))
    a.set_xticklabels(names)
    a.set_xlabel("level")
    a.set_ylabel("requests (count)")
    a.set_title("requests per level")
    a.legend()
    b.bar(x, [r * 100 for r in rates], color="tab:red", label="miss rate")
    b.set_xticks(list(x))
    b.set_xticklabels(names)
    b.set_xlabel("level")
    b.set_ylabel("miss rate (%)")
    b.set_title("miss rate per level")
    b.legend()
    fig.suptitle(f"{rep.get('source', '')} on {rep.get('config', '')}")
    fig.tight_layout()
    save(fig, args, {"levels": names, "hits": hits, "misses": misses, "miss_rate": rates})


def roofline_axes(ax, peak_flops, roofs, points, title, xlabel="arithmetic intensity (flop/byte of DRAM traffic)"):
    """roofs: [(label, bytes/s)]; points: [(label, AI flop/B, flop/s[, colour])]."""
    ais = [p[1] for p in points if p[1] > 0]
    lo = min([0.01] + [a / 10 for a in ais])
    hi = max([1000.0] + [a * 10 for a in ais])
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    ax.axhline(peak_flops / 1e9, color="black", linestyle="--", label=f"peak compute {peak_flops / 1e9:.4g} GFLOP/s")
    for k, (label, bw) in enumerate(roofs):
        if bw > 0:
            ax.plot(xs, [min(peak_flops, bw * x) / 1e9 for x in xs], color=f"C{k}",
                    label=f"{label} roof {bw / 1e9:.4g} GB/s")
    for p in points:
        label, ai, perf = p[:3]
        if ai > 0 and perf > 0:
            ax.plot([ai], [perf / 1e9], "o", markersize=8, label=label, **({"color": p[3]} if len(p) > 3 else {}))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("performance (GFLOP/s)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small", loc="lower right")


def plot_roofline(args):
    """A hierarchical roofline: each memory level's roof with the run's point at
    that level's intensity (flops per byte the level served: its bytes read
    and written), in the roof's colour. One DRAM-intensity point under cache
    roofs (issue 28) said nothing about the caches: a point under its own
    roof shows which level bounds the run."""
    rep = load_report(args.input)
    lv = [l for l in rep["levels"] if l["kind"] in ("cache", "dram")]
    roofs = [(l["name"], l.get("peak_bandwidth_bytes_per_s", 0)) for l in lv]
    perf, flops = rep["gflops_per_s"] * 1e9, rep["flops"]
    points = []
    for k, l in enumerate(lv):
        moved = l.get("bytes_read", 0) + l.get("bytes_written", 0)
        if moved and flops:
            ai = flops / moved
            points.append((f"{l['name']}: {ai:.3g} flop/B, {perf / 1e9:.3g} GFLOP/s", ai, perf, f"C{k}"))
    fig, (ax,) = figure(args)
    roofline_axes(ax, rep["peak_flops_per_s"], roofs, points, f"roofline: {rep.get('source', '')} on {rep.get('config', '')}",
                  "arithmetic intensity (flop per byte that level served)")
    fig.tight_layout()
    save(fig, args, {"peak_flops_per_s": rep["peak_flops_per_s"], "roofs": roofs,
                     "points": [{"level": p[0].split(":")[0], "ai": p[1], "flops_per_s": p[2]} for p in points]})


# ---- sweep CSV ----

def sorted_by(xs, *cols):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    return [xs[i] for i in order], [[c[i] for i in order] for c in cols]


def groups(rows, args):
    """(label suffix, row indices) per value of --group. Without it, one group,
    unless x repeats because another parameter varies too: then that parameter
    groups (issue 28: a TM x TN sweep drew one zigzag line up and down each TM);
    two or more such parameters cannot be told apart on one axis: exit 2."""
    if not args.group:
        x = args.x if args.x in rows[0] or "param." + args.x not in rows[0] else "param." + args.x
        xs = [r.get(x) for r in rows]
        if len(set(xs)) < len(xs):
            others = [c for c in rows[0] if c and c.startswith(("param.", "set.")) and c != x and
                      len({r[c] for r in rows}) > 1]
            if len(others) > 1:
                raise PlotError(f"{args.input}: {x} repeats while {', '.join(others)} vary: pass --group with one "
                                "of them and keep the others fixed (a sweep per value)")
            if others:
                args.group = others[0]
        if not args.group:
            return [("", list(range(len(rows))))]
    if args.group not in rows[0] and "param." + args.group in rows[0]:
        args.group = "param." + args.group
    if args.group not in rows[0]:
        raise PlotError(f"{args.input}: no column '{args.group}' (columns: {', '.join(rows[0].keys())})")
    values = []
    for r in rows:
        if r[args.group] not in values:
            values.append(r[args.group])
    return [(f" ({args.group}={v})", [i for i, r in enumerate(rows) if r[args.group] == v]) for v in values]


def shown(rows, cols):
    """The columns found by name that hold numbers, not all zero (a sweep CSV
    has every level's every key: registers and DRAM never miss, and keys a
    level lacks are empty)."""
    out = []
    for c in cols:
        try:
            v = [float(r[c]) for r in rows]
        except (TypeError, ValueError):
            continue
        if any(v):
            out.append(c)
    return out


def sweep_defaults(args, rows):
    """What a newcomer leaves out of a sweep picture, taken from pto-sim's own CSV: --x (and --y) the swept
    parameters (param.* or set.* columns that vary, in the CSV's order), sweep-roofline's peaks its
    peak_flops_per_s and peak_dram_bandwidth_bytes_per_s, its labels the swept parameters."""
    swept = [c for c in rows[0] if c and c.startswith(("param.", "set.")) and len({r[c] for r in rows}) > 1]
    for name in ("x", "y"):
        if hasattr(args, name) and getattr(args, name) is None:
            taken = {v for c in ([args.x] if name == "y" else []) for v in (c, "param." + c, "set." + c)}
            free = [c for c in swept if c not in taken]
            if not free:
                raise PlotError(f"{args.input}: give --{name} COLUMN (the CSV has {len(swept)} swept parameter"
                                f"{'s' if len(swept) != 1 else ''}{': ' + ', '.join(swept) if swept else ''})")
            setattr(args, name, free[0])
    for name, col in (("peak_flops", "peak_flops_per_s"), ("peak_bw", "peak_dram_bandwidth_bytes_per_s")):
        if hasattr(args, name) and getattr(args, name) is None:
            values = {r.get(col) for r in rows} - {None, ""}
            if len(values) != 1:
                raise PlotError(f"{args.input}: give --{name.replace('_', '-')} (the CSV's {col} is "
                                f"{'missing' if not values else 'not one value: several configs'})")
            setattr(args, name, float(values.pop()))
    if hasattr(args, "label") and args.label is None and hasattr(args, "peak_bw"):
        args.label = swept or None


def plot_sweep_rate(args):
    rows = load_csv(args.input)
    sweep_defaults(args, rows)
    keys = list(rows[0].keys())
    # By default one line per level: its miss rate, and its demand misses
    # (pto-sim's sweep CSV: LEVEL.miss_rate, LEVEL.demand_misses).
    # Other CSVs: every column ending in miss_rate, and in misses.
    rate_cols = args.rate or shown(rows, [k for k in keys if k.endswith(".miss_rate") and k.count(".") == 1]) or \
        [k for k in keys if k.endswith("miss_rate")]
    miss_cols = args.misses or shown(rows, [k for k in keys if k.endswith(".demand_misses")]) or \
        [k for k in keys if k.endswith("misses") and not k.endswith(
            ("compulsory_misses", "capacity_misses", "conflict_misses", "read_misses", "write_misses"))]
    if not rate_cols:
        raise PlotError(f"{args.input}: no miss-rate column (give --rate COL)")
    x = column(rows, args.x, args.input)
    if args.per == "accesses" and "accesses" not in rows[0] and "core.accesses" in rows[0]:
        args.per = "core.accesses"  # the core's requests, in pto-sim's sweep CSV
    per = column(rows, args.per, args.input) if miss_cols else []
    fig, (a, b) = figure(args, ncols=2)
    data = {"x": {}, "miss_rate": {}, "mpka": {}}
    for suffix, idx in groups(rows, args):
        gx = [x[i] for i in idx]
        for c in rate_cols:
            v = column(rows, c, args.input)
            xs, (ys,) = sorted_by(gx, [v[i] for i in idx])
            a.plot(xs, [y * 100 for y in ys], "o-", label=c + suffix)
            data["x"][c + suffix] = xs
            data["miss_rate"][c + suffix] = ys
        for c in miss_cols:
            m = column(rows, c, args.input)
            xs, (ys,) = sorted_by(gx, [1000 * m[i] / per[i] if per[i] else 0 for i in idx])
            b.plot(xs, ys, "o-", label=c + suffix)
            data["mpka"][c + suffix] = ys
    xlabel = args.x + (f" ({args.x_unit})" if args.x_unit else "")
    a.set_xlabel(xlabel)
    a.set_ylabel("miss rate (%)")
    a.set_title("miss rate per level")
    a.legend(fontsize="small")
    b.set_xlabel(xlabel)
    b.set_ylabel(f"misses per 1000 {args.per}")
    b.set_title(f"misses per 1000 {args.per}")
    if miss_cols:
        b.legend(fontsize="small")
    fig.suptitle(f"miss rate and misses per kilo-access vs {args.x}")
    fig.tight_layout()
    save(fig, args, data)


def plot_sweep_dram(args):
    rows = load_csv(args.input)
    sweep_defaults(args, rows)
    x = column(rows, args.x, args.input)
    b = column(rows, args.bytes, args.input)
    fig, (ax,) = figure(args)
    data = {"x": {}, "bytes": {}}
    for suffix, idx in groups(rows, args):
        xs, (ys,) = sorted_by([x[i] for i in idx], [b[i] for i in idx])
        ax.plot(xs, ys, "o-", label=f"simulated {args.bytes}{suffix}")
        data["x"][args.bytes + suffix] = xs
        data["bytes"][args.bytes + suffix] = ys
    if args.matmul:
        m, n, k = args.matmul
        if not args.capacity:
            raise PlotError("--matmul needs --capacity BYTES (the fast memory the tiles live in)")
        words = args.capacity / args.elem
        bound = 2 * m * n * k / math.sqrt(words) * args.elem
        ax.axhline(bound, color="tab:red", linestyle="--",
                   label=f"lower bound 2·M·N·K/√S words, M·N·K = {m:g}·{n:g}·{k:g}, S = {words:.0f} words: {bound:.4g} B")
        data["lower_bound_bytes"] = bound
    ax.set_xlabel(args.x + (f" ({args.x_unit})" if args.x_unit else " (elements)"))
    ax.set_ylabel("DRAM traffic (bytes)")
    ax.set_yscale("log")
    ax.set_title(f"DRAM bytes vs {args.x}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    save(fig, args, data)


def plot_sweep_heatmap(args):
    rows = load_csv(args.input)
    sweep_defaults(args, rows)
    x = column(rows, args.x, args.input)
    y = column(rows, args.y, args.input)
    v = column(rows, args.metric, args.input)
    xv, yv = sorted(set(x)), sorted(set(y))
    grid = [[float("nan")] * len(xv) for _ in yv]
    for xi, yi, vi in zip(x, y, v):
        if grid[yv.index(yi)][xv.index(xi)] == grid[yv.index(yi)][xv.index(xi)]:  # a cell drawn twice hid a point
            cols = {args.x, args.y, "param." + args.x, "param." + args.y, "set." + args.x, "set." + args.y}
            others = [c for c in rows[0] if c and c.startswith(("param.", "set.")) and c not in cols and
                      len({r[c] for r in rows}) > 1]
            raise PlotError(f"{args.input}: several points at {args.x}={xi:g}, {args.y}={yi:g}"
                            + (f" ({', '.join(others)} {'vary' if len(others) > 1 else 'varies'} too)" if others else "")
                            + ": keep the other parameters fixed (a sweep per value)")
        grid[yv.index(yi)][xv.index(xi)] = vi
    fig, (ax,) = figure(args)
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="magma")
    ax.set_xticks(range(len(xv)))
    ax.set_xticklabels([f"{a:g}" for a in xv])
    ax.set_yticks(range(len(yv)))
    ax.set_yticklabels([f"{a:g}" for a in yv])
    finite = [v for row in grid for v in row if v == v]
    lo, hi = min(finite), max(finite)
    for i, row in enumerate(grid):
        for j, val in enumerate(row):
            if val == val:  # dark text on the light end of the scale
                light = hi > lo and (val - lo) / (hi - lo) > 0.6
                ax.text(j, i, f"{val:.3g}", ha="center", va="center", color="black" if light else "white")
    ax.set_xlabel(args.x)
    ax.set_ylabel(args.y)
    fig.colorbar(im, ax=ax, label=args.metric + (f" ({args.unit})" if args.unit else ""))
    ax.set_title(f"{args.metric} over {args.x} x {args.y}")
    fig.tight_layout()
    save(fig, args, {"x": xv, "y": yv, "grid": grid})


def plot_sweep_roofline(args):
    rows = load_csv(args.input)
    sweep_defaults(args, rows)
    flops = column(rows, "flops", args.input)
    dram = column(rows, "dram_bytes", args.input)
    secs = column(rows, "seconds", args.input)
    for c in args.label or []:
        if c not in rows[0]:
            raise PlotError(f"{args.input}: no column '{c}' (columns: {', '.join(rows[0].keys())})")
    labels = [", ".join(f"{c}={r[c]}" for c in args.label) if args.label else f"point {i}" for i, r in enumerate(rows)]
    points = [(lab, f / d if d else 0, f / s if s else 0) for lab, f, d, s in zip(labels, flops, dram, secs)]
    fig, (ax,) = figure(args)
    roofline_axes(ax, args.peak_flops, [("DRAM", args.peak_bw)], points, "sweep on the roofline")
    fig.tight_layout()
    save(fig, args, {"points": [{"label": p[0], "ai": p[1], "flops_per_s": p[2]} for p in points]})


def config_levels(rows, path):
    """The config's cache levels of a curves CSV (column config_levels,
    "L1=32768/8;L2=262144/8"), L1 first; [] for a CSV from before it."""
    spec = rows[0].get("config_levels") or ""
    out = []
    for part in filter(None, spec.split(";")):
        name, _, geometry = part.partition("=")
        size, _, ways = geometry.partition("/")
        if not name or not size.isdigit() or not ways:
            raise PlotError(f"{path}:2: config_levels: expected NAME=SIZE/WAYS;..., got {part!r}")
        out.append((name, int(size), ways))
    return out


def plot_curves(args):
    """`pto-sim curves --format csv`: miss ratio against size, one line per
    associativity; the config's levels marked at their sizes (a dashed line
    each, labelled) and the measured level's own point circled, so that one
    reads off where the config sits and what a bigger or smaller cache
    would miss. Levels outside the plotted sizes, and a config
    associativity that is not among the curves, are said in the legend
    rather than silently left out."""
    rows = load_csv(args.input)
    sizes, ratios = column(rows, "size", args.input), column(rows, "miss_ratio", args.input)
    level = rows[0]["level"]
    fig, (ax,) = figure(args)
    data = {}
    # --sample: each estimate's standard error as an error bar (two of them:
    # about a 95 % interval).
    errors = [float(r.get("miss_ratio_error") or 0) for r in rows]
    for ways in dict.fromkeys(r["ways"] for r in rows):
        pts = sorted((s, m, e) for s, m, e, r in zip(sizes, ratios, errors, rows) if r["ways"] == ways)
        label = "fully associative" if ways == "full" else f"{ways}-way"
        ax.errorbar([p[0] for p in pts], [100 * p[1] for p in pts], yerr=[200 * p[2] for p in pts] if any(errors) else None,
                    marker="o", capsize=3, label=label)
        data[label] = [list(p[:2]) for p in pts]
        if any(errors):
            data[label + " error"] = [p[2] for p in pts]
    circled = False
    for s, m, r in zip(sizes, ratios, rows):
        if r.get("config_point") == "1":
            circled = True
            ax.plot([s], [100 * m], "o", markersize=16, markerfacecolor="none", markeredgecolor="black",
                    markeredgewidth=2, label=f"config: {human_bytes(int(s))} {r['ways']}-way, "
                    f"{100 * m:.2f} % misses")
    lo, hi = min(sizes), max(sizes)
    marks, notes = [], []
    for name, size, ways in config_levels(rows, args.input):
        what = f"{name} {human_bytes(size)} {ways}-way"
        if not lo <= size <= hi:
            notes.append(f"{what}: outside the plotted sizes")
            continue
        ax.axvline(size, color="black" if name == level else "grey", linestyle="--", linewidth=1)
        marks.append({"level": name, "size": size, "ways": ways, "label": what})
        if name == level and not circled:
            notes.append(f"config {what}: not among the curves (--ways)")
    for n in notes:  # legend entries without a line
        ax.plot([], [], " ", label=n)
    data["config_levels"], data["notes"] = marks, notes
    for m in marks:  # named along the top, where neither the legend nor the curves cover them
        ax.annotate(m["label"], (m["size"], 1), xycoords=("data", "axes fraction"), xytext=(0, 3),
                    textcoords="offset points", ha="center", va="bottom", fontsize=9)
    lo_y, hi_y = ax.get_ylim()
    ax.set_ylim(max(lo_y, -2), min(hi_y, 102))  # a ratio: error bars do not widen it past 0..100 %
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(set(sizes)))
    ax.set_xticklabels([human_bytes(int(s)) for s in sorted(set(sizes))], rotation=30)
    ax.set_xlabel(f"{level} size ({rows[0]['line']} B lines, LRU)")
    ax.set_ylabel("miss ratio (%)")
    sampled = rows[0].get("exact") == "0"
    ax.set_title(f"Miss-ratio curves of {level}" + (" (sampled: estimates, bars 2 standard errors)" if sampled else ""),
                 pad=22 if marks else 6)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.subplots_adjust(bottom=0.18)
    save(fig, args, data)


def main(argv):
    p = argparse.ArgumentParser(description="Pictures of pto-sim reports and sweeps")
    sub = p.add_subparsers(dest="cmd", required=True)

    def common(sp):
        sp.add_argument("input")
        sp.add_argument("-o", "--output", required=True)
        sp.add_argument("--data", help="also write the numbers drawn, as JSON")
        sp.add_argument("--width", type=int, default=1000)
        sp.add_argument("--height", type=int, default=600)
        return sp

    s = common(sub.add_parser("heatmap"))
    s.add_argument("--metric", choices=["accesses", "misses"], default="accesses")
    s.add_argument("--cycles", help="A:B: only the epochs within these core cycles")
    s.add_argument("--title-note", help="added to the title")
    s = common(sub.add_parser("timeline"))
    s.add_argument("--cycles", help="A:B: only the epochs within these core cycles")
    s.add_argument("--title-note", help="added to the title")
    common(sub.add_parser("levels"))
    common(sub.add_parser("roofline"))
    common(sub.add_parser("curves"))
    s = common(sub.add_parser("sweep-rate"))
    s.add_argument("--x", help="default: the first swept parameter")
    s.add_argument("--x-unit", default="")
    s.add_argument("--rate", nargs="+")
    s.add_argument("--misses", nargs="+")
    s.add_argument("--per", default="accesses")
    s.add_argument("--group", help="one line per value of this column (the other parameter of the sweep)")
    s = common(sub.add_parser("sweep-dram"))
    s.add_argument("--x", help="default: the first swept parameter")
    s.add_argument("--x-unit", default="")
    s.add_argument("--bytes", default="dram_bytes")
    s.add_argument("--group", help="one line per value of this column")
    s.add_argument("--matmul", nargs=3, type=float, metavar=("M", "N", "K"))
    s.add_argument("--capacity", type=float, help="bytes of the fast memory (S in words = capacity / elem)")
    s.add_argument("--elem", type=float, default=4, help="bytes per word (default 4: float32)")
    s = common(sub.add_parser("sweep-heatmap"))
    s.add_argument("--x", help="default: the first swept parameter")
    s.add_argument("--y", help="default: the second swept parameter")
    s.add_argument("--metric", default="cycles")
    s.add_argument("--unit", default="")
    s = common(sub.add_parser("sweep-roofline"))
    s.add_argument("--peak-flops", type=float, help="default: the CSV's peak_flops_per_s")
    s.add_argument("--peak-bw", type=float, help="default: the CSV's peak_dram_bandwidth_bytes_per_s")
    s.add_argument("--label", nargs="+", help="columns that name each point (default: the swept parameters)")
    args = p.parse_args(argv)
    if args.width < 100 or args.height < 100:
        raise PlotError("--width and --height must be at least 100 pixels")
    {"heatmap": plot_heatmap, "timeline": plot_timeline, "levels": plot_levels, "roofline": plot_roofline, "curves": plot_curves, "sweep-rate": plot_sweep_rate,
     "sweep-dram": plot_sweep_dram, "sweep-heatmap": plot_sweep_heatmap,
     "sweep-roofline": plot_sweep_roofline}[args.cmd](args)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except PlotError as e:
        print(f"plot.py: {e}", file=sys.stderr)
        sys.exit(2)
