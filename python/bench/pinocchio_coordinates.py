#!/usr/bin/env python3
"""Kernels called with Pinocchio's (q, v, tau | a), in one interpreter: Pinocchio itself, liedyn's
PinocchioView (the conversion in C++ inside the call), liedyn's own call on its own State, and the
conversion written in Python with liedyn.interop's converters (what a Pinocchio user wrote
before). Interleaved rounds; per call, the median over rounds of each round's best of `--calls`
loops of `--loop` calls, with the rounds' spread (min-max).

    PYTHONPATH=<liedyn's python build> <python with pin and numpy 2> \\
        python/bench/pinocchio_coordinates.py --urdf tests/data/solo12.urdf

Needs a liedyn module that imports under the interpreter's numpy (the wheel, or a CMake build
with pybind11 >= 2.12 when numpy is 2) and `pip install pin`. Also times a batch built from
Pinocchio's (N, nq), (N, nv) arrays against the batch from liedyn's own rows.
"""
import argparse
import statistics
import time

import numpy as np

import liedyn
from liedyn.interop import Library, PinocchioView


def per_call(f, loop, calls):
    best = float("inf")
    for _ in range(calls):
        t0 = time.perf_counter()
        for _ in range(loop):
            f()
        best = min(best, (time.perf_counter() - t0) / loop)
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--urdf", default="tests/data/solo12.urdf")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--loop", type=int, default=2000)
    p.add_argument("--calls", type=int, default=5)
    p.add_argument("--batch", type=int, default=4096)
    a = p.parse_args()

    import pinocchio as pin

    pm = pin.buildModelFromUrdf(a.urdf, pin.JointModelFreeFlyer())
    pd = pm.createData()
    model = liedyn.load_urdf_file(a.urdf)
    data = liedyn.Data(model)
    view = PinocchioView.from_pinocchio(model, pm)
    perm = liedyn.interop.JointPermutation.from_names(model, list(pm.names)[2:])
    io, P = liedyn.interop, Library.Pinocchio

    rng = np.random.default_rng(1)
    q = pin.randomConfiguration(pm)
    q[:3] = rng.uniform(-1.0, 1.0, 3)
    quat = rng.normal(size=4)
    q[3:7] = quat / np.linalg.norm(quat)
    v = rng.uniform(-1.0, 1.0, pm.nv)
    tau = rng.uniform(-1.0, 1.0, pm.nv)
    acc = rng.uniform(-1.0, 1.0, pm.nv)
    x = view.state(q, v)
    tau_l = io.force_from(P, model, x.H, tau, perm)
    acc_l = io.acceleration_from(P, model, x, acc, perm)
    out = np.empty(pm.nv)

    # Agreement first (the timed calls must compute the same thing), relative to each result's
    # largest entry (Talos' M^-1 reaches 1e5): 1e-9, as python/tests/test_pinocchio_view.py.
    def agree(ours, theirs, what):
        err = np.abs(ours - theirs).max() / max(1.0, np.abs(theirs).max())
        assert err < 1e-9, f"{what}: relative difference {err:.1e}"
        return err

    errs = [agree(view.aba(data, q, v, tau), pin.aba(pm, pd, q, v, tau), "aba"),
            agree(view.rnea(data, q, v, acc), pin.rnea(pm, pd, q, v, acc), "rnea")]
    pin.computeABADerivatives(pm, pd, q, v, tau)
    _, ddq_dq, ddq_dv, ddq_dtau = view.aba_derivatives(data, q, v, tau)
    Minv = np.triu(pd.Minv) + np.triu(pd.Minv, 1).T  # Pinocchio fills the upper triangle
    errs += [agree(ddq_dq, pd.ddq_dq, "ddq_dq"), agree(ddq_dv, pd.ddq_dv, "ddq_dv"),
             agree(ddq_dtau, Minv, "ddq_dtau")]

    def python_conversion_aba():
        y = io.state_from(P, model, q, v, perm)
        return io.acceleration_to(P, model, y, liedyn.aba(model, data, y, io.force_from(P, model, y.H, tau, perm)), perm)

    cases = {
        "aba": {
            "pin": lambda: pin.aba(pm, pd, q, v, tau),
            "view": lambda: view.aba(data, q, v, tau, out=out),
            "liedyn own": lambda: liedyn.aba(model, data, x, tau_l, out=out),
            "python conversion": python_conversion_aba,
        },
        "rnea": {
            "pin": lambda: pin.rnea(pm, pd, q, v, acc),
            "view": lambda: view.rnea(data, q, v, acc, out=out),
            "liedyn own": lambda: liedyn.rnea(model, data, x, acc_l, out=out),
        },
        "ABA derivatives": {
            "pin": lambda: pin.computeABADerivatives(pm, pd, q, v, tau),
            "view": lambda: view.aba_derivatives(data, q, v, tau),
            "liedyn own": lambda: liedyn.linearize(model, data, x, tau_l),
        },
    }
    N = a.batch
    Q = np.stack([pin.randomConfiguration(pm) for _ in range(N)])
    Q[:, :3] = rng.uniform(-1.0, 1.0, (N, 3))  # the free flyer's limits are infinite
    Q[:, 3:7] = np.array([0.0, 0.0, 0.0, 1.0])
    V = rng.uniform(-1.0, 1.0, (N, pm.nv))
    T = rng.uniform(-1.0, 1.0, (N, pm.nv))
    ws = liedyn.BatchWorkspace(model, 1)
    rows = view.batch_states(Q, V)
    batch_out = np.empty((N, pm.nv))
    cases["batch aba, 1 thread (per state)"] = {
        "view rows": lambda: liedyn.batch_aba(model, ws, view.batch_states(Q, V), T, out=batch_out),
        "liedyn rows": lambda: liedyn.batch_aba(model, ws, rows, T, out=batch_out),
    }

    times = {k: {s: [] for s in sides} for k, sides in cases.items()}
    for _ in range(a.rounds):
        for kernel, sides in cases.items():
            for side, f in sides.items():
                batch = kernel.startswith("batch")
                t = per_call(f, 3 if batch else a.loop, a.calls)
                times[kernel][side].append(t / N if batch else t)

    print(f"{a.urdf}: nv = {pm.nv}, Pinocchio {pin.__version__}, numpy {np.__version__}, "
          f"{a.rounds} rounds; largest relative difference to Pinocchio {max(errs):.1e}")
    for kernel, sides in times.items():
        print(f"\n{kernel}")
        ref = statistics.median(next(iter(sides.values())))
        for side, ts in sides.items():
            med = statistics.median(ts)
            print(f"  {side:18s} {med * 1e6:8.3f} us  [{min(ts) * 1e6:.3f}, {max(ts) * 1e6:.3f}]"
                  f"  ratio to {next(iter(sides))}: {med / ref:.3f}")


if __name__ == "__main__":
    main()
