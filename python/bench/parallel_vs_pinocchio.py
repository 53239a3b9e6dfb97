#!/usr/bin/env python3
"""liedyn's batch_aba against Pinocchio's abaInParallel (OpenMP, a ModelPool), threads 1..T,
on one URDF with a free-flyer base (BENCHMARKS.md, "Many states at once").

The two libraries live in different interpreters when their numpy builds differ (Pinocchio's
wheel brings numpy 2; a CMake build of liedyn uses the system numpy), so each side runs in its
own process, alternating, and the medians of the rounds are compared:

    PYTHONPATH=build/release/python python3 python/bench/parallel_vs_pinocchio.py \\
        --pinocchio-python /path/to/venv-with-pin/bin/python --urdf tests/data/solo12.urdf

Each side times one call over N random states (the best of 20 calls) and prints states/s.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy as np


def best_time(f, repeat=20):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def liedyn_side(urdf, n, threads):
    import liedyn

    model = liedyn.load_urdf_file(urdf)
    rng = np.random.default_rng(1)
    X = liedyn.batch_states(model, [liedyn.random_state(model, i) for i in range(n)])
    tau = rng.uniform(-1.0, 1.0, (n, model.nv))
    out = {}
    for t in threads:
        ws = liedyn.BatchWorkspace(model, t)
        ddq = liedyn.batch_aba(model, ws, X, tau)
        out[t] = n / best_time(lambda: liedyn.batch_aba(model, ws, X, tau, out=ddq))
    return out


def pinocchio_side(urdf, n, threads):
    import pinocchio as pin

    model = pin.buildModelFromUrdf(urdf, pin.JointModelFreeFlyer())
    rng = np.random.default_rng(1)
    q = np.asfortranarray(np.column_stack([pin.randomConfiguration(model) for _ in range(n)]))
    q[:7] = np.column_stack([pin.neutral(model)[:7]] * n)  # a valid base pose
    v = np.asfortranarray(rng.uniform(-1.0, 1.0, (model.nv, n)))
    tau = np.asfortranarray(rng.uniform(-1.0, 1.0, (model.nv, n)))
    a = np.asfortranarray(np.zeros((model.nv, n)))
    pool = pin.ModelPool(model, max(threads))
    out = {}
    for t in threads:
        out[t] = n / best_time(lambda: pin.abaInParallel(t, pool, q, v, tau, a))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--urdf", default="tests/data/solo12.urdf")
    p.add_argument("--states", type=int, default=4096)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--pinocchio-python", help="an interpreter that imports pinocchio")
    p.add_argument("--side", choices=["liedyn", "pinocchio"], help=argparse.SUPPRESS)
    a = p.parse_args()
    threads = list(range(1, a.threads + 1))
    if a.side:
        f = liedyn_side if a.side == "liedyn" else pinocchio_side
        print(json.dumps(f(a.urdf, a.states, threads)))
        return
    rows = {"liedyn": [], "pinocchio": []}
    for _ in range(a.rounds):
        for side, python in (("liedyn", sys.executable), ("pinocchio", a.pinocchio_python)):
            res = subprocess.run([python, __file__, "--side", side, "--urdf", a.urdf, "--states",
                                  str(a.states), "--threads", str(a.threads)],
                                 check=True, capture_output=True, text=True).stdout
            rows[side].append(json.loads(res.strip().splitlines()[-1]))
    for t in threads:
        lie = statistics.median(r[str(t)] for r in rows["liedyn"])
        pin = statistics.median(r[str(t)] for r in rows["pinocchio"])
        print(f"{a.urdf}, N = {a.states}, {t} thread(s): liedyn batch_aba {lie / 1e3:.0f}k "
              f"states/s, Pinocchio abaInParallel {pin / 1e3:.0f}k states/s, time ratio "
              f"liedyn / Pinocchio {pin / lie:.2f} (medians of {a.rounds} alternating rounds)")


if __name__ == "__main__":
    main()
