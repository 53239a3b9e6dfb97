#!/usr/bin/env python3
"""Throughput of liedyn's batch layer from Python (BENCHMARKS.md, "Many states at once").

Three comparisons, each interleaved (the two sides alternate, medians of the rounds):
  cpp     Python batch_aba on solo12 at N states, one thread, against the C++ batch of the same
          size (build/<preset>/bench/liedyn_bench_batch --states=N, run between the Python
          rounds): the cost of the Python layer per state.
  loop    the Python batch against a Python loop of single aba calls (out= reused).
  ray     liedyn.distributed.RayBatch over a local Ray cluster (loopback, 2 CPUs) against the
          single process's batch with 1 and 2 threads, for aba and linearize; the cost of one
          call's round trip (2 states); and one call over --ray-states states checked equal, bit
          for bit, to the single process.

    PYTHONPATH=build/release/python python3 python/bench/batch_throughput.py \\
        --urdf tests/data/solo12.urdf --bench build/release/bench/liedyn_bench_batch
"""
import argparse
import json
import os
import statistics
import subprocess
import time

import numpy as np

import liedyn


def best_time(f, repeat=5):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def random_batch(model, n, seed=42):
    """n states (at most 4096 distinct ones, repeated: building a million States in Python would
    take longer than the batch) and n random torques."""
    rng = np.random.default_rng(seed)
    distinct = liedyn.batch_states(model, [liedyn.random_state(model, int(s)) for s in
                                           rng.integers(0, 2**31, min(n, 4096))])
    X = np.ascontiguousarray(np.resize(distinct, (n, distinct.shape[1])))
    return X, 10 * rng.uniform(-1.0, 1.0, (n, model.nv))


def cpp_ns_per_state(binary, n):
    out = subprocess.run(
        [binary, f"--states={n}", "--benchmark_filter=batch_aba/solo12/threads:1/",
         "--benchmark_format=json", "--benchmark_min_time=0.3"],
        check=True, capture_output=True, text=True).stdout
    run = json.loads(out)["benchmarks"][0]
    return 1e9 / run["items_per_second"]


def compare_cpp(model, binary, n, rounds):
    X, tau = random_batch(model, n)
    ws = liedyn.BatchWorkspace(model, 1)
    out = liedyn.batch_aba(model, ws, X, tau)
    py, cpp = [], []
    for _ in range(rounds):
        cpp.append(cpp_ns_per_state(binary, n))
        py.append(best_time(lambda: liedyn.batch_aba(model, ws, X, tau, out=out), 20) / n * 1e9)
    print(f"batch_aba, solo12, N = {n}, 1 thread: Python {statistics.median(py):.1f} ns/state, "
          f"C++ {statistics.median(cpp):.1f} ns/state, ratio "
          f"{statistics.median(p / c for p, c in zip(py, cpp)):.3f} (median of {rounds} "
          f"interleaved rounds; rounds' ratios "
          f"{min(p / c for p, c in zip(py, cpp)):.3f}-{max(p / c for p, c in zip(py, cpp)):.3f})")


def compare_loop(model, n, rounds):
    X, tau = random_batch(model, n)
    ws = liedyn.BatchWorkspace(model, 1)
    d = liedyn.Data(model)
    xs = liedyn.batch_state_list(model, X)
    one = np.empty(model.nv)

    def loop():
        for i, x in enumerate(xs):
            liedyn.aba(model, d, x, tau[i], out=one)

    batch, single = [], []
    for _ in range(rounds):
        batch.append(best_time(lambda: liedyn.batch_aba(model, ws, X, tau), 10) / n * 1e9)
        single.append(best_time(loop, 3) / n * 1e9)
    print(f"aba, solo12, N = {n}: batch {statistics.median(batch):.0f} ns/state, Python loop of "
          f"single calls (out=) {statistics.median(single):.0f} ns/state")


def compare_ray(model, n, check_n, rounds):
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # loopback only
    import ray
    from liedyn.distributed import RayBatch

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        X, tau = random_batch(model, n)
        ws1, ws2 = liedyn.BatchWorkspace(model, 1), liedyn.BatchWorkspace(model, 2)
        with RayBatch(model, workers=2) as pool:
            for kernel, m in (("batch_aba", n), ("batch_linearize", n // 10)):
                f = getattr(liedyn, kernel)
                rows = {"1 thread": [], "2 threads": [], "Ray, 2 actors": []}
                for _ in range(rounds):
                    rows["1 thread"].append(m / best_time(lambda: f(model, ws1, X[:m], tau[:m]), 3))
                    rows["2 threads"].append(m / best_time(lambda: f(model, ws2, X[:m], tau[:m]), 3))
                    rows["Ray, 2 actors"].append(
                        m / best_time(lambda: pool.run(kernel, X[:m], tau[:m]), 3))
                print(f"{kernel}, solo12, N = {m}: " + ", ".join(
                    f"{k} {statistics.median(v) / 1e3:.0f}k states/s" for k, v in rows.items()))
            trip = best_time(lambda: pool.run("batch_aba", X[:2], tau[:2]), 20)
            print(f"RayBatch.run round trip (2 actors, 2 states): {trip * 1e3:.2f} ms")
            Xb, taub = random_batch(model, check_n, seed=7)
            t0 = time.perf_counter()
            far = pool.run("batch_aba", Xb, taub)
            t_ray = time.perf_counter() - t0
            t0 = time.perf_counter()
            near = liedyn.batch_aba(model, ws2, Xb, taub)
            t_local = time.perf_counter() - t0
            print(f"batch_aba over N = {check_n}: Ray (2 actors) {t_ray:.2f} s, single process "
                  f"(2 threads) {t_local:.2f} s, equal bit for bit: {np.array_equal(far, near)}")
    finally:
        ray.shutdown()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--urdf", default="tests/data/solo12.urdf")
    p.add_argument("--bench", help="liedyn_bench_batch binary (for the C++ comparison)")
    p.add_argument("--states", type=int, default=4096)
    p.add_argument("--ray-states", type=int, default=0, help="states of the Ray check (0: no Ray)")
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args()
    model = liedyn.load_urdf_file(a.urdf)
    if a.bench:
        compare_cpp(model, a.bench, a.states, a.rounds)
    compare_loop(model, a.states, a.rounds)
    if a.ray_states:
        compare_ray(model, a.states * 10, a.ray_states, a.rounds)


if __name__ == "__main__":
    main()
