"""The README's Python quick start runs as printed (on Solo-12 instead of robot.urdf)."""
import os
import re

import numpy as np

from conftest import SOLO12

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")


def test_readme_python_snippet_runs():
    text = open(README, encoding="utf-8").read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1, "the README has one Python snippet"
    env = {}
    exec(compile(blocks[0].replace('"robot.urdf"', repr(SOLO12)), "README.md", "exec"), env)
    assert env["A"].shape == (36, 36) and env["B"].shape == (36, 18)
    assert env["ddq"].shape == (18,) and np.all(np.isfinite(env["A"]))
