"""
Geometric finite differences of functions of the state (columns eta, ds, dtwist, dr; H <- H exp(eta^)) and of plain vectors. f may return a scalar, vector or matrix (flattened column-major). Slow: checking tools.
"""
from __future__ import annotations
import collections.abc
import liedyn._liedyn
import numpy
import numpy.typing
import typing
__all__: list[str] = ['DifferenceScheme', 'NumDiffOptions', 'StateBlock', 'default_step', 'state_jacobian', 'state_jacobian_block', 'vector_jacobian']
class DifferenceScheme:
    """
    Members:
    
      Central
    
      Forward
    """
    Central: typing.ClassVar[DifferenceScheme]
    Forward: typing.ClassVar[DifferenceScheme]
    __members__: typing.ClassVar[dict[str, DifferenceScheme]]
    @typing.overload
    def __eq__(self, other: DifferenceScheme) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: DifferenceScheme) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class StateBlock:
    """
    Members:
    
      Pose
    
      JointPositions
    
      Twist
    
      JointVelocities
    """
    JointPositions: typing.ClassVar[StateBlock]
    JointVelocities: typing.ClassVar[StateBlock]
    Pose: typing.ClassVar[StateBlock]
    Twist: typing.ClassVar[StateBlock]
    __members__: typing.ClassVar[dict[str, StateBlock]]
    @typing.overload
    def __eq__(self, other: StateBlock) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: StateBlock) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class NumDiffOptions:
    """
    Scheme, base step (0: default), relative step, and the base-twist representation of the twist columns (also what the eta columns hold fixed).
    """
    relative_step: bool
    scheme: DifferenceScheme
    twist_representation: liedyn._liedyn.TwistRepresentation
    def __init__(self, scheme: DifferenceScheme = DifferenceScheme.Central, step: typing.SupportsFloat | typing.SupportsIndex = 0.0, relative_step: bool = True, twist_representation: liedyn._liedyn.TwistRepresentation = liedyn._liedyn.TwistRepresentation.Body) -> None:
        ...
    @property
    def step(self) -> float:
        ...
    @step.setter
    def step(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
def default_step(scheme: DifferenceScheme) -> float:
    """
    eps^(1/3) (central) or eps^(1/2) (forward) in double.
    """
def state_jacobian(model: liedyn._liedyn.Model, f: collections.abc.Callable, x: liedyn._liedyn.State, options: NumDiffOptions = ...) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    The m x 2nv Jacobian of f(State) by finite differences, columns (eta, ds, dtwist, dr).
    """
def state_jacobian_block(model: liedyn._liedyn.Model, f: collections.abc.Callable, x: liedyn._liedyn.State, block: StateBlock, options: NumDiffOptions = ...) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    One block of state_jacobian, at the cost of that block only.
    """
def vector_jacobian(f: collections.abc.Callable, x: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], options: NumDiffOptions = ...) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    The m x size(x) Jacobian of f(vector) (x <- x +- d e_k).
    """
