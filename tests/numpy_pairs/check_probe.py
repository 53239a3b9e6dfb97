"""Imports the numpy-pairs probe (probe.cpp) and says what this interpreter's numpy makes of it.

Usage: python check_probe.py DIR EXPECT, DIR holding the built numpy_pairs_probe module, EXPECT
one of: right (arange(5) must be [0, 1, 2, 3, 4]), refused (the import must raise ImportError
naming pybind11 and numpy), wrong (the array must come out wrong: the trap the guard exists
for). Exits 1 when the expectation fails.
"""
import sys

import numpy as np

sys.path.insert(0, sys.argv[1])
expect = sys.argv[2]
print(f"numpy {np.__version__}: expecting {expect}")
try:
    import numpy_pairs_probe
except ImportError as e:
    print(f"  ImportError: {e}")
    ok = expect == "refused" and "pybind11" in str(e) and "numpy" in str(e)
    sys.exit(0 if ok else 1)
a = numpy_pairs_probe.arange(5)
print(f"  arange(5) = {a!r}, strides {a.strides}")
right = a.strides == (8,) and a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
sys.exit(0 if (right == (expect == "right") and expect != "refused") else 1)
