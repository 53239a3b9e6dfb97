"""The Python snippets of README.md, docs/python.md and docs/frictional-contacts.md run as printed
(on Solo-12 instead of robot.urdf; the last given the names its text takes as known)."""
import os
import re

import numpy as np
import pytest

import liedyn

from conftest import SOLO12

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def python_blocks(relative_path):
    text = open(os.path.join(ROOT, relative_path), encoding="utf-8").read()
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("path,count", [("README.md", 1), (os.path.join("docs", "python.md"), 3)])
def test_python_snippets_run(path, count):
    """The quick start (each file's first snippet) and, in order in the same namespace (a later
    snippet uses the quick start's names), the others."""
    blocks = python_blocks(path)
    assert len(blocks) == count, f"{path} has {count} Python snippets"
    env: dict = {}
    for i, block in enumerate(blocks):
        exec(compile(block.replace('"robot.urdf"', repr(SOLO12)), f"{path}, snippet {i + 1}",
                     "exec"), env)
        if i == 0:
            assert env["A"].shape == (36, 36) and env["B"].shape == (36, 18)
            assert env["ddq"].shape == (18,) and np.all(np.isfinite(env["A"]))


def test_frictional_contacts_snippet_runs():
    """docs/frictional-contacts.md's snippet, as printed, with the names it takes from the text
    around it: model (Solo-12), x and tau (one state, zero torques), X0 (batch rows) and
    controls. Its results have the shapes its comments state."""
    (block,) = python_blocks(os.path.join("docs", "frictional-contacts.md"))
    model = liedyn.load_urdf_file(SOLO12)
    n, steps = 3, 4
    X = liedyn.batch_states(model, [liedyn.random_state(model, i) for i in range(n)])
    env: dict = {"model": model, "x": liedyn.random_state(model, 7), "tau": np.zeros(model.nv),
                 "X0": X, "controls": np.zeros((n, steps, model.nv))}
    exec(compile(block, "docs/frictional-contacts.md, snippet 1", "exec"), env)
    assert env["result"].impulses.shape == (4, 3)
    assert env["out"].impulses.shape == (n, 4, 3)  # the last line's batch_contact_step
