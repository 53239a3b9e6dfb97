"""Every public name of the module (functions, classes, their methods and properties, enum
values) is used by some test of this suite: a new binding without a test fails here."""
import glob
import inspect
import os
import re

import liedyn

HERE = os.path.dirname(os.path.abspath(__file__))


def public_names():
    names = set()
    for mod in (liedyn, liedyn.numdiff, liedyn.interop):
        for name, obj in vars(mod).items():
            if name.startswith("_") or inspect.ismodule(obj):
                continue
            names.add(name)
            if inspect.isclass(obj):
                for attr in vars(obj):
                    if not attr.startswith("_") and attr not in ("name", "value"):
                        names.add(attr)
    return names


def test_every_binding_is_used_by_a_test():
    text = ""
    for path in glob.glob(os.path.join(HERE, "*.py")):
        if os.path.basename(path) != "test_coverage.py":
            text += open(path, encoding="utf-8").read()
    used = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
    missing = sorted(public_names() - used)
    assert not missing, f"bindings no test uses: {missing}"
