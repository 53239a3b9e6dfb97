"""
Private: C++-side reference values for the pytest suite.
"""
from __future__ import annotations
import liedyn._liedyn
import typing
__all__: list[str] = ['checks_enabled', 'reference']
def checks_enabled() -> bool:
    """
    Whether the module was built with liedyn's argument checks (it always should be).
    """
def reference(model: liedyn._liedyn.Model, seed: typing.SupportsInt | typing.SupportsIndex, representation: liedyn._liedyn.TwistRepresentation = liedyn._liedyn.TwistRepresentation.Body, dt: typing.SupportsFloat | typing.SupportsIndex = 0.01) -> dict:
    ...
