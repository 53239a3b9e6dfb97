#!/usr/bin/env python3
"""Regenerates the type stubs of liedyn's compiled module (python/liedyn/_liedyn/*.pyi) with
pybind11-stubgen, from the liedyn this interpreter imports.

Usage (from anywhere):
    PYTHONPATH=<build>/python python3 scripts/generate_stubs.py      # a CMake build tree
    <venv>/bin/python scripts/generate_stubs.py                      # an installed wheel
    python3 scripts/generate_stubs.py --output DIR                   # write DIR/liedyn/_liedyn/

Needs pybind11-stubgen (the version pinned in pyproject.toml's `test` extras). The stubs are
committed, installed next to the module with py.typed, and python/tests/test_stubs.py checks
that they equal a fresh generation. Generate them from a module built with the pybind11 that
pyproject.toml pins (the wheel's): pybind11 2 and 3 spell numpy arrays differently in
signatures, and the stubs record the version they come from (`_pybind11_version`).
Exit status: 0 on success; 1 when the generator reports an error (nothing is written then).
"""
import argparse
import keyword
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MODULE = "liedyn._liedyn"
# Enums whose values appear as default arguments (`representation=TwistRepresentation.Body`):
# pybind11 prints their repr, which the generator resolves through these locations.
ENUMS = ["BaseType", "ComFrame", "ConstrainedDynamicsRoute", "ConstraintType", "InertiaCheck",
         "InertiaPolicy", "JointType", "KktDerivativeSolve", "MinvMethod", "TwistRepresentation",
         "UnsupportedElements"]
NUMDIFF_ENUMS = ["DifferenceScheme", "StateBlock"]
# Default arguments that are objects without a Python-expression repr (`options=
# LinearizationOptions()` prints as `<... object at 0x...>`): written `= ...` in the stubs, as
# stubs write defaults; any other invalid expression (a raw C++ type name) stays an error.
DEFAULT_OBJECTS = r"<liedyn\._liedyn\.[\w.]+ object at 0x[0-9a-f]+>"


def command(output_dir):
    """The generator's command line writing the stubs under output_dir/liedyn/_liedyn/."""
    args = [sys.executable, "-m", "pybind11_stubgen", MODULE, "--output-dir", output_dir,
            "--exit-code", "--ignore-invalid-expressions", DEFAULT_OBJECTS]
    for name in ENUMS:
        args += ["--enum-class-locations", f"{name}:{MODULE}"]
    for name in NUMDIFF_ENUMS:
        args += ["--enum-class-locations", f"{name}:{MODULE}.numdiff"]
    return args


# A property named by a Python keyword (ConstraintData's `lambda`, read with getattr(cdata,
# "lambda")): the generator writes `def lambda(self)`, which is no valid Python; it is dropped
# from the stub, leaving a comment (getattr with a string is typed Any anyway).
KEYWORD_PROPERTY = re.compile(
    r'^( *)@property\n\1def (' + "|".join(keyword.kwlist) +
    r')\(self\)[^\n]*:\n\1    """.*?"""\n', re.M | re.S)


# The pickling and copying hooks liedyn/__init__.py sets on the classes (Python functions, e.g.
# Model.__reduce__): the generator sees plain functions in the class and writes them as static
# methods, which they are not (and which contradicts object.__reduce__); they are dropped,
# object's declarations type them.
PATCHED_HOOK = re.compile(
    r'^( *)@staticmethod\n\1def (__reduce__|__reduce_ex__|__copy__|__deepcopy__)\([^\n]*\)'
    r'[^\n]*:\n(?:\1    """.*?"""\n|\1    \.\.\.\n)', re.M | re.S)


def clean(path):
    """The generator's output made valid: keyword properties and patched hooks dropped."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = KEYWORD_PROPERTY.sub(
        lambda m: f"{m.group(1)}# property {m.group(2)!r}: a Python keyword, read it with "
                  f"getattr(obj, {m.group(2)!r})\n", text)
    text = PATCHED_HOOK.sub("", text)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def generate(output_dir):
    """Writes the stubs under output_dir/liedyn/_liedyn/ and returns that directory."""
    subprocess.run(command(output_dir), check=True)
    stubs = os.path.join(output_dir, "liedyn", "_liedyn")
    for name in os.listdir(stubs):
        clean(os.path.join(stubs, name))
    return stubs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=os.path.join(ROOT, "python"),
                        help="write OUTPUT/liedyn/_liedyn/*.pyi (default: the committed stubs)")
    out = parser.parse_args().output
    with tempfile.TemporaryDirectory() as tmp:
        try:
            fresh = generate(tmp)
        except subprocess.CalledProcessError:
            return 1
        target = os.path.join(out, "liedyn", "_liedyn")
        # Replace the whole directory, so that a stub of a removed submodule does not linger.
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(fresh, target)
    print(f"generate_stubs: wrote {sorted(os.listdir(target))} in {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
