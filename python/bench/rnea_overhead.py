#!/usr/bin/env python3
"""The Python side of docs/python.md's call-overhead figure: rnea and aba on Solo-12 through the
bindings, timeit, 300 runs of 1000 calls, the best and the median run (as the C++ loop
python/bench/rnea_loop.cpp; the same state, random_state(model, 7), and ddq). The statements
call the functions by global names, without a lambda, whose own call would be counted.

    PYTHONPATH=build/release/python python3 python/bench/rnea_overhead.py tests/data/solo12.urdf
"""
import statistics
import sys
import timeit

import numpy as np

import liedyn


def main():
    model = liedyn.load_urdf_file(sys.argv[1])
    data = liedyn.Data(model)
    x = liedyn.random_state(model, 7)
    ddq = np.full(model.nv, 0.1)
    out = np.empty(model.nv)
    names = dict(model=model, data=data, x=x, ddq=ddq, out=out, rnea=liedyn.rnea, aba=liedyn.aba)
    n, runs = 1000, 300
    for name, stmt in (("rnea (a new array)", "rnea(model, data, x, ddq)"),
                       ("rnea, out=", "rnea(model, data, x, ddq, out=out)"),
                       ("aba (a new array)", "aba(model, data, x, ddq)"),
                       ("aba, out=", "aba(model, data, x, ddq, out=out)"),
                       ("model.nv (a trivial binding)", "model.nv")):
        times = [t / n for t in timeit.repeat(stmt, globals=names, number=n, repeat=runs)]
        print(f"Python {name}: {min(times) * 1e9:.0f} ns per call best, "
              f"{statistics.median(times) * 1e9:.0f} median ({runs} x {n})")


if __name__ == "__main__":
    main()
