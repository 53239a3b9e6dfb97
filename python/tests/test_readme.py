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


@pytest.mark.parametrize("path", ["README.md", os.path.join("docs", "python.md")])
def test_python_snippets_run(path):
    blocks = python_blocks(path)
    assert len(blocks) == 1, f"{path} has one Python snippet"
    env = {}
    exec(compile(blocks[0].replace('"robot.urdf"', repr(SOLO12)), path, "exec"), env)
    assert env["A"].shape == (36, 36) and env["B"].shape == (36, 18)
    assert env["ddq"].shape == (18,) and np.all(np.isfinite(env["A"]))
