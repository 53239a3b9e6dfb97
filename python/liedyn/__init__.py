"""liedyn: rigid-body dynamics of moving-base robots and their exact Lie-group linearization.

The compiled module ``liedyn._liedyn`` holds everything; this package re-exports it. See
docs/python.md for the API mapping and the rules for numpy views of ``Data``.
"""
from ._liedyn import *  # noqa: F401,F403
from ._liedyn import __version__, numdiff, _testing  # noqa: F401
from . import interop  # noqa: F401
