#!/usr/bin/env python3
"""Run liedyn_bench_pinocchio (liedyn and Pinocchio side by side, one process) and write the
ratio table liedyn / Pinocchio into BENCHMARKS.md's section "Against Pinocchio, side by side".

    bench/side_by_side.py --build build/pinocchio-native [--build build/pinocchio-portable]
                          [--repetitions 5] [--min-time 0.2] [--cpu 1]
                          [--robot NAME=PATH.urdf ...] [--arm NAME=PATH.urdf ...]
                          [--out bench/results] [--markdown BENCHMARKS.md] [--reuse-json]
                          [--no-markdown]

Each --build is a build directory configured with Pinocchio found (bench/CMakeLists.txt says
how); one run per build, Google Benchmark with random interleaving, the median of the
repetitions, pinned to one core with taskset when it is installed. A build with -march=native in
its flags is labelled "native", any other "portable". The program itself checks, before timing,
that both libraries give the same results on every state, and stops if not. Each table has a
second ratio per build: liedyn against Pinocchio's wheel's precompiled instances (the library a
pip user links), measured in the same run.
Standard library only.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_benchmarks import cmake_cache, flags_of, run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTION = "## Against Pinocchio, side by side"
KERNELS = [
    ("rnea", "rnea", "rnea"),
    ("crba", "crba", "crba"),
    ("aba", "aba", "aba"),
    ("minverse", "M⁻¹", "`immamb` ↔ `computeMinverse`"),
    ("id_derivatives", "ID derivatives", "`eidamb_derivatives` (D1..D4, M) ↔ `computeRNEADerivatives`"),
    ("fd_derivatives", "FD derivatives", "`linearize` (A, B; body twist) ↔ `computeABADerivatives`"),
    ("constrained_fd", "constrained FD", "`constrained_forward_dynamics` ↔ `constraintDynamics`"),
    ("constrained_fd_derivatives", "constrained FD + derivatives",
     "`constrained_forward_dynamics_derivatives` ↔ `constraintDynamics` + `computeConstraintDynamicsDerivatives`"),
    ("impulse", "impulse dynamics", "`impulse_dynamics` ↔ `impulseDynamics` (restitution 0)"),
]


def pinocchio_version(cache):
    path = os.path.join(cache.get("pinocchio_DIR", ""), "pinocchioConfigVersion.cmake")
    if os.path.exists(path):
        with open(path) as f:
            m = re.search(r'set\(PACKAGE_VERSION "([^"]+)"\)', f.read())
            if m:
                return m.group(1)
    return "unknown"


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def load_average():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def commit():
    rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    # The benchmark's own outputs (bench/results, BENCHMARKS.md) do not make the measured code dirty.
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--",
                            ".", ":!bench/results", ":!BENCHMARKS.md"],
                           capture_output=True, text=True).stdout.strip()
    return rev + (" (with uncommitted changes)" if dirty else "")


def read_medians(data):
    """(kernel, case) -> {library: median ns}, and case -> nv."""
    out, nv = {}, {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        kernel, case, library = b["run_name"].split("/")
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
        out.setdefault((kernel, case), {})[library] = b["real_time"] * scale
        nv[split_case(case)[0]] = int(b.get("nv", 0))
    return out, nv


def run_build(build, args):
    exe = os.path.join(build, "bench", "liedyn_bench_pinocchio")
    if not os.path.exists(exe):
        sys.exit(f"{exe} not found: configure with Pinocchio found and build liedyn_bench_pinocchio (bench/CMakeLists.txt)")
    cache = cmake_cache(build)
    flags = flags_of(build)
    label = "native" if "-march=native" in flags else "portable"
    json_path = os.path.join(args.out, f"side_by_side_{label}.json")
    meta_path = os.path.join(args.out, f"side_by_side_{label}.meta.json")
    if not args.reuse_json:
        cmd = [exe, *[f"--robot={r}" for r in args.robot], *[f"--arm={r}" for r in args.arm],
               "--benchmark_enable_random_interleaving=true", f"--benchmark_repetitions={args.repetitions}",
               "--benchmark_report_aggregates_only=true", f"--benchmark_min_time={args.min_time}",
               f"--benchmark_out={json_path}", "--benchmark_out_format=json"]
        if args.cpu is not None and shutil.which("taskset"):
            cmd = ["taskset", "-c", str(args.cpu)] + cmd
        load_before = load_average()
        run(cmd, stdout=subprocess.DEVNULL)
        cxx = cache.get("CMAKE_CXX_COMPILER", "c++")
        meta = {
            "label": label, "date": datetime.date.today().isoformat(), "commit": commit(),
            "cpu": cpu_model(), "flags": flags, "pinocchio": pinocchio_version(cache),
            "compiler": subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0],
            "load": f"{load_before} → {load_average()}", "repetitions": args.repetitions,
            "min_time": args.min_time, "pinned": " ".join(cmd[:3]) if cmd[0] == "taskset" else "not pinned",
        }
        with open(meta_path, "w") as f:
            json.dump(meta, f, indent=1)
    with open(json_path) as f:
        medians, nv = read_medians(json.load(f))
    with open(meta_path) as f:
        meta = json.load(f)
    return meta, medians, nv


def ratio(times, against="pinocchio"):
    """liedyn / `against`: "pinocchio" (its headers, this build's flags) or "pinocchio_library"
    (the wheel's precompiled instances)."""
    if "liedyn" in times and against in times and times[against] > 0:
        return times["liedyn"] / times[against]
    return None


def cases_in_order(runs):
    order = []
    for kernel, _, _ in KERNELS:
        for meta, medians, _ in runs:
            for (k, case) in sorted(medians):
                if k == kernel and (k, case) not in order:
                    order.append((k, case))
    return order


def split_case(case):
    """ROBOT[_CONTACTS] -> (ROBOT, CONTACTS or ""): a contact set's name is like 4x3D_body, and a
    robot's name may hold underscores (talos_spherical)."""
    m = re.fullmatch(r"(.+?)(?:_(\d+x\d+D_\w+))?", case)
    return m.group(1), m.group(2) or ""


def table(runs):
    labels = [m["label"] for m, _, _ in runs]
    head = "| kernel | robot (contacts) | nv | " + " | ".join(
        f"{l}: liedyn ns | {l}: Pinocchio ns | **{l} ratio** | {l}: Pinocchio library ns | {l} ratio to library"
        for l in labels) + " |"
    rows = [head, "|---|---|---|" + "---|---|---|---|---|" * len(runs)]
    names = {k: n for k, n, _ in KERNELS}
    nv = {}
    for _, _, v in runs:
        nv.update(v)

    def shown(r, bold=False):
        return "—" if r is None else (f"**{r:.2f}**" if bold else f"{r:.2f}")

    for kernel, case in cases_in_order(runs):
        cells = []
        for _, medians, _ in runs:
            t = medians.get((kernel, case), {})
            cells.append(f"{t.get('liedyn', float('nan')):.0f} | {t.get('pinocchio', float('nan')):.0f} | "
                         f"{shown(ratio(t), bold=True)} | {t.get('pinocchio_library', float('nan')):.0f} | "
                         f"{shown(ratio(t, 'pinocchio_library'))}")
        robot, contacts = split_case(case)
        name = robot + (f" ({contacts.replace('_', ', ')})" if contacts else "")
        rows.append(f"| {names.get(kernel, kernel)} | {name} | {nv.get(robot, '')} | " + " | ".join(cells) + " |")
    return rows


def summary(runs):
    """Per kernel, the range of ratios over the robots, per build: against Pinocchio's headers and
    against the wheel's library."""
    rows = ["| kernel | " + " | ".join(f"{m['label']} | {m['label']}, to library" for m, _, _ in runs) + " |",
            "|---|" + "---|---|" * len(runs)]
    for kernel, name, _ in KERNELS:
        cells = []
        for _, medians, _ in runs:
            for against in ("pinocchio", "pinocchio_library"):
                rs = [ratio(t, against) for (k, _), t in medians.items() if k == kernel]
                rs = [r for r in rs if r is not None]
                cells.append("—" if not rs else (f"{min(rs):.2f}" if len(rs) == 1 else f"{min(rs):.2f}–{max(rs):.2f}"))
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return rows


def section(runs, args):
    md = [SECTION, ""]
    md.append("Generated by `bench/side_by_side.py` (this section only; `bench/run_benchmarks.py` keeps it)."
              " Both libraries run in **one process**, `liedyn_bench_pinocchio`: each library's calls in a"
              " translation unit of its own, compiled by the same compiler with the same flags (Pinocchio's"
              " templates instantiated from its headers, not the wheel's precompiled ones; its model from its"
              " own URDF parser, run through its Python bindings and rebuilt joint by joint), the same 64 random states mapped by joint name, one workspace per"
              " benchmark reused, Google Benchmark with random interleaving, the median of the repetitions,"
              " one pinned core. Before timing, the program compares every kernel's outputs on every state"
              " (relative to the largest entry, bound 1e-9) and stops on a mismatch. Ratio = liedyn /"
              " Pinocchio (lower is better). A third column, *Pinocchio library*, times the same calls"
              " against the wheel's precompiled double instances in `libpinocchio_default` (compiled with the"
              " wheel's own flags, whatever this build's: what a pip user of Pinocchio, or its Python bindings,"
              " runs; `bench/side_by_side_pinocchio.cpp` compiled a second time into a shared library of its"
              " own), checked against liedyn like the first; M⁻¹ of q has no precompiled instance, and there"
              " that column is the headers' code compiled for plain x86-64 (that translation unit's flags:"
              " it shares the wheel's types). Reproduce:\n")
    md.append("```sh\npip install pin cmeel-urdfdom-headers   # Pinocchio's C++ headers, libraries, CMake files\n"
              "PREFIX=$(python -c 'import cmeel, os; print(os.path.join(os.path.dirname(cmeel.__path__[0]), \"cmeel.prefix\"))')\n"
              "cmake --preset native -B build/pinocchio-native -DCMAKE_PREFIX_PATH=$PREFIX -DLIEDYN_PINOCCHIO_PYTHON=$(which python)\n"
              "cmake --preset release -B build/pinocchio-portable -DCMAKE_PREFIX_PATH=$PREFIX -DLIEDYN_PINOCCHIO_PYTHON=$(which python)\n"
              "cmake --build build/pinocchio-native --target liedyn_bench_pinocchio\n"
              "cmake --build build/pinocchio-portable --target liedyn_bench_pinocchio\n"
              "python3 bench/side_by_side.py --build build/pinocchio-native --build build/pinocchio-portable\n```\n")
    for meta, _, _ in runs:
        md.append(f"* {meta['label']}: {meta['date']}, commit {meta['commit']}, {meta['cpu']}, {meta['compiler']},"
                  f" `{meta['flags']}`, Pinocchio {meta['pinocchio']}, {meta['repetitions']} repetitions of"
                  f" {meta['min_time']} s, {meta['pinned']}, load average {meta['load']}")
    md.append("")
    md.append("Kernels: " + "; ".join(f"{n} = {d}" for _, n, d in KERNELS if n != d) + ". Contacts: solo12 on"
              " its 4 feet (point contacts), talos on its 2 soles (rigid contacts), in the body sense"
              " (Pinocchio's `LOCAL`) and the mixed sense (`LOCAL_WORLD_ALIGNED`); xarm7 (`bench/models/`) is"
              " welded and has no contacts. solo12_spherical and talos_spherical are the same robots with spherical"
              " hips (and shoulders), built by `scripts/generate_pinocchio_reference.py` (tests/data/pinocchio4/README.md),"
              " both libraries' models from Pinocchio's records of them; talos_spherical's constrained derivatives"
              " under mixed-sense soles are not timed: Pinocchio's ∂q̈/∂q there disagrees with its own finite"
              " differences (`bench/pinocchio_derivative_check.py`). Derivatives in the body representation,"
              " Pinocchio's.\n")
    md.append("Ratio ranges over the robots:\n")
    md.extend(summary(runs))
    md.append("")
    md.append("Per kernel and robot (ns, median):\n")
    md.extend(table(runs))
    md.append("")
    return "\n".join(md) + "\n"


def write_markdown(path, text):
    with open(path) as f:
        old = f.read()
    start = old.find("\n" + SECTION)
    if start < 0:
        sys.exit(f"{path} has no section '{SECTION}'")
    end = old.find("\n## ", start + 1)
    new = old[:start + 1] + text + (old[end:] if end >= 0 else "")
    with open(path, "w") as f:
        f.write(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", action="append", required=True, help="a build directory with liedyn_bench_pinocchio")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.2)
    ap.add_argument("--cpu", type=int, default=1, help="core to pin to with taskset (default 1)")
    ap.add_argument("--robot", action="append", default=[], help="NAME=PATH.urdf, a free-flyer")
    ap.add_argument("--arm", action="append", default=[], help="NAME=PATH.urdf, welded")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--markdown", default=os.path.join(ROOT, "BENCHMARKS.md"))
    ap.add_argument("--no-markdown", action="store_true", help="print the tables only")
    ap.add_argument("--reuse-json", action="store_true", help="no run: the tables from OUT/side_by_side_*.json")
    args = ap.parse_args()
    if args.repetitions < 5:
        print("note: fewer than 5 repetitions", file=sys.stderr)
    os.makedirs(args.out, exist_ok=True)
    runs = [run_build(b, args) for b in args.build]
    print("\n".join(summary(runs)))
    print()
    print("\n".join(table(runs)))
    if not args.no_markdown:
        write_markdown(args.markdown, section(runs, args))
        print(f"wrote {os.path.relpath(args.markdown)}")


if __name__ == "__main__":
    main()
