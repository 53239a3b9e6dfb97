#!/usr/bin/env python3
"""The Python side of docs/python.md's call-overhead figure: rnea and aba on Solo-12 through the bindings,
timeit, the best of 300 runs of 1000 calls (as the C++ loop python/bench/rnea_loop.cpp; the
same state, random_state(model, 7), and ddq).

    PYTHONPATH=build/release/python python3 python/bench/rnea_overhead.py tests/data/solo12.urdf
"""
import sys
import timeit

import numpy as np

import liedyn


def main():
    model = liedyn.load_urdf_file(sys.argv[1])
    data = liedyn.Data(model)
    x = liedyn.random_state(model, 7)
    ddq = np.full(model.nv, 0.1)
    n, runs = 1000, 300
    out = np.empty(model.nv)
    for name, stmt in (("rnea (a new array)", lambda: liedyn.rnea(model, data, x, ddq)),
                       ("rnea, out=", lambda: liedyn.rnea(model, data, x, ddq, out=out)),
                       ("aba (a new array)", lambda: liedyn.aba(model, data, x, ddq)),
                       ("aba, out=", lambda: liedyn.aba(model, data, x, ddq, out=out)),
                       ("model.nv (a trivial binding)", lambda: model.nv)):
        best = min(timeit.repeat(stmt, number=n, repeat=runs)) / n
        print(f"Python {name}: {best * 1e9:.0f} ns per call (best of {runs} x {n})")


if __name__ == "__main__":
    main()
