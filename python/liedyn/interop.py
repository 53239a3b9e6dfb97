"""liedyn.interop: states, velocities, accelerations, generalized forces, mass matrices and dynamics
Jacobians to and from the conventions of Pinocchio, MuJoCo, Drake, RBDL and iDynTree.

The functions live in the compiled module (``liedyn._liedyn._interop``); this module re-exports
them so that ``import liedyn.interop`` and ``from liedyn.interop import state_from`` work. See
docs/interop.md for the conventions and docs/python.md for the Python API.
"""
from ._liedyn._interop import *  # noqa: F401,F403
