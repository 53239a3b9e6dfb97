"""The type stubs of the compiled module (python/liedyn/_liedyn/*.pyi) equal a fresh generation by
scripts/generate_stubs.py, and the package carries them with py.typed (PEP 561)."""
import importlib.machinery
import importlib.util
import inspect
import os
import re
import subprocess

import pytest

import liedyn

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
COMMITTED = os.path.join(ROOT, "python", "liedyn", "_liedyn")
PACKAGE = os.path.dirname(os.path.abspath(liedyn.__file__))
# The wheel stage (scripts/test-wheel.sh) sets this: there a skip would hide stale stubs.
REQUIRED = os.environ.get("LIEDYN_REQUIRE_STUBS") == "1"


def skip_or_fail(reason):
    if REQUIRED:
        pytest.fail(reason + " (LIEDYN_REQUIRE_STUBS=1)")
    pytest.skip(reason)


def stub_files(directory):
    return {name: open(os.path.join(directory, name), encoding="utf-8").read()
            for name in sorted(os.listdir(directory)) if name.endswith(".pyi")}


def committed_pybind11_version():
    text = open(os.path.join(COMMITTED, "__init__.pyi"), encoding="utf-8").read()
    found = re.search(r"_pybind11_version: str = '([^']*)'", text)
    assert found, "the committed stubs record no _pybind11_version"
    return found.group(1)


def test_package_has_py_typed_and_the_committed_stubs():
    """The build tree, the CMake install and the wheel put py.typed and the stubs next to the
    extension (python/CMakeLists.txt)."""
    assert os.path.isfile(os.path.join(PACKAGE, "py.typed"))
    if not os.path.isdir(COMMITTED):
        skip_or_fail(f"no committed stubs at {COMMITTED} (not run from a source checkout)")
    installed = os.path.join(PACKAGE, "_liedyn")
    assert stub_files(installed) == stub_files(COMMITTED)
    # The stub directory does not shadow the extension module at import time.
    assert liedyn._liedyn.__file__.endswith(importlib.machinery.EXTENSION_SUFFIXES[0])


def test_stubs_are_up_to_date(tmp_path):
    if importlib.util.find_spec("pybind11_stubgen") is None:
        skip_or_fail("pybind11-stubgen is not installed (pip install .[test], Python >= 3.10): "
                     "the committed stubs are not compared with a fresh generation")
    if not os.path.isdir(COMMITTED):
        skip_or_fail(f"no committed stubs at {COMMITTED} (not run from a source checkout)")
    built_with, committed_with = liedyn._liedyn._pybind11_version, committed_pybind11_version()
    if built_with != committed_with:
        skip_or_fail(f"this module was built with pybind11 {built_with}, the committed stubs come "
                     f"from pybind11 {committed_with} (the version pyproject.toml pins for the "
                     "wheel), and the two spell signatures differently: compare a wheel build "
                     "(scripts/test-wheel.sh does)")
    spec = importlib.util.spec_from_file_location(
        "generate_stubs", os.path.join(ROOT, "scripts", "generate_stubs.py"))
    assert spec is not None and spec.loader is not None
    generate_stubs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate_stubs)
    try:
        fresh = generate_stubs.generate(str(tmp_path))
    except subprocess.CalledProcessError as e:
        pytest.fail(f"pybind11-stubgen reported an error: {e}")
    new, old = stub_files(fresh), stub_files(COMMITTED)
    assert sorted(new) == sorted(old), "stub files differ: run scripts/generate_stubs.py"
    for name in new:
        assert new[name] == old[name], (
            f"{name} is out of date: run scripts/generate_stubs.py against the wheel's module "
            "(docs/python.md, Type stubs)")


def test_signatures_are_in_docstrings_and_stubs():
    """inspect.signature cannot read pybind11's functions (docs/python.md, Type stubs): the
    signature is the first line of the docstring, and the stub's."""
    with pytest.raises(ValueError):
        inspect.signature(liedyn.rnea)
    assert (liedyn.rnea.__doc__ or "").startswith("rnea(model: liedyn._liedyn.Model, data: ")
    if os.path.isdir(COMMITTED):
        text = open(os.path.join(COMMITTED, "__init__.pyi"), encoding="utf-8").read()
        assert re.search(r"\ndef rnea\(model: Model, data: Data, x: State, ddq: ", text)
