"""The Python snippets of README.md and docs/python.md run as printed (on Solo-12 instead of
robot.urdf)."""
import os
import re

import numpy as np
import pytest

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
