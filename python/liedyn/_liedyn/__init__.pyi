"""
liedyn: rigid-body dynamics of moving-base robots and their exact Lie-group linearization (double precision). Conventions: base first in velocity-sized vectors, body twist nu native, spatial vectors linear first, gravity as base acceleration -[g; 0], left-trivialized eta perturbations. See docs/python.md.
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.typing
import typing
from . import numdiff
from . import _interop
from . import _testing
__all__: list[str] = ['BaseType', 'BatchWorkspace', 'ComFrame', 'ConstrainedDynamicsRoute', 'ConstraintData', 'ConstraintError', 'ConstraintSet', 'ConstraintSpec', 'ConstraintType', 'ContactBatchResult', 'ContactBatchWorkspace', 'ContactPlane', 'ContactPointSpec', 'ContactSolver', 'ContactStepResult', 'ContactStepSettings', 'ContactStepWorkspace', 'Data', 'Frame', 'FrictionalContactSettings', 'InertiaCheck', 'InertiaPolicy', 'InvalidArgument', 'Joint', 'JointSpec', 'JointType', 'KktDerivativeSolve', 'LinearizationOptions', 'MimicRelation', 'MinvMethod', 'MjcfOptions', 'MjcfRobot', 'Model', 'ModelBuilder', 'ModelError', 'RandomModelOptions', 'ReducedLinearization', 'SE3', 'SpatialInertia', 'State', 'TwistRepresentation', 'UnsupportedElements', 'UrdfOptions', 'aba', 'aza_factorize', 'aza_solve', 'base_acceleration_from_body', 'base_acceleration_to_body', 'base_pose', 'base_twist_from_body', 'base_twist_to_body', 'batch_aba', 'batch_centroidal_momentum', 'batch_constrained_forward_dynamics', 'batch_constrained_forward_dynamics_derivatives', 'batch_contact_step', 'batch_crba', 'batch_eidamb', 'batch_eidamb_derivatives', 'batch_frame_placements', 'batch_immamb', 'batch_impulse_dynamics', 'batch_linearize', 'batch_linearize_discrete', 'batch_rnea', 'batch_rollout', 'batch_rollout_with_jacobians', 'batch_state_list', 'batch_state_size', 'batch_states', 'bias_force', 'body_jacobian', 'center_of_mass', 'center_of_mass_acceleration', 'center_of_mass_jacobian', 'center_of_mass_velocity', 'centroidal_derivatives', 'centroidal_momentum', 'centroidal_momentum_drift', 'centroidal_momentum_matrix', 'centroidal_momentum_rate', 'constrained_forward_dynamics', 'constrained_forward_dynamics_derivatives', 'constrained_inverse_dynamics', 'constraint_kinematics', 'constraint_kinematics_derivatives', 'coriolis_force', 'coriolis_matrix', 'crba', 'difference', 'difference_jacobians', 'eidamb', 'eidamb_derivatives', 'figure4_model', 'finite_checks_enabled', 'forward_dynamics_llt', 'forward_kinematics', 'forward_poses', 'forward_velocity', 'frame_acceleration_bias', 'frame_jacobian', 'frame_pose', 'frame_velocity', 'gravity_force', 'immamb', 'impulse_dynamics', 'impulse_dynamics_derivatives', 'integrate', 'integrate_jacobians', 'kinetic_energy', 'linearize', 'linearize_actuated', 'linearize_discrete', 'linearize_discrete_actuated', 'linearize_reduced', 'load_mjcf_file', 'load_mjcf_robot_file', 'load_mjcf_robot_string', 'load_mjcf_string', 'load_urdf_file', 'load_urdf_string', 'lock_joints', 'ltdl_factorize', 'ltdl_inverse', 'ltdl_solve', 'mass_matrix_from_inverse_dynamics', 'mimic_couplings', 'model_diagnostics', 'neutral', 'numdiff', 'potential_energy', 'project_configuration', 'project_velocity', 'random_model', 'random_state', 'rnea', 'rotation_tolerance', 'semi_implicit_euler_step', 'set_finite_checks', 'step', 'tangent_size', 'with_armature']
class ModelError(ValueError):
    pass
class InvalidArgument(ValueError):
    pass
class BaseType:
    """
    Moving: a free 6-DoF base (pose and body twist in the state). Welded: fixed to the inertial frame at Model.welded_base_pose.
    
    Members:
    
      Moving
    
      Welded
    """
    Moving: typing.ClassVar[BaseType]
    Welded: typing.ClassVar[BaseType]
    __members__: typing.ClassVar[dict[str, BaseType]]
    @typing.overload
    def __eq__(self, other: BaseType) -> bool:
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
    def __ne__(self, other: BaseType) -> bool:
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
class TwistRepresentation:
    """
    How the base twist is given: Body nu = ^0 v_{A,0} (native), Inertial w = ^A X_0 nu, Mixed m = [^A o_0'; ^A omega_{A,0}] = blockdiag(R, R) nu.
    
    Members:
    
      Body
    
      Inertial
    
      Mixed
    """
    Body: typing.ClassVar[TwistRepresentation]
    Inertial: typing.ClassVar[TwistRepresentation]
    Mixed: typing.ClassVar[TwistRepresentation]
    __members__: typing.ClassVar[dict[str, TwistRepresentation]]
    @typing.overload
    def __eq__(self, other: TwistRepresentation) -> bool:
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
    def __ne__(self, other: TwistRepresentation) -> bool:
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
class JointType:
    """
    1-DoF screw joints, unit axis e, pitch p: revolute Gamma = [0; e], prismatic [e; 0], helical [p e; e] (linear first).
    
    Members:
    
      Revolute
    
      Prismatic
    
      Helical
    
      Spherical
    
      Free
    
      Planar
    
      Universal
    """
    Free: typing.ClassVar[JointType]
    Helical: typing.ClassVar[JointType]
    Planar: typing.ClassVar[JointType]
    Prismatic: typing.ClassVar[JointType]
    Revolute: typing.ClassVar[JointType]
    Spherical: typing.ClassVar[JointType]
    Universal: typing.ClassVar[JointType]
    __members__: typing.ClassVar[dict[str, JointType]]
    @typing.overload
    def __eq__(self, other: JointType) -> bool:
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
    def __ne__(self, other: JointType) -> bool:
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
class InertiaCheck:
    """
    How strictly ModelBuilder checks inertias: Physical (triangle inequalities) or PositiveDefinite (only well-posed dynamics).
    
    Members:
    
      Physical
    
      PositiveDefinite
    """
    Physical: typing.ClassVar[InertiaCheck]
    PositiveDefinite: typing.ClassVar[InertiaCheck]
    __members__: typing.ClassVar[dict[str, InertiaCheck]]
    @typing.overload
    def __eq__(self, other: InertiaCheck) -> bool:
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
    def __ne__(self, other: InertiaCheck) -> bool:
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
class MinvMethod:
    """
    How the linearization applies M^-1: Dense (LTDL), Sweeps (AZA solves) or Automatic (Dense up to LinearizationOptions.dense_up_to_nv).
    
    Members:
    
      Automatic
    
      Dense
    
      Sweeps
    """
    Automatic: typing.ClassVar[MinvMethod]
    Dense: typing.ClassVar[MinvMethod]
    Sweeps: typing.ClassVar[MinvMethod]
    __members__: typing.ClassVar[dict[str, MinvMethod]]
    @typing.overload
    def __eq__(self, other: MinvMethod) -> bool:
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
    def __ne__(self, other: MinvMethod) -> bool:
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
class SE3:
    """
    A rigid transform ^A H_B = (R, p), R = ^A R_B, p = ^A o_B: x_A = R x_B + p. Acts on motions by ^A X_B = [R, p^ R; 0, R], on forces by [R, 0; p^ R, R]; tangent vectors [rho; phi], linear first. An immutable value, like a tuple: rotation and translation are read-only arrays, and every operation returns a new SE3.
    """
    @staticmethod
    def exp(xi: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"]) -> SE3:
        """
        exp(xi^) with xi = [rho; phi]: R = exp(phi^), p = Jl(phi) rho.
        """
    @staticmethod
    def from_matrix(H: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[4, 4]"], *, project: bool = False) -> SE3:
        """
        From a 4x4 homogeneous matrix [R, p; 0, 1]; R is checked (or projected) as by SE3(R, p).
        """
    @staticmethod
    def from_quaternion(quaternion: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], p: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], *, order: str = 'xyzw', normalize: bool = False) -> SE3:
        """
        From a rotation quaternion of R = ^A R_B and p = ^A o_B. order='xyzw' (the default: w last, as liedyn, Pinocchio, Eigen's coeffs() and scipy's Rotation.as_quat()) or 'wxyz' (w first, as MuJoCo and Drake). The quaternion must be of unit norm within liedyn.rotation_tolerance (as everywhere a quaternion enters: interop, the CLI), else InvalidArgument; normalize=True scales any nonzero one to unit norm instead. A zero or non-finite one raises InvalidArgument.
        """
    @staticmethod
    def right_jacobian(xi: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"]) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 6]"]:
        """
        Right Jacobian Jr: exp(xi + d) ~ exp(xi) exp(Jr(xi) d).
        """
    @typing.overload
    def __init__(self) -> None:
        """
        The identity.
        """
    @typing.overload
    def __init__(self, R: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 3]"], p: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"], *, project: bool = False) -> None:
        """
        From R = ^A R_B and p = ^A o_B. R must be a rotation (orthonormal, det +1) within liedyn.rotation_tolerance, else InvalidArgument; project=True takes the nearest rotation instead (polar decomposition; a reflection is still refused).
        """
    def __mul__(self, arg0: SE3) -> SE3:
        """
        ^A H_B * ^B H_C = ^A H_C.
        """
    def __repr__(self) -> str:
        ...
    def act_force(self, f: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"]) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
        """
        _A f = _A X^B _B f (wrench, linear first).
        """
    def act_motion(self, v: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"]) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
        """
        ^A v = ^A X_B ^B v (twist, linear first).
        """
    def act_point(self, x: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"]) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
        """
        A point of frame B in frame A: R x + p.
        """
    def copy(self) -> SE3:
        ...
    def inverse(self) -> SE3:
        """
        ^B H_A = (R^T, -R^T p).
        """
    def log(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
        """
        The xi = [rho; phi] with exp(xi^) = H and |phi| <= pi.
        """
    def matrix(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[4, 4]"]:
        """
        The 4x4 homogeneous matrix [R, p; 0, 1].
        """
    def quaternion(self, *, order: str = 'xyzw') -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[4, 1]"]:
        """
        The unit quaternion of R with w >= 0, in `order` ('xyzw', the default, or 'wxyz'; see from_quaternion); the translation is `translation`.
        """
    def velocity_transform(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 6]"]:
        """
        ^A X_B = [R, p^ R; 0, R] (Ad_H).
        """
    def wrench_transform(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 6]"]:
        """
        _A X^B = [R, 0; p^ R, R].
        """
    @property
    def rotation(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 3]"]:
        """
        R = ^A R_B, a read-only array (an SE3 is an immutable value: build a new one).
        """
    @rotation.setter
    def rotation(self, arg1: typing.Any) -> None:
        ...
    @property
    def translation(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
        """
        p = ^A o_B, the origin of B in A, a read-only array (an SE3 is an immutable value: build a new one).
        """
    @translation.setter
    def translation(self, arg1: typing.Any) -> None:
        ...
class SpatialInertia:
    """
    A rigid body's spatial inertia about a frame's origin, (m, h = m c, I_o); 6x6 form [m 1, -h^; h^, I_o], linear first.
    """
    @staticmethod
    def from_mass_com_inertia(mass: typing.SupportsFloat | typing.SupportsIndex, com: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"], inertia_about_com: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 3]"]) -> SpatialInertia:
        """
        From mass, centre of mass c and rotational inertia I_c about it, all in the body frame.
        """
    @staticmethod
    def from_matrix(M: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 6]"]) -> SpatialInertia:
        """
        From the 6x6 matrix form (its rigid-body structure is assumed).
        """
    @staticmethod
    def from_moments(mass: typing.SupportsFloat | typing.SupportsIndex, h: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"], inertia_about_origin: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 3]"]) -> SpatialInertia:
        """
        The raw (m, h = m c, I_o) form; no validity check.
        """
    def __init__(self) -> None:
        """
        The zero inertia (a massless body).
        """
    def matrix(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 6]"]:
        """
        The 6x6 matrix [m 1, -h^; h^, I_o], twist -> momentum in this frame.
        """
    @property
    def com(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
        """
        Centre of mass in the body frame (zero when massless).
        """
    @property
    def mass(self) -> float:
        """
        The mass m.
        """
class JointSpec:
    """
    A movable joint as ModelBuilder takes it: axis (any non-zero vector, normalized by add_body) in the joint frame; placement ^{parent}H_{joint frame} at s = 0.
    """
    name: str
    placement: SE3
    type: JointType
    @staticmethod
    def free(name: str, placement: SE3 = ...) -> JointSpec:
        """
        A free joint anywhere in the tree: SE(3), configuration (position, quaternion x, y, z, w), velocity the child's body twist [v; omega] in the child frame (nq 7, nv 6).
        """
    @staticmethod
    def helical(name: str, axis: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"], pitch: typing.SupportsFloat | typing.SupportsIndex, placement: SE3 = ...) -> JointSpec:
        """
        A helical joint, pitch in m/rad (Gamma = [p e; e]).
        """
    @staticmethod
    def planar(name: str, placement: SE3 = ...) -> JointSpec:
        """
        A planar joint: SE(2) in the joint frame's xy-plane, configuration (x, y, cos, sin), velocity (v_x, v_y, omega_z) in the child frame (nq 4, nv 3).
        """
    @staticmethod
    def prismatic(name: str, axis: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"], placement: SE3 = ...) -> JointSpec:
        """
        A prismatic joint along axis (Gamma = [e; 0]).
        """
    @staticmethod
    def revolute(name: str, axis: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"], placement: SE3 = ...) -> JointSpec:
        """
        A revolute joint about axis (Gamma = [0; e]).
        """
    @staticmethod
    def spherical(name: str, placement: SE3 = ...) -> JointSpec:
        """
        A spherical (ball) joint: SO(3), its configuration a unit quaternion (x, y, z, w), its velocity the child's angular velocity in the child frame (nq 4, nv 3).
        """
    @staticmethod
    def universal(name: str, axis1: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"], axis2: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"], placement: SE3 = ...) -> JointSpec:
        """
        A universal joint: a rotation about axis1, then about axis2 in the frame it leaves (two intersecting axes, not parallel; nq 2, nv 2).
        """
    def with_armature(self, armature: typing.SupportsFloat | typing.SupportsIndex) -> JointSpec:
        """
        Armature a >= 0 (reflected rotor inertia, added to M_ii).
        """
    def with_limits(self, lower: typing.SupportsFloat | typing.SupportsIndex, upper: typing.SupportsFloat | typing.SupportsIndex) -> JointSpec:
        """
        Position limits [lower, upper].
        """
    @property
    def armature(self) -> float:
        ...
    @armature.setter
    def armature(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def axis(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
        ...
    @axis.setter
    def axis(self, arg0: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"]) -> None:
        ...
    @property
    def effort_limit(self) -> float:
        ...
    @effort_limit.setter
    def effort_limit(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def lower(self) -> float:
        ...
    @lower.setter
    def lower(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def pitch(self) -> float:
        ...
    @pitch.setter
    def pitch(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def upper(self) -> float:
        ...
    @upper.setter
    def upper(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def velocity_limit(self) -> float:
        ...
    @velocity_limit.setter
    def velocity_limit(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
class Joint:
    """
    Joint i of a model (read-only copy): a 1-DoF screw, unit axis in the child frame, placed at ^{lambda(i)}H_{lambda(i)|i}; ^{lambda(i)}H_i(s) = placement exp((Gamma s)^).
    """
    def __repr__(self) -> str:
        ...
    def transform(self, q: typing.SupportsFloat | typing.SupportsIndex) -> SE3:
        """
        ^{lambda(i)}H_i(q) = placement exp((Gamma q)^).
        """
    @property
    def armature(self) -> float:
        ...
    @property
    def axis(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
        """
        Unit axis e (child frame).
        """
    @property
    def effort_limit(self) -> float:
        ...
    @property
    def lower(self) -> float:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def pitch(self) -> float:
        ...
    @property
    def placement(self) -> SE3:
        """
        ^{lambda(i)}H_{lambda(i)|i} (copy).
        """
    @property
    def screw(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
        """
        Gamma, linear first.
        """
    @property
    def type(self) -> JointType:
        ...
    @property
    def upper(self) -> float:
        ...
    @property
    def velocity_limit(self) -> float:
        ...
class Frame:
    """
    A named frame rigidly attached to a body: ^{body}H_{frame} = placement.
    """
    def __repr__(self) -> str:
        ...
    @property
    def body(self) -> int:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def placement(self) -> SE3:
        ...
class MimicRelation:
    """
    q_joint = multiplier q_leader + offset (URDF <mimic>); recorded, not enforced. joint and leader are body indices.
    """
    @property
    def joint(self) -> int:
        ...
    @property
    def leader(self) -> int:
        ...
    @property
    def multiplier(self) -> float:
        ...
    @property
    def offset(self) -> float:
        ...
class Model:
    """
    The kinematic tree of a moving-base (or welded-base) robot: bodies 0..n, body 0 the base, parents lambda(i) < i, base-first generalized order (6 base coordinates, then joint i at offset + i - 1). Immutable; share one Model between any number of Data.
    """
    def __copy__(self, *memo):
        ...
    def __deepcopy__(self, *memo):
        ...
    def __repr__(self) -> str:
        ...
    def body_id(self, name: str) -> int:
        """
        Body index by name; KeyError naming the closest names when absent.
        """
    def body_name(self, body: typing.SupportsInt | typing.SupportsIndex) -> str:
        ...
    def children(self, body: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        """
        The bodies whose parent is i, in increasing order.
        """
    def depth(self, body: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        Number of joints between body i and the base.
        """
    def dof_parent(self, coordinate: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        Parent of velocity coordinate d in the coordinate tree (-1 at the root).
        """
    def dof_subtree_end(self, coordinate: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def frame(self, frame_id: typing.SupportsInt | typing.SupportsIndex) -> Frame:
        ...
    def frame_id(self, name: str) -> int:
        """
        Index into frames; KeyError naming the closest names when absent.
        """
    def inertia(self, body: typing.SupportsInt | typing.SupportsIndex) -> SpatialInertia:
        """
        Spatial inertia of body i in its own frame (fixed bodies merged in; a copy).
        """
    def joint(self, i: typing.SupportsInt | typing.SupportsIndex) -> Joint:
        """
        Joint i >= 1, attaching body i to its parent (a copy).
        """
    def joint_id(self, name: str) -> int:
        """
        Body index (>= 1) of the joint by name; KeyError naming the closest names when absent.
        """
    def joint_name(self, joint: typing.SupportsInt | typing.SupportsIndex) -> str:
        ...
    def require_invertible_mass_matrix(self, who: str = 'liedyn') -> None:
        """
        Raises ModelError naming the singular joints, if any.
        """
    def subtree_end(self, body: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        One past the last body of i's subtree: subtree(i) = [i, subtree_end(i)).
        """
    def v_index(self, joint: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        Index of joint i (body index >= 1) in velocity-sized vectors.
        """
    @property
    def base_type(self) -> BaseType:
        ...
    @property
    def body_names(self) -> list[str]:
        """
        Body names in body order (0: the base).
        """
    @property
    def frame_names(self) -> list[str]:
        """
        Frame names in frame_id order.
        """
    @property
    def frames(self) -> list[Frame]:
        """
        Every named frame: one per body (identity placement), then merged fixed bodies, then user frames (copies).
        """
    @property
    def gravity(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
        """
        Physical gravity g in the inertial frame, e.g. (0, 0, -9.81); the kernels use it as the base acceleration -[g; 0].
        """
    @property
    def has_moving_base(self) -> bool:
        ...
    @property
    def joint_names(self) -> list[str]:
        """
        Joint names of joints 1..n (entry i - 1 for joint i, the order of s and r).
        """
    @property
    def max_depth(self) -> int:
        ...
    @property
    def mimic_relations(self) -> list[MimicRelation]:
        ...
    @property
    def num_bodies(self) -> int:
        """
        n + 1, the base included.
        """
    @property
    def num_joints(self) -> int:
        """
        n (bodies are 0..n).
        """
    @property
    def nv(self) -> int:
        """
        Size of velocity-like vectors: 6 + n (moving) or n (welded).
        """
    @property
    def offset(self) -> int:
        """
        Index of joint 1 in velocity-sized vectors: 6 or 0.
        """
    @property
    def parents(self) -> list[int]:
        """
        lambda(i) for every body (-1 for the base).
        """
    @property
    def singular_joints(self) -> list[int]:
        """
        Diagnostics: joints whose moving subtree has no inertia along their axis (M is singular; forward dynamics, M^-1 and linearize refuse).
        """
    @property
    def tangent_size(self) -> int:
        """
        2 nv: the size of delta x = (eta, ds, dnu, dr).
        """
    @property
    def total_depth(self) -> int:
        ...
    @property
    def total_mass(self) -> float:
        ...
    @property
    def welded_base_pose(self) -> SE3:
        """
        ^A H_0 of a welded base.
        """
class ModelBuilder:
    """
    Builds and validates a Model: bodies, fixed bodies, frames and mimic relations in any order (parents by name or builder id), then build(). Errors raise ModelError.
    """
    def __init__(self, base: BaseType = BaseType.Moving, base_name: str = 'base', base_inertia: SpatialInertia = ...) -> None:
        ...
    def add_body(self, parent: typing.SupportsInt | typing.SupportsIndex | str, name: str, joint: JointSpec, inertia: SpatialInertia) -> int:
        """
        Adds body `name` (inertia in its own frame) on a movable joint; returns its id.
        """
    def add_fixed_body(self, parent: typing.SupportsInt | typing.SupportsIndex | str, name: str, placement: SE3, inertia: SpatialInertia = ...) -> int:
        """
        Adds a body rigidly attached at ^{parent}H_{body} = placement: merged, kept as a frame.
        """
    def add_frame(self, name: str, body: typing.SupportsInt | typing.SupportsIndex | str, placement: SE3) -> None:
        """
        A named frame at ^{body}H_{frame} = placement.
        """
    def add_mimic(self, joint: str, leader: str, multiplier: typing.SupportsFloat | typing.SupportsIndex = 1.0, offset: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> None:
        """
        Records q_joint = multiplier q_leader + offset (not enforced).
        """
    def build(self) -> Model:
        """
        The validated Model.
        """
    def set_base_inertia(self, inertia: SpatialInertia) -> None:
        ...
    def set_gravity(self, g: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"]) -> None:
        """
        Physical gravity in the inertial frame (default (0, 0, -9.81)).
        """
    def set_inertia_check(self, check: InertiaCheck) -> None:
        """
        Takes effect on bodies added afterwards.
        """
    def set_welded_base_pose(self, H: SE3) -> None:
        """
        ^A H_0 of a welded base.
        """
class InertiaPolicy:
    """
    What the loader does with link inertias no rigid body can have (docs/loading.md).
    
    Members:
    
      strict
    
      lenient
    
      balance
    """
    __members__: typing.ClassVar[dict[str, InertiaPolicy]]
    balance: typing.ClassVar[InertiaPolicy]
    lenient: typing.ClassVar[InertiaPolicy]
    strict: typing.ClassVar[InertiaPolicy]
    @typing.overload
    def __eq__(self, other: InertiaPolicy) -> bool:
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
    def __ne__(self, other: InertiaPolicy) -> bool:
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
class UrdfOptions:
    """
    Options of the URDF loader.
    """
    def __init__(self, weld_base: bool = False, welded_base_pose: SE3 = ..., gravity: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"] = ...) -> None:
        ...
    @property
    def gravity(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
        """
        Physical gravity in the inertial frame.
        """
    @gravity.setter
    def gravity(self, arg0: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"]) -> None:
        ...
    @property
    def inertia(self) -> InertiaPolicy:
        """
        InertiaPolicy: lenient (default: load as written, each deviation a diagnostic), balance, strict.
        """
    @inertia.setter
    def inertia(self, arg0: InertiaPolicy) -> None:
        ...
    @property
    def weld_base(self) -> bool:
        """
        Weld the root link to the inertial frame instead of making it the moving base.
        """
    @weld_base.setter
    def weld_base(self, arg0: bool) -> None:
        ...
    @property
    def welded_base_pose(self) -> SE3:
        """
        ^A H_0 of the welded root link.
        """
    @welded_base_pose.setter
    def welded_base_pose(self, arg0: SE3) -> None:
        ...
class UnsupportedElements:
    """
    What the MJCF loader does with elements it cannot represent that leave the tree intact.
    
    Members:
    
      error
    
      skip
    """
    __members__: typing.ClassVar[dict[str, UnsupportedElements]]
    error: typing.ClassVar[UnsupportedElements]
    skip: typing.ClassVar[UnsupportedElements]
    @typing.overload
    def __eq__(self, other: UnsupportedElements) -> bool:
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
    def __ne__(self, other: UnsupportedElements) -> bool:
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
class MjcfOptions:
    """
    Options of the MJCF loader (docs/loading.md).
    """
    def __init__(self) -> None:
        ...
    @property
    def gravity(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"] | None:
        """
        Physical gravity in the inertial frame; None: the file's <option gravity>.
        """
    @gravity.setter
    def gravity(self, arg0: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"] | None) -> None:
        ...
    @property
    def inertia(self) -> InertiaPolicy:
        """
        InertiaPolicy (default lenient).
        """
    @inertia.setter
    def inertia(self, arg0: InertiaPolicy) -> None:
        ...
    @property
    def unsupported(self) -> UnsupportedElements:
        """
        UnsupportedElements: error (default) or skip with a diagnostic each.
        """
    @unsupported.setter
    def unsupported(self, arg0: UnsupportedElements) -> None:
        ...
class MjcfRobot:
    """
    A robot loaded from MJCF with its <equality> constraints (docs/loading.md).
    """
    @property
    def constraints(self) -> ConstraintSet:
        """
        The same as a ConstraintSet on model, rows in file order.
        """
    @property
    def equality(self) -> list[ConstraintSpec]:
        """
        The <equality> elements as ConstraintSpecs.
        """
    @property
    def model(self) -> Model:
        """
        The tree (with the equalities' frames).
        """
    @property
    def qpos0(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
        """
        MuJoCo's qpos0 of the joints in liedyn's joint order, one entry per coordinate: a hinge's or slide's ref (s = qpos - qpos0), a ball joint's identity quaternion (1, 0, 0, 0), w first as MuJoCo writes it.
        """
class RandomModelOptions:
    """
    Options of random_model.
    """
    axis_aligned: bool
    gravity_off: bool
    moving_base: bool
    def __init__(self) -> None:
        ...
    @property
    def armature(self) -> float:
        ...
    @armature.setter
    def armature(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def branching(self) -> int:
        """
        0: a chain; larger: bushier trees.
        """
    @branching.setter
    def branching(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def every_joint_type(self) -> bool:
        """
        Every joint type in equal shares: revolute, prismatic, helical, spherical, free, planar and universal (overrides revolute_only).
        """
    @every_joint_type.setter
    def every_joint_type(self, arg0: bool) -> None:
        ...
    @property
    def revolute_only(self) -> bool:
        """
        Revolute joints only; else a mix of revolute, prismatic and helical.
        """
    @revolute_only.setter
    def revolute_only(self, arg0: bool) -> None:
        ...
    @property
    def unrotated_placements(self) -> bool:
        """
        Joint placements are pure translations (R = I), as most URDF files write them.
        """
    @unrotated_placements.setter
    def unrotated_placements(self, arg0: bool) -> None:
        ...
class State:
    """
    The state x = (H, s, nu, r): H = ^A H_0 the base pose, s joint positions (joint i at s[i-1]), nu the body twist ^0 v_{A,0} (native), r = s'. s, r and nu are writable numpy views of the State (write entries, or assign an array of the same size); their sizes are fixed at construction.
    """
    def __copy__(self) -> State:
        ...
    def __deepcopy__(self, memo: dict) -> State:
        ...
    @typing.overload
    def __init__(self, model: Model) -> None:
        """
        The neutral state: H = identity (or the welded pose), s = 0, at rest.
        """
    @typing.overload
    def __init__(self, H: SE3, s: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], nu: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"], r: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def base_twist(self, representation: TwistRepresentation) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
        """
        The base twist in `representation`.
        """
    def copy(self) -> State:
        ...
    def set_base_twist(self, twist: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"], representation: TwistRepresentation) -> None:
        """
        Sets the base twist given in `representation` (stored as the body twist).
        """
    def velocity(self, model: Model) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
        """
        Generalized velocity [nu; r] (r for a welded base).
        """
    @property
    def H(self) -> SE3:
        """
        ^A H_0, the base pose: a copy (an SE3 is an immutable value, so H0 = x.H keeps the pose of that moment); assign an SE3 to change the State's (x.H = liedyn.SE3(R, p)).
        """
    @H.setter
    def H(self, arg1: SE3) -> None:
        ...
    @property
    def nu(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]", "flags.writeable"]:
        """
        Body twist ^0 v_{A,0} of the base, linear first (writable view).
        """
    @nu.setter
    def nu(self, arg1: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"]) -> None:
        ...
    @property
    def r(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]", "flags.writeable"]:
        """
        Joint velocities (writable view).
        """
    @r.setter
    def r(self, arg1: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> None:
        ...
    @property
    def s(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]", "flags.writeable"]:
        """
        Joint positions (writable view).
        """
    @s.setter
    def s(self, arg1: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> None:
        ...
class Data:
    """
    Per-thread workspace of the kernels for one Model (all allocation happens here). Its output buffers are exposed as READ-ONLY numpy views that keep this Data alive; every kernel overwrites them (copy() what you keep). Per-body arrays are copies.
    """
    def __init__(self, model: Model) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def A(self) -> numpy.ndarray:
        """
        delta x' = A delta x + B delta tau (2nv x 2nv), or the discrete step's Jacobian.
        """
    @property
    def B(self) -> numpy.ndarray:
        """
        2nv x nv, input tau (base first).
        """
    @property
    def D1(self) -> numpy.ndarray:
        """
        dID/d eta (nv x 6), base twist of the chosen representation held fixed.
        """
    @property
    def D2(self) -> numpy.ndarray:
        """
        dID/ds (nv x n).
        """
    @property
    def D3(self) -> numpy.ndarray:
        """
        dID/d(base twist) in the chosen representation (nv x 6).
        """
    @property
    def D4(self) -> numpy.ndarray:
        """
        dID/dr (nv x n).
        """
    @property
    def F(self) -> numpy.ndarray:
        """
        Base-joint block of M in the base frame, 6 x n (crba).
        """
    @property
    def H_base(self) -> list[SE3]:
        """
        ^0 H_i for every body (copies).
        """
    @property
    def H_parent(self) -> list[SE3]:
        """
        ^{lambda(i)} H_i(s_i) for every body (copies).
        """
    @property
    def H_world(self) -> list[SE3]:
        """
        ^A H_i for every body (forward_poses / forward_kinematics; copies).
        """
    @property
    def M(self) -> numpy.ndarray:
        """
        Mass matrix, both triangles (crba, eidamb_derivatives, linearize).
        """
    @property
    def Minv(self) -> numpy.ndarray:
        """
        Inverse mass matrix, both triangles (immamb, ltdl_inverse, linearize).
        """
    @property
    def a(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
        """
        rnea/aba body accelerations incl. gravity, body frame (num_bodies x 6; copy).
        """
    @property
    def ddq(self) -> numpy.ndarray:
        """
        Forward dynamics [nu'; r'] (aba, linearize).
        """
    @property
    def f(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
        """
        rnea body wrenches, body frame (num_bodies x 6; copy).
        """
    @property
    def h(self) -> numpy.ndarray:
        """
        Bias h(x) = ID(x, 0) (bias_force).
        """
    @property
    def ltdl(self) -> numpy.ndarray:
        """
        M = L^T D L: D on the diagonal, L strictly below (ltdl_factorize).
        """
    @property
    def num_bodies(self) -> int:
        ...
    @property
    def tau(self) -> numpy.ndarray:
        """
        tau = [base wrench (base frame); joint torques] (rnea, eidamb, gravity/coriolis_force).
        """
    @property
    def v(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
        """
        Body twists ^i v_{A,i}, (num_bodies x 6), body frame (forward_kinematics; copy).
        """
class LinearizationOptions:
    """
    Options of linearize, linearize_actuated and linearize_discrete: the base-twist representation of delta x (and of D1..D4), and how M^-1 is applied.
    """
    minv: MinvMethod
    representation: TwistRepresentation
    def __init__(self, representation: TwistRepresentation = TwistRepresentation.Body, minv: MinvMethod = MinvMethod.Automatic, dense_up_to_nv: typing.SupportsInt | typing.SupportsIndex = 256) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def dense_up_to_nv(self) -> int:
        """
        Automatic uses Dense up to this nv, Sweeps above.
        """
    @dense_up_to_nv.setter
    def dense_up_to_nv(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class ComFrame:
    """
    Axes of the centre-of-mass quantities: Inertial (A) or Base (the base frame).
    
    Members:
    
      Inertial
    
      Base
    """
    Base: typing.ClassVar[ComFrame]
    Inertial: typing.ClassVar[ComFrame]
    __members__: typing.ClassVar[dict[str, ComFrame]]
    @typing.overload
    def __eq__(self, other: ComFrame) -> bool:
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
    def __ne__(self, other: ComFrame) -> bool:
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
class ConstraintError(ValueError):
    pass
class ConstraintType:
    """
    The kinds of constraint (docs/constraints.md).
    
    Members:
    
      PointContact
    
      RigidContact
    
      RigidLoop
    
      BallLoop
    
      RevoluteLoop
    
      PrismaticLoop
    
      Coupling
    """
    BallLoop: typing.ClassVar[ConstraintType]
    Coupling: typing.ClassVar[ConstraintType]
    PointContact: typing.ClassVar[ConstraintType]
    PrismaticLoop: typing.ClassVar[ConstraintType]
    RevoluteLoop: typing.ClassVar[ConstraintType]
    RigidContact: typing.ClassVar[ConstraintType]
    RigidLoop: typing.ClassVar[ConstraintType]
    __members__: typing.ClassVar[dict[str, ConstraintType]]
    @typing.overload
    def __eq__(self, other: ConstraintType) -> bool:
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
    def __ne__(self, other: ConstraintType) -> bool:
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
class ConstrainedDynamicsRoute:
    """
    How constrained_forward_dynamics solves the KKT system.
    
    Members:
    
      ExactKKT
    
      Proximal
    
      Projector
    
      MinimalCoordinates
    """
    ExactKKT: typing.ClassVar[ConstrainedDynamicsRoute]
    MinimalCoordinates: typing.ClassVar[ConstrainedDynamicsRoute]
    Projector: typing.ClassVar[ConstrainedDynamicsRoute]
    Proximal: typing.ClassVar[ConstrainedDynamicsRoute]
    __members__: typing.ClassVar[dict[str, ConstrainedDynamicsRoute]]
    @typing.overload
    def __eq__(self, other: ConstrainedDynamicsRoute) -> bool:
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
    def __ne__(self, other: ConstrainedDynamicsRoute) -> bool:
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
class KktDerivativeSolve:
    """
    How the derivatives of the constrained dynamics solve their KKT systems: SparseFactors (one tree-sparse solve per column), DenseInverse (block elimination with M^-1 explicit), Automatic (DenseInverse from 40 velocities on). Both give the same derivatives to rounding; they differ in cost with the tree (docs/constraints.md).
    
    Members:
    
      Automatic
    
      SparseFactors
    
      DenseInverse
    """
    Automatic: typing.ClassVar[KktDerivativeSolve]
    DenseInverse: typing.ClassVar[KktDerivativeSolve]
    SparseFactors: typing.ClassVar[KktDerivativeSolve]
    __members__: typing.ClassVar[dict[str, KktDerivativeSolve]]
    @typing.overload
    def __eq__(self, other: KktDerivativeSolve) -> bool:
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
    def __ne__(self, other: KktDerivativeSolve) -> bool:
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
class ConstraintSpec:
    """
    A constraint by names: contact on a frame, loop between two frames, or coupling. Rows and lambda in `sense` (Body = Pinocchio's LOCAL, Mixed = LOCAL_WORLD_ALIGNED, Inertial = WORLD).
    """
    name: str
    sense: TwistRepresentation
    type: ConstraintType
    @staticmethod
    def coupling(joint: str, master: str, ratio: typing.SupportsFloat | typing.SupportsIndex, offset: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> ConstraintSpec:
        """
        The coupling s_joint = ratio * s_master + offset.
        """
    @staticmethod
    def loop(type: ConstraintType, frame1: str, frame2: str, sense: TwistRepresentation = TwistRepresentation.Body, axis: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"] = ...) -> ConstraintSpec:
        """
        A loop closure between two robot frames; axis (loop joints) in frame 2's coordinates.
        """
    @staticmethod
    def point_contact(frame: str, sense: TwistRepresentation = TwistRepresentation.Body) -> ConstraintSpec:
        """
        A point (3D) contact of the frame's origin.
        """
    @staticmethod
    def rigid_contact(frame: str, sense: TwistRepresentation = TwistRepresentation.Body) -> ConstraintSpec:
        """
        A rigid (6D) contact of the frame.
        """
    def __getstate__(self) -> tuple[ConstraintType, str, str, str, TwistRepresentation, typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"], int, SE3 | None, typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"], typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"], float, float, list[int], str, str, float, float]:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, arg0: tuple) -> None:
        ...
    @property
    def Kd(self) -> float:
        """
        Baumgarte velocity gain (default 0).
        """
    @Kd.setter
    def Kd(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def Kp(self) -> float:
        """
        Baumgarte position gain (default 0).
        """
    @Kp.setter
    def Kp(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def components(self) -> list[int]:
        """
        Rows kept, by index (empty: all).
        """
    @components.setter
    def components(self, arg0: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> None:
        ...
    @property
    def placement(self) -> SE3 | None:
        """
        Desired placement, an SE3 or None: contacts ^A H_F (None: the position error is zero and Kp must be 0); loops ^1 H_2 (None: the two frames coincide).
        """
    @placement.setter
    def placement(self, arg0: SE3 | None) -> None:
        ...
class ConstraintSet:
    """
    Constraints resolved against a Model, immutable.
    """
    def __init__(self, model: Model, specs: collections.abc.Sequence[ConstraintSpec]) -> None:
        ...
    def describe(self, k: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        Constraint k by name and type.
        """
    def dimension(self) -> int:
        """
        Number of rows m of J.
        """
    def size(self) -> int:
        """
        Number of constraints.
        """
class ConstraintData:
    """
    Workspace and results of the constraint kernels.
    """
    def __init__(self, model: Model, set: ConstraintSet) -> None:
        ...
    @property
    def J(self) -> numpy.ndarray:
        """
        Stacked constraint Jacobian (m x nv), rows in each constraint's sense.
        """
    @property
    def Jdot(self) -> numpy.ndarray:
        """
        The time derivative of J (m x nv, constraint_kinematics_derivatives), J's columns [nu; r] and rows.
        """
    @property
    def acceleration_dx(self) -> numpy.ndarray:
        """
        d(J ddq + gamma) / d x at fixed ddq (m x 2nv, the columns of ddq_dx; constraint_kinematics_derivatives, constrained_forward_dynamics_derivatives).
        """
    @property
    def ddq(self) -> numpy.ndarray:
        """
        Constrained accelerations [nu'; r'].
        """
    @property
    def ddq_dtau(self) -> numpy.ndarray:
        """
        d ddq / d tau (nv x nv), tau = [base wrench (base frame); joint torques].
        """
    @property
    def ddq_dx(self) -> numpy.ndarray:
        """
        d ddq / d x (nv x 2nv, constrained_forward_dynamics_derivatives): rows ddq = [nu'; r'], columns delta x = (eta, ds, dt, dr), t the base twist in the chosen representation.
        """
    @property
    def drift(self) -> numpy.ndarray:
        """
        J' [nu; r] alone.
        """
    @property
    def gamma(self) -> numpy.ndarray:
        """
        J ddq + gamma = 0 (drift and Baumgarte terms).
        """
    @property
    def impulse(self) -> numpy.ndarray:
        """
        Constraint impulses on the robot (impulse_dynamics).
        """
    @property
    def impulse_dx(self) -> numpy.ndarray:
        """
        d impulse / d x (m x 2nv, impulse_dynamics_derivatives): rows in the set's order, each in its constraint's sense; columns as v_after_dx.
        """
    # property 'lambda': a Python keyword, read it with getattr(obj, 'lambda')
    @property
    def lambda_(self) -> numpy.ndarray:
        """
        Constraint forces on the robot (the same as `lambda`, a Python keyword).
        """
    @property
    def lambda_dtau(self) -> numpy.ndarray:
        """
        d lambda / d tau (m x nv).
        """
    @property
    def lambda_dx(self) -> numpy.ndarray:
        """
        d lambda / d x (m x 2nv): rows lambda in the set's order, each in its constraint's sense; columns as ddq_dx.
        """
    @property
    def position_error(self) -> numpy.ndarray:
        """
        Position error e of the rows.
        """
    @property
    def position_error_dx(self) -> numpy.ndarray:
        """
        d e / d q (m x nv, constraint_kinematics_derivatives): columns (eta, ds), H = H0 exp(eta^); zero rows for contacts without a desired placement.
        """
    @property
    def v_after(self) -> numpy.ndarray:
        """
        Velocity after the impact [nu+; r+].
        """
    @property
    def v_after_dx(self) -> numpy.ndarray:
        """
        d v_after / d x (nv x 2nv, impulse_dynamics_derivatives): rows [nu+; r+], columns delta x = (eta, ds, dt, dr) of the pre-impact state.
        """
    @property
    def velocity_dx(self) -> numpy.ndarray:
        """
        d(J [nu; r]) / d x (m x 2nv, the columns of ddq_dx): the constraint velocity's derivative.
        """
    @property
    def velocity_error(self) -> numpy.ndarray:
        """
        J [nu; r] - v*.
        """
class ReducedLinearization:
    """
    The constrained linearization on the tangent space of the constraint manifold {e(q) = 0, J [nu; r] = v*}, filled by linearize_reduced: basis P (2nv x k, orthonormal columns spanning the null space of C = [J 0; cdata.velocity_dx], rows delta x = (eta, ds, dt, dr) in the options' representation), A_r = P^T A P (k x k), B_r = P^T B (k x nv); delta x = P delta z. basis, A and B are copies (their sizes follow the rank).
    """
    def __init__(self, model: Model, set: ConstraintSet) -> None:
        ...
    def dimension(self) -> int:
        """
        k, the tangent space's dimension (0 before linearize_reduced).
        """
    @property
    def A(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
        """
        A_r = P^T A P (k x k, a copy).
        """
    @property
    def B(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
        """
        B_r = P^T B (k x nv, a copy).
        """
    @property
    def basis(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
        """
        P (2nv x k): delta x = P delta z, orthonormal columns (a copy).
        """
    @property
    def rank(self) -> int:
        """
        Rank of C (2m for independent constraints); k = 2nv - rank.
        """
class BatchWorkspace:
    """
    What the batch kernels need besides the model: a pool of `threads` worker threads (the calling thread is one of them) and one Data (and ConstraintData) per worker. Build it once and reuse it; one batch call at a time (two Python threads batching at once each keep their own).
    """
    @typing.overload
    def __init__(self, model: Model, threads: typing.SupportsInt | typing.SupportsIndex = 1) -> None:
        ...
    @typing.overload
    def __init__(self, model: Model, set: ConstraintSet, threads: typing.SupportsInt | typing.SupportsIndex = 1) -> None:
        """
        For the unconstrained kernels and those of the constraint set `set`.
        """
    def __repr__(self) -> str:
        ...
    @property
    def has_constraints(self) -> bool:
        ...
    @property
    def threads(self) -> int:
        ...
class ContactSolver:
    """
    The frictional contact solver of a contact step: Admm (frictional_contact_admm, the default) or Pgs (projected Gauss-Seidel).
    
    Members:
    
      Admm
    
      Pgs
    """
    Admm: typing.ClassVar[ContactSolver]
    Pgs: typing.ClassVar[ContactSolver]
    __members__: typing.ClassVar[dict[str, ContactSolver]]
    @typing.overload
    def __eq__(self, other: ContactSolver) -> bool:
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
    def __ne__(self, other: ContactSolver) -> bool:
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
class ContactPlane:
    """
    A plane of the environment in the inertial frame A: the points p with normal . (p - point) = 0, the free side where the normal points. The normal need not be unit (it is normalized when a workspace is built) but must be non-zero and finite.
    """
    @staticmethod
    def ground() -> ContactPlane:
        """
        The ground z = 0 of A, free side up (+z).
        """
    @staticmethod
    def through(point: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"], normal: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"]) -> ContactPlane:
        """
        The plane through `point` with normal `normal` (both in A).
        """
    def __init__(self, point: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"] = ..., normal: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"] = ...) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def normal(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
        """
        Its normal, towards the free side (A).
        """
    @normal.setter
    def normal(self, arg0: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"]) -> None:
        ...
    @property
    def point(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
        """
        A point of the plane (A).
        """
    @point.setter
    def point(self, arg0: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"]) -> None:
        ...
class ContactPointSpec:
    """
    A point contact: a point of the robot (the origin of model frame `frame` moved by `offset` in the frame's axes, or, with frame empty, the point `offset` of body `body` in the body frame) against `plane`, with Coulomb friction coefficient `friction` >= 0; with radius > 0 the point is the centre of a sphere. Checked (unknown frame or body, friction < 0, zero normal, radius < 0) when a ContactStepWorkspace or ContactBatchWorkspace is built.
    """
    @staticmethod
    def on_body(body: str, offset: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"], plane: ContactPlane, friction: typing.SupportsFloat | typing.SupportsIndex, radius: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> ContactPointSpec:
        """
        The point `offset` of body `body` (body frame) against `plane`.
        """
    @staticmethod
    def on_frame(frame: str, plane: ContactPlane, friction: typing.SupportsFloat | typing.SupportsIndex, offset: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"] = ..., radius: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> ContactPointSpec:
        """
        The origin of model frame `frame` (moved by `offset`, in the frame's axes) against `plane`.
        """
    def __init__(self, *, frame: str = '', body: str = '', offset: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"] = ..., plane: ContactPlane = ..., friction: typing.SupportsFloat | typing.SupportsIndex = 0.0, radius: typing.SupportsFloat | typing.SupportsIndex = 0.0, name: str = '') -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def body(self) -> str:
        """
        Body holding the point, when `frame` is empty.
        """
    @body.setter
    def body(self, arg0: str) -> None:
        ...
    @property
    def frame(self) -> str:
        """
        Model frame holding the point (empty: `body`).
        """
    @frame.setter
    def frame(self, arg0: str) -> None:
        ...
    @property
    def friction(self) -> float:
        """
        Coulomb friction coefficient mu >= 0.
        """
    @friction.setter
    def friction(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def name(self) -> str:
        """
        Used in messages; empty: the frame's or body's name.
        """
    @name.setter
    def name(self, arg0: str) -> None:
        ...
    @property
    def offset(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
        """
        The point in the frame's (or body's) coordinates.
        """
    @offset.setter
    def offset(self, arg0: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 1]"]) -> None:
        ...
    @property
    def plane(self) -> ContactPlane:
        """
        The environment's plane.
        """
    @plane.setter
    def plane(self, arg0: ContactPlane) -> None:
        ...
    @property
    def radius(self) -> float:
        """
        Sphere radius around the point (0: a point).
        """
    @radius.setter
    def radius(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
class FrictionalContactSettings:
    """
    Settings of the frictional contact solvers (ADMM and PGS; docs/frictional-contacts.md).
    """
    def __init__(self) -> None:
        ...
    @property
    def absolute_tolerance(self) -> float:
        """
        Absolute tolerance on the residuals.
        """
    @absolute_tolerance.setter
    def absolute_tolerance(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def adaptive_rho(self) -> bool:
        """
        ADMM: rescale the penalty from the residuals' ratio.
        """
    @adaptive_rho.setter
    def adaptive_rho(self, arg0: bool) -> None:
        ...
    @property
    def max_iterations(self) -> int:
        """
        ADMM iterations or PGS sweeps at most.
        """
    @max_iterations.setter
    def max_iterations(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def over_relaxation(self) -> float:
        """
        ADMM: the over-relaxation alpha in (0, 2).
        """
    @over_relaxation.setter
    def over_relaxation(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def relative_tolerance(self) -> float:
        """
        Tolerance relative to the problem's scale.
        """
    @relative_tolerance.setter
    def relative_tolerance(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def relaxation(self) -> float:
        """
        PGS: the relaxation omega in (0, 2).
        """
    @relaxation.setter
    def relaxation(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def rho_initial(self) -> float:
        """
        ADMM: the initial penalty, relative to G's mean diagonal entry.
        """
    @rho_initial.setter
    def rho_initial(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def rho_update_interval(self) -> int:
        """
        ADMM: iterations between penalty updates at least.
        """
    @rho_update_interval.setter
    def rho_update_interval(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def rho_update_ratio(self) -> float:
        """
        ADMM: the residuals' ratio beyond which the penalty is rescaled.
        """
    @rho_update_ratio.setter
    def rho_update_ratio(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def symmetry_tolerance(self) -> float:
        """
        The largest asymmetry of G accepted, relative to its largest entry.
        """
    @symmetry_tolerance.setter
    def symmetry_tolerance(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def warm_start(self) -> bool:
        """
        Start from the impulses given (a contact step: the previous step's).
        """
    @warm_start.setter
    def warm_start(self, arg0: bool) -> None:
        ...
class ContactStepSettings:
    """
    Settings of a contact step (docs/frictional-contacts.md, "The time step with the tree").
    """
    def __init__(self) -> None:
        ...
    @property
    def margin(self) -> float:
        """
        A contact enters the problem when its gap <= margin (m, >= 0).
        """
    @margin.setter
    def margin(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def penetration_recovery(self) -> float:
        """
        beta in [0, 1]: the fraction of a penetration removed per step.
        """
    @penetration_recovery.setter
    def penetration_recovery(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def restitution(self) -> float:
        """
        Newton's restitution e in [0, 1] at touching or penetrating contacts.
        """
    @restitution.setter
    def restitution(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def solver(self) -> ContactSolver:
        """
        The solver of the contact problem.
        """
    @solver.setter
    def solver(self, arg0: ContactSolver) -> None:
        ...
    @property
    def solver_settings(self) -> FrictionalContactSettings:
        """
        The solver's settings (warm_start on by default here).
        """
    @solver_settings.setter
    def solver_settings(self, arg0: FrictionalContactSettings) -> None:
        ...
class ContactStepResult:
    """
    What one contact step did: the solver's report and the per-contact results (copies; contact k in row k, in the order given).
    """
    def __repr__(self) -> str:
        ...
    @property
    def active(self) -> list[int]:
        """
        The active contacts' indices, increasing.
        """
    @property
    def active_contacts(self) -> int:
        """
        Number of contacts with gap <= margin (those in the problem).
        """
    @property
    def complementarity_residual(self) -> float:
        """
        max_i |lambda_i . sigma_i| / |lambda|_inf (velocity units).
        """
    @property
    def contact_velocity(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
        """
        (nc, 3): c_k = G lambda + g at the end of the step, contact k's frame.
        """
    @property
    def converged(self) -> bool:
        """
        The impulses meet the solver's tolerances (True with no active contact). False: the step was still taken with the last iterate.
        """
    @property
    def dual_residual(self) -> float:
        """
        Dual-cone violation of c + Gamma(c) (velocity units).
        """
    @property
    def gap(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
        """
        (nc,): the gap phi_k at the step's start state (m; negative: penetration).
        """
    @property
    def impulses(self) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
        """
        (nc, 3): lambda_k, the impulse on the robot over the step in contact k's frame [t1, t2, n] (N s); zero for an inactive contact. lambda / dt is the mean force.
        """
    @property
    def iterations(self) -> int:
        """
        ADMM iterations or PGS sweeps taken.
        """
    @property
    def primal_residual(self) -> float:
        """
        Cone violation of lambda (force units).
        """
class ContactStepWorkspace:
    """
    The workspace of `step` for one model and one list of contacts: built once (this resolves and checks the contacts: an unknown frame or body, friction < 0, a zero normal, radius < 0 raise InvalidArgument naming the contact); `step` allocates nothing afterwards. It keeps the last step's impulses as the next solve's warm start (reset_warm_start() drops them).
    """
    def __init__(self, model: Model, contacts: collections.abc.Sequence[ContactPointSpec]) -> None:
        ...
    def reset_warm_start(self) -> None:
        """
        Drops the kept impulses: the next solve starts from zero.
        """
    @property
    def axes(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        (nc, 3, 3): contact k's frame axes in A as columns (t1, t2, n), n the plane's unit normal.
        """
    @property
    def names(self) -> list[str]:
        """
        The contacts' names, in the order given.
        """
    @property
    def num_contacts(self) -> int:
        """
        Number of contacts (active or not).
        """
class ContactBatchResult:
    """
    The results of batch_contact_step (leading axes (N,)) or of a contact batch_rollout (leading axes (N, K)): the states, the impulses (..., nc, 3) in the contacts' frames, and each step's report.
    """
    @property
    def active_contacts(self) -> numpy.ndarray:
        """
        (...) int32: the contacts in each step's problem.
        """
    @property
    def complementarity_residual(self) -> numpy.ndarray:
        """
        (...) float64.
        """
    @property
    def converged(self) -> numpy.ndarray:
        """
        (...) bool: each step's solve met its tolerances.
        """
    @property
    def dual_residual(self) -> numpy.ndarray:
        """
        (...) float64.
        """
    @property
    def impulses(self) -> numpy.ndarray:
        """
        (..., nc, 3): each step's lambda_k in contact k's frame [t1, t2, n].
        """
    @property
    def iterations(self) -> numpy.ndarray:
        """
        (...) int32: each step's ADMM iterations or PGS sweeps.
        """
    @property
    def primal_residual(self) -> numpy.ndarray:
        """
        (...) float64.
        """
    @property
    def states(self) -> numpy.ndarray:
        """
        (N, batch_state_size) next states, or (N, K + 1, batch_state_size) x_0 .. x_K of each trajectory.
        """
class ContactBatchWorkspace:
    """
    What the contact batch calls need besides the model: a pool of `threads` worker threads (the calling thread is one of them) and one ContactStepWorkspace per worker for `contacts` (checked as ContactStepWorkspace checks them). Build it once and reuse it. Results do not depend on the thread count: every trajectory (every state of batch_contact_step) starts from a zero warm start.
    """
    def __init__(self, model: Model, contacts: collections.abc.Sequence[ContactPointSpec], threads: typing.SupportsInt | typing.SupportsIndex = 1) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def num_contacts(self) -> int:
        ...
    @property
    def threads(self) -> int:
        ...
def _model_capsule(model: Model) -> typing.Any:
    """
    A capsule pointing at model, for liedyn.crocoddyl (valid while model lives).
    """
def _model_from_state(state: tuple) -> Model:
    """
    The model _model_state gave, rebuilt by ModelBuilder.
    """
def _model_state(model: Model) -> tuple:
    """
    The model as plain data (what ModelBuilder takes), for pickle.
    """
def aba(model: Model, data: Data, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], fext: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"] | None = None, *, out: typing.Any = None) -> typing.Any:
    """
    Forward dynamics ddq = M(s)^-1 (tau + sum J_i^T f_ext,i - h(x)) by the articulated-body algorithm; ddq = [nu' (body acceleration, base frame); r']. Raises ModelError for a singular model. Returns a copy of data.ddq.
    """
def aza_factorize(model: Model, data: Data, s: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> None:
    """
    Factors M(s) by articulated-body inertias (around the base frame) for aza_solve. Raises ModelError for a singular model.
    """
def aza_solve(model: Model, data: Data, Y: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"]) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    X = M^-1 Y column by column after aza_factorize (Y: nv x k; a new array).
    """
def base_acceleration_from_body(H: SE3, nu: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"], nu_dot: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"], representation: TwistRepresentation) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
    """
    d/dt of the base twist in `representation` (mixed adds [R (omega x v); 0]), from nu and nu'.
    """
def base_acceleration_to_body(H: SE3, nu: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"], acceleration: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"], representation: TwistRepresentation) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
    """
    nu' from the time derivative of the base twist in `representation`.
    """
def base_pose(model: Model, x: State) -> SE3:
    """
    ^A H_0 as the kinematics use it: x.H (moving base) or model.welded_base_pose.
    """
def base_twist_from_body(H: SE3, nu: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"], representation: TwistRepresentation) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
    """
    The base twist in `representation` from nu.
    """
def base_twist_to_body(H: SE3, twist: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"], representation: TwistRepresentation) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
    """
    The body twist nu from a twist in `representation`.
    """
def batch_aba(model: Model, workspace: BatchWorkspace, states: typing.Any, tau: typing.Any, *, out: typing.Any = None) -> numpy.ndarray:
    """
    aba at every state: row i of the result (N, nv) is ddq(states[i], tau[i]).
    """
def batch_centroidal_momentum(model: Model, workspace: BatchWorkspace, states: typing.Any, *, out: typing.Any = None) -> numpy.ndarray:
    """
    centroidal_momentum at every state: row i of the result (N, 6) is h_G at states[i] (linear first, centroidal frame).
    """
def batch_constrained_forward_dynamics(model: Model, set: ConstraintSet, workspace: BatchWorkspace, states: typing.Any, tau: typing.Any, route: ConstrainedDynamicsRoute = ConstrainedDynamicsRoute.ExactKKT) -> tuple[numpy.ndarray, numpy.ndarray]:
    """
    constrained_forward_dynamics under `set` (the workspace's) at every state: (ddq (N, nv), lambda (N, m)).
    """
def batch_constrained_forward_dynamics_derivatives(model: Model, set: ConstraintSet, workspace: BatchWorkspace, states: typing.Any, tau: typing.Any, representation: TwistRepresentation = TwistRepresentation.Body) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """
    constrained_forward_dynamics_derivatives at every state: (ddq_dx (N, nv, 2nv), lambda_dx (N, m, 2nv), ddq_dtau (N, nv, nv), lambda_dtau (N, m, nv)), x columns (eta, ds, base twist in `representation`, dr).
    """
def batch_contact_step(model: Model, workspace: ContactBatchWorkspace, states: typing.Any, tau: typing.Any, dt: typing.SupportsFloat | typing.SupportsIndex, settings: ContactStepSettings = ...) -> ContactBatchResult:
    """
    step at every state, each from a zero warm start: states (N, batch_state_size), tau (N, nv); returns a ContactBatchResult with states (N, batch_state_size) the next states, impulses (N, nc, 3) and the reports (N,). Bit-identical for any thread count.
    """
def batch_crba(model: Model, workspace: BatchWorkspace, states: typing.Any, *, out: typing.Any = None) -> numpy.ndarray:
    """
    crba at every state: result[i] (N, nv, nv) is M at states[i].
    """
def batch_eidamb(model: Model, workspace: BatchWorkspace, states: typing.Any, ddq: typing.Any, *, out: typing.Any = None) -> numpy.ndarray:
    """
    eidamb at every state: row i of the result (N, nv) is tau(states[i], ddq[i]).
    """
def batch_eidamb_derivatives(model: Model, workspace: BatchWorkspace, states: typing.Any, ddq: typing.Any, representation: TwistRepresentation = TwistRepresentation.Body) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """
    eidamb_derivatives at every state: (D1, D2, D3, D4), each (N, nv, ·), item i the single call's at (states[i], ddq[i]) (D1, D3 have 0 columns for a welded base).
    """
def batch_frame_placements(model: Model, workspace: BatchWorkspace, states: typing.Any, frame_ids: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex | str]) -> tuple[numpy.ndarray, numpy.ndarray]:
    """
    The placements ^A H_F of the model frames `frame_ids` (indices or names) at every state: (R (N, F, 3, 3), p (N, F, 3)), R[i, f] and p[i, f] the rotation and position of frame frame_ids[f] at states[i], in the inertial frame.
    """
def batch_immamb(model: Model, workspace: BatchWorkspace, states: typing.Any, *, out: typing.Any = None) -> numpy.ndarray:
    """
    immamb at every state: result[i] (N, nv, nv) is M^-1 at states[i].
    """
def batch_impulse_dynamics(model: Model, set: ConstraintSet, workspace: BatchWorkspace, states: typing.Any, restitution: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> tuple[numpy.ndarray, numpy.ndarray]:
    """
    impulse_dynamics under `set` at every state: (v_after (N, nv), impulse (N, m)).
    """
def batch_linearize(model: Model, workspace: BatchWorkspace, states: typing.Any, tau: typing.Any, options: LinearizationOptions = ...) -> tuple[numpy.ndarray, numpy.ndarray]:
    """
    linearize at every state: (A (N, 2nv, 2nv), B (N, 2nv, nv)), item i at (states[i], tau[i]).
    """
def batch_linearize_discrete(model: Model, workspace: BatchWorkspace, states: typing.Any, tau: typing.Any, dt: typing.SupportsFloat | typing.SupportsIndex, options: LinearizationOptions = ...) -> tuple[numpy.ndarray, numpy.ndarray]:
    """
    linearize_discrete (step dt) at every state: (A (N, 2nv, 2nv), B (N, 2nv, nv)).
    """
def batch_rnea(model: Model, workspace: BatchWorkspace, states: typing.Any, ddq: typing.Any, *, out: typing.Any = None) -> numpy.ndarray:
    """
    rnea at every state: row i of the result (N, nv) is tau(states[i], ddq[i]).
    """
@typing.overload
def batch_rollout(model: Model, workspace: BatchWorkspace, initial: typing.Any, controls: typing.Any, dt: typing.SupportsFloat | typing.SupportsIndex) -> numpy.ndarray:
    """
    N rollouts of semi_implicit_euler_step (step dt): trajectory i starts at initial[i] (N, batch_state_size) and takes K steps under controls[i, k] (N, K, nv); returns its states x_0 .. x_K as result[i] (N, K + 1, batch_state_size). With a constraint set (the workspace's), each step is the constrained one (no projection onto the manifold).
    """
@typing.overload
def batch_rollout(model: Model, set: ConstraintSet, workspace: BatchWorkspace, initial: typing.Any, controls: typing.Any, dt: typing.SupportsFloat | typing.SupportsIndex) -> numpy.ndarray:
    """
    N rollouts of semi_implicit_euler_step (step dt): trajectory i starts at initial[i] (N, batch_state_size) and takes K steps under controls[i, k] (N, K, nv); returns its states x_0 .. x_K as result[i] (N, K + 1, batch_state_size). With a constraint set (the workspace's), each step is the constrained one (no projection onto the manifold).
    """
@typing.overload
def batch_rollout(model: Model, workspace: ContactBatchWorkspace, initial: typing.Any, controls: typing.Any, dt: typing.SupportsFloat | typing.SupportsIndex, settings: ContactStepSettings = ...) -> ContactBatchResult:
    """
    Contact form: N rollouts of step (the contacts of `workspace`, a ContactBatchWorkspace; `settings`): trajectory i starts at initial[i] (N, batch_state_size) with a zero warm start and takes K steps under controls[i, k] (N, K, nv); returns a ContactBatchResult: states (N, K + 1, batch_state_size), impulses (N, K, nc, 3), reports (N, K). Bit-identical for any thread count, and equal to the loop of step on a fresh ContactStepWorkspace.
    """
@typing.overload
def batch_rollout_with_jacobians(model: Model, workspace: BatchWorkspace, initial: typing.Any, controls: typing.Any, dt: typing.SupportsFloat | typing.SupportsIndex, options: LinearizationOptions = ...) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """
    batch_rollout that also returns every step's Jacobians (linearize_discrete at x_k, u_k, delta x in options.representation): (states (N, K + 1, batch_state_size), A (N, K, 2nv, 2nv), B (N, K, 2nv, nv)), what a DDP/iLQR backward pass needs.
    """
@typing.overload
def batch_rollout_with_jacobians(model: Model, set: ConstraintSet, workspace: BatchWorkspace, initial: typing.Any, controls: typing.Any, dt: typing.SupportsFloat | typing.SupportsIndex, options: LinearizationOptions = ...) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """
    batch_rollout that also returns every step's Jacobians (linearize_discrete at x_k, u_k, delta x in options.representation): (states (N, K + 1, batch_state_size), A (N, K, 2nv, 2nv), B (N, K, 2nv, nv)), what a DDP/iLQR backward pass needs.
    """
def batch_state_list(model: Model, states: typing.Any) -> list[State]:
    """
    The rows of a batch array (N, batch_state_size(model)) as a list of States.
    """
def batch_state_size(model: Model) -> int:
    """
    Entries of one state in a batch: 18 + nq + nv for a moving base ([R (column-major, 9); p (3); s; nu; r] with (R, p) = ^A H_0, nu the body twist), nq + nv for a welded one ([s; r]); nq, nv the joints' sizes.
    """
def batch_states(model: Model, states: collections.abc.Sequence[State]) -> numpy.typing.NDArray[numpy.float64]:
    """
    The states as a batch array (N, batch_state_size(model)), row i = states[i]; the rotation is stored whole, so a state goes in and out exactly.
    """
def bias_force(model: Model, data: Data, x: State, fext: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"] | None = None, *, out: typing.Any = None) -> typing.Any:
    """
    The bias h(x) = ID(x, 0): velocity products, gravity, external wrenches. Returns a copy of data.h.
    """
def body_jacobian(model: Model, data: Data, x: State, body: typing.SupportsInt | typing.SupportsIndex, representation: TwistRepresentation = TwistRepresentation.Body) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    frame_jacobian of body `body`'s own frame (placement identity).
    """
def center_of_mass(model: Model, data: Data, x: State, frame: ComFrame = ComFrame.Inertial) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
    """
    Centre of mass p_com: in the inertial frame, or relative to the base origin in base axes.
    """
def center_of_mass_acceleration(model: Model, data: Data, x: State, ddq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], frame: ComFrame = ComFrame.Inertial) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
    """
    Acceleration of the centre of mass at ddq = [nu'; r'], in inertial or base axes.
    """
def center_of_mass_jacobian(model: Model, data: Data, x: State, frame: ComFrame = ComFrame.Inertial) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    J_com (3 x nv): p_com' = J_com [nu; r] (columns: base body twist, joint velocities).
    """
def center_of_mass_velocity(model: Model, data: Data, x: State, frame: ComFrame = ComFrame.Inertial) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[3, 1]"]:
    """
    Velocity of the centre of mass relative to the inertial frame, in inertial or base axes.
    """
def centroidal_derivatives(model: Model, data: Data, x: State, ddq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], rep: TwistRepresentation = TwistRepresentation.Body) -> tuple[typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"], typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"], typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]]:
    """
    (dp_com/dx (3 x 2nv), dh_G/dx (6 x 2nv), dh_G'/dx at ddq (6 x 2nv)), columns ordered as A's state dx = (eta, ds, dt, dr) with the base twist t in `rep` (copies).
    """
def centroidal_momentum(model: Model, data: Data, x: State) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
    """
    h_G = [m p_com'; k_G] in the centroidal frame (origin at the CoM, inertial axes), linear first.
    """
def centroidal_momentum_drift(model: Model, data: Data, x: State) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
    """
    A_G' [nu; r]: h_G' at zero accelerations, centroidal frame.
    """
def centroidal_momentum_matrix(model: Model, data: Data, x: State) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    A_G (6 x nv) with h_G = A_G [nu; r], centroidal frame.
    """
def centroidal_momentum_rate(model: Model, data: Data, x: State, ddq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
    """
    h_G' = A_G ddq + A_G' [nu; r] at ddq = [nu'; r'], centroidal frame.
    """
def constrained_forward_dynamics(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], route: ConstrainedDynamicsRoute = ConstrainedDynamicsRoute.ExactKKT, *, out: typing.Any = None) -> typing.Any:
    """
    Forward dynamics under the constraints: cdata.ddq and cdata.lambda (M ddq + h - tau = J^T lambda, J ddq + gamma = 0). Returns a copy of cdata.ddq. Raises ConstraintError for a rank-deficient J (ExactKKT, Projector).
    """
def constrained_forward_dynamics_derivatives(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], representation: TwistRepresentation = TwistRepresentation.Body, derivative_solve: KktDerivativeSolve = KktDerivativeSolve.Automatic, *, out: typing.Any = None) -> typing.Any:
    """
    Exact derivatives of constrained_forward_dynamics (ExactKKT route) at (x, tau): (d ddq/dx (nv x 2nv), d lambda/dx (m x 2nv), d ddq/d tau (nv x nv), d lambda/d tau (m x nv)). Columns of the x derivatives: delta x = (eta, ds, dt, dr) with H = H0 exp(eta^) and t the base twist in `representation` (held fixed in the eta columns); welded base: (ds, dr). Rows: ddq = [nu' (body acceleration, base frame); r'], lambda stacked in the set's order, each in its constraint's sense; tau = [base wrench (base frame); joint torques]. Also fills cdata.velocity_dx = d(J [nu; r])/dx, cdata.acceleration_dx = d(J ddq + gamma)/dx at the solution ddq (same columns) and cdata.ddq, cdata.lambda, cdata.J, cdata.gamma. `derivative_solve` picks how the KKT systems are solved (KktDerivativeSolve). Raises ConstraintError for a rank-deficient J. Returns copies of (cdata.ddq_dx, cdata.lambda_dx, cdata.ddq_dtau, cdata.lambda_dtau).
    """
def constrained_inverse_dynamics(M: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], J: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], actuation: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], ddq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], force_minus_bias: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> tuple[typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"], typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]]:
    """
    Actuator forces u and constraint forces lambda with actuation u + J^T lambda = M ddq - (tau - h) (least weighted norm when redundant). Returns (u, lambda).
    """
def constraint_kinematics(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State) -> None:
    """
    J, drift, gamma and the errors into cdata.
    """
def constraint_kinematics_derivatives(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State, ddq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], representation: TwistRepresentation = TwistRepresentation.Body, *, out: typing.Any = None) -> typing.Any:
    """
    Derivatives of the constraint kinematics at (x, ddq): (d e/dq (m x nv), d(J [nu; r])/dx (m x 2nv), d(J ddq + gamma)/dx at fixed ddq (m x 2nv), Jdot (m x nv), the exact time derivative of J). Columns of the x derivatives: delta x = (eta, ds, dt, dr) with H = H0 exp(eta^) and t the base twist in `representation` (held fixed in the eta columns); welded base: (ds, dr). d e/dq has the q columns (eta, ds) only (no representation), Jdot J's columns [nu; r]. Rows: each constraint's rows in its sense, stacked in the set's order; ddq = [nu' (body acceleration, base frame); r']. gamma includes the Baumgarte terms (Kd d(J [nu; r])/dx, Kp d e/dx). Jdot [nu; r] is cdata.drift only where the rows are plain time derivatives of J [nu; r] (not body-sense point contacts nor rigid rows, constraint_kinematics.hpp). Also fills cdata.J, drift, gamma and the errors (constraint_kinematics). Returns copies of (cdata.position_error_dx, cdata.velocity_dx, cdata.acceleration_dx, cdata.Jdot).
    """
def coriolis_force(model: Model, data: Data, x: State, *, out: typing.Any = None) -> typing.Any:
    """
    The Coriolis/centrifugal term V(x) = h - G (no gravity, no accelerations). Returns a copy of data.tau.
    """
def coriolis_matrix(model: Model, data: Data, x: State, *, out: typing.Any = None) -> typing.Any:
    """
    C(x) (nv x nv, base first) with C [nu; r] the velocity products and M' - 2C skew-symmetric. A copy of data.coriolis.
    """
@typing.overload
def crba(model: Model, data: Data, x: State, *, out: typing.Any = None) -> typing.Any:
    """
    The mass matrix M(s) (nv x nv, both triangles, base first; the base block in the base frame) at the joint positions of x. Returns a copy of data.M.
    """
@typing.overload
def crba(model: Model, data: Data, s: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], *, out: typing.Any = None) -> typing.Any:
    """
    M(s) from the joint positions s alone (a copy of data.M).
    """
def difference(model: Model, x: State, y: State) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
    """
    y (-) x: the dx with x (+) dx = y (eta = log(H_x^-1 H_y)).
    """
def difference_jacobians(model: Model, x: State, y: State) -> tuple[typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"], typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]]:
    """
    (J_x, J_y) of dx = y (-) x, left-trivialized: base blocks -Jl^-1(eta) and Jr^-1(eta), else -I and I.
    """
def eidamb(model: Model, data: Data, x: State, ddq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], fext: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"] | None = None, *, out: typing.Any = None) -> typing.Any:
    """
    Extended inverse dynamics tau = M(s) ddq + h(x) by EIDAmb (the paper's Table 4): the same quantity as rnea by another route. Returns a copy of data.tau.
    """
def eidamb_derivatives(model: Model, data: Data, x: State, ddq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], representation: TwistRepresentation = TwistRepresentation.Body, fext: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"] | None = None, *, out: typing.Any = None) -> typing.Any:
    """
    The derivatives of tau = ID(x, ddq): (D1, D2, D3, D4) = (dID/d eta (nv x 6, H <- H exp(eta^), the base twist in `representation` held fixed), dID/ds (nv x n), dID/d(base twist in `representation`) (nv x 6), dID/dr (nv x n)); welded base: D1, D3 are nv x 0. Also leaves data.tau and data.M. Copies of data.D1..D4.
    """
def figure4_model() -> Model:
    """
    The paper's Figure-4-like branched moving-base robot (7 joints R, P, H, H, R, P, R).
    """
def finite_checks_enabled() -> bool:
    """
    See set_finite_checks.
    """
def forward_dynamics_llt(model: Model, data: Data, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], fext: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"] | None = None) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
    """
    Reference forward dynamics: M from inverse dynamics, h from bias_force, dense LLT (a new array).
    """
def forward_kinematics(model: Model, data: Data, x: State) -> None:
    """
    forward_poses then forward_velocity: data.H_parent, data.H_world, data.v for every body.
    """
def forward_poses(model: Model, data: Data, x: State) -> None:
    """
    Poses only: data.H_parent (^{lambda(i)}H_i) and data.H_world (^A H_i).
    """
def forward_velocity(model: Model, data: Data, x: State) -> None:
    """
    Body twists data.v[i] = ^i v_{A,i} (body frame) at x. Computes the poses at x too (as forward_kinematics): C++'s forward_velocity reuses data.H_parent, which may hold another state's.
    """
@typing.overload
def frame_acceleration_bias(model: Model, data: Data, x: State, frame_id: typing.SupportsInt | typing.SupportsIndex | str, representation: TwistRepresentation = TwistRepresentation.Body) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
    """
    J' q' of model frame frame_id (its index or its name) in `representation`: d/dt v_F = J q'' + J' q' (mixed includes the [R (omega x v); 0] term).
    """
@typing.overload
def frame_acceleration_bias(model: Model, data: Data, x: State, body: typing.SupportsInt | typing.SupportsIndex, placement: SE3, representation: TwistRepresentation = TwistRepresentation.Body) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
    """
    J' q' of the frame at ^{body}H_F = placement in `representation`.
    """
@typing.overload
def frame_jacobian(model: Model, data: Data, x: State, frame_id: typing.SupportsInt | typing.SupportsIndex | str, representation: TwistRepresentation = TwistRepresentation.Body) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    Jacobian J (6 x nv, a new array) of the frame (frame_id: a model frame's index or name) with v_F = J [nu; r] in `representation`: Inertial ^A v_{A,F} (columns ^A X_0 for the base, ^A X_j Gamma_j for joints on the path), Body ^F v_{A,F} (^F X_A times those), Mixed [^A o_F'; ^A omega_F] ([I, -o_F^; 0, I] times those). Columns off the path are zero.
    """
@typing.overload
def frame_jacobian(model: Model, data: Data, x: State, body: typing.SupportsInt | typing.SupportsIndex, placement: SE3, representation: TwistRepresentation = TwistRepresentation.Body) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    Jacobian J (6 x nv, a new array) of the frame (frame_id: a model frame's index or name) with v_F = J [nu; r] in `representation`: Inertial ^A v_{A,F} (columns ^A X_0 for the base, ^A X_j Gamma_j for joints on the path), Body ^F v_{A,F} (^F X_A times those), Mixed [^A o_F'; ^A omega_F] ([I, -o_F^; 0, I] times those). Columns off the path are zero.
    """
@typing.overload
def frame_pose(model: Model, data: Data, x: State, frame: typing.SupportsInt | typing.SupportsIndex | str) -> SE3:
    """
    ^A H_F at x of model frame `frame` (its index, or its name: KeyError naming the closest names when absent). Computes the poses of the frame's support chain only, O(depth), into data. A new SE3.
    """
@typing.overload
def frame_pose(model: Model, data: Data, x: State, body: typing.SupportsInt | typing.SupportsIndex, placement: SE3) -> SE3:
    """
    ^A H_F at x of the frame at ^{body}H_F = placement (the poses of body's support chain only, into data). A new SE3.
    """
@typing.overload
def frame_pose(model: Model, data: Data, frame: typing.SupportsInt | typing.SupportsIndex | str) -> None:
    """
    Refused (InvalidArgument): frame_pose takes the state x.
    """
@typing.overload
def frame_pose(model: Model, data: Data, body: typing.SupportsInt | typing.SupportsIndex, placement: SE3) -> None:
    """
    Refused (InvalidArgument): frame_pose takes the state x.
    """
@typing.overload
def frame_velocity(model: Model, data: Data, x: State, frame_id: typing.SupportsInt | typing.SupportsIndex | str, representation: TwistRepresentation = TwistRepresentation.Body) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
    """
    The twist of model frame frame_id (its index or its name) in `representation` (= J q', O(depth)).
    """
@typing.overload
def frame_velocity(model: Model, data: Data, x: State, body: typing.SupportsInt | typing.SupportsIndex, placement: SE3, representation: TwistRepresentation = TwistRepresentation.Body) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 1]"]:
    """
    The twist of the frame at ^{body}H_F = placement in `representation`.
    """
def gravity_force(model: Model, data: Data, x: State, *, out: typing.Any = None) -> typing.Any:
    """
    The gravity term G(H, s) alone (zero velocities and accelerations). Returns a copy of data.tau.
    """
@typing.overload
def immamb(model: Model, data: Data, x: State, *, out: typing.Any = None) -> typing.Any:
    """
    The inverse mass matrix M(s)^-1 (both triangles) by IMMAmb (Table 9, around the base frame). Returns a copy of data.Minv.
    """
@typing.overload
def immamb(model: Model, data: Data, s: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], *, out: typing.Any = None) -> typing.Any:
    """
    M(s)^-1 from the joint positions s (a copy of data.Minv).
    """
def impulse_dynamics(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State, restitution: typing.SupportsFloat | typing.SupportsIndex = 0.0, *, out: typing.Any = None) -> typing.Any:
    """
    Impact at the constraints: cdata.v_after with J v+ = -e J v-, cdata.impulse. Returns a copy of cdata.v_after.
    """
def impulse_dynamics_derivatives(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State, restitution: typing.SupportsFloat | typing.SupportsIndex = 0.0, representation: TwistRepresentation = TwistRepresentation.Body, *, out: typing.Any = None) -> typing.Any:
    """
    Exact derivatives of impulse_dynamics (ExactKKT route) at x with restitution in [0, 1] (on the contact rows): (d v_after/dx (nv x 2nv), d impulse/dx (m x 2nv)). Columns: delta x = (eta, ds, dt, dr) of the pre-impact state with t the base twist in `representation` (held fixed in the eta columns); welded base: (ds, dr). Rows: v_after = [nu+ (body base twist); r+]; impulses stacked in the set's order, each in its constraint's sense. Also fills cdata.v_after and cdata.impulse (impulse_dynamics). Raises ConstraintError for a rank-deficient J. Returns copies of (cdata.v_after_dx, cdata.impulse_dx).
    """
def integrate(model: Model, x: State, dx: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> State:
    """
    x (+) dx = (H exp(eta^), s + ds, nu + dnu, r + dr); dx = (eta, ds, dnu, dr) ((ds, dr) when welded).
    """
def integrate_jacobians(model: Model, dx: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> tuple[typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"], typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]]:
    """
    (J_x, J_dx) of y = x (+) dx, left-trivialized: base blocks Ad(exp(eta)^-1) and Jr(eta), else identity.
    """
def kinetic_energy(model: Model, data: Data, x: State) -> float:
    """
    Kinetic energy of the bodies (armature not included).
    """
@typing.overload
def linearize(model: Model, data: Data, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], options: LinearizationOptions = ..., fext: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"] | None = None, *, out: typing.Any = None) -> typing.Any:
    """
    Continuous-time delta x' = A delta x + B delta tau at (x, tau), delta x = (eta, ds, dt, dr) with H = H0 exp(eta^) and t the base twist in options.representation; A is 2nv x 2nv, B 2nv x nv. Also leaves data.ddq, data.M, data.Minv and D1..D4. Returns copies of (data.A, data.B).
    """
@typing.overload
def linearize(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], options: LinearizationOptions = ..., derivative_solve: KktDerivativeSolve = KktDerivativeSolve.Automatic, *, out: typing.Any = None) -> typing.Any:
    """
    Constrained form: delta x' = A delta x + B delta tau of constrained_forward_dynamics (ExactKKT) at (x, tau), delta x = (eta, ds, dt, dr) in options.representation as the unconstrained linearize; the acceleration rows (the last nv) are cdata.ddq_dx and cdata.ddq_dtau, the kinematic rows unchanged. Also leaves data.ddq = cdata.ddq and everything constrained_forward_dynamics_derivatives fills (options.minv is not used). Returns copies of (data.A, data.B).
    """
@typing.overload
def linearize_actuated(model: Model, data: Data, x: State, actuation: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], u: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], options: LinearizationOptions = ..., fext: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"] | None = None, *, out: typing.Any = None) -> typing.Any:
    """
    linearize for tau = S u with actuation matrix S (nv x m): returns copies of (data.A, B S (2nv x m)).
    """
@typing.overload
def linearize_actuated(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State, actuation: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], u: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], options: LinearizationOptions = ..., derivative_solve: KktDerivativeSolve = KktDerivativeSolve.Automatic, *, out: typing.Any = None) -> typing.Any:
    """
    Constrained linearize for tau = S u with actuation matrix S (nv x k): returns copies of (data.A, B S (2nv x k)).
    """
@typing.overload
def linearize_discrete(model: Model, data: Data, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], dt: typing.SupportsFloat | typing.SupportsIndex, options: LinearizationOptions = ..., fext: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"] | None = None, *, out: typing.Any = None) -> typing.Any:
    """
    Exact Jacobians of one semi_implicit_euler_step: delta x+ = A delta x + B delta tau, delta x in options.representation at both ends. Returns copies of (data.A, data.B).
    """
@typing.overload
def linearize_discrete(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], dt: typing.SupportsFloat | typing.SupportsIndex, options: LinearizationOptions = ..., derivative_solve: KktDerivativeSolve = KktDerivativeSolve.Automatic, *, out: typing.Any = None) -> typing.Any:
    """
    Constrained form: exact Jacobians of the constrained semi_implicit_euler_step (ExactKKT), delta x+ = A delta x + B delta tau, delta x in options.representation at both ends. Also fills cdata's derivatives. Returns copies of (data.A, data.B).
    """
def linearize_discrete_actuated(model: Model, data: Data, x: State, actuation: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], u: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], dt: typing.SupportsFloat | typing.SupportsIndex, rep: TwistRepresentation = TwistRepresentation.Body, *, out: typing.Any = None) -> typing.Any:
    """
    Jacobians of one semi-implicit Euler step for tau = actuation u: copies of (data.A, B actuation).
    """
def linearize_reduced(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], reduced: ReducedLinearization, options: LinearizationOptions = ..., derivative_solve: KktDerivativeSolve = KktDerivativeSolve.Automatic) -> None:
    """
    The constrained linearize at (x, tau) (data.A, data.B, cdata's derivatives) and its restriction to the tangent space of the constraint manifold into `reduced` (a ReducedLinearization of this model and set): basis, A = basis^T data.A basis, B = basis^T data.B, rank (in place; returns None). At an equilibrium on the manifold data.A basis = basis A exactly.
    """
def load_mjcf_file(path: str, options: MjcfOptions = ...) -> Model:
    """
    Loads a robot from an MJCF (MuJoCo XML) file; <include> paths relative to its folder. Raises ModelError (file and line) on anything it cannot represent.
    """
def load_mjcf_robot_file(path: str, options: MjcfOptions = ...) -> MjcfRobot:
    """
    Loads an MJCF file's tree and its <equality> constraints (MjcfRobot).
    """
def load_mjcf_robot_string(xml: str, options: MjcfOptions = ...) -> MjcfRobot:
    """
    Loads MJCF text's tree and its <equality> constraints (MjcfRobot).
    """
def load_mjcf_string(xml: str, options: MjcfOptions = ...) -> Model:
    """
    Loads a robot from MJCF text. Raises ModelError (what and line) on anything it cannot represent.
    """
def load_urdf_file(path: str, options: UrdfOptions = ...) -> Model:
    """
    Loads a robot from a URDF file; the root link is the base (moving unless options.weld_base). Raises ModelError (message starts with the path) on anything it cannot represent exactly.
    """
def load_urdf_string(xml: str, options: UrdfOptions = ...) -> Model:
    """
    Loads a robot from URDF text. Raises ModelError (what and where) on anything it cannot represent.
    """
def lock_joints(model: Model, names: collections.abc.Sequence[str], positions: collections.abc.Sequence[typing.SupportsFloat | typing.SupportsIndex]) -> Model:
    """
    A new Model with the named joints welded at the given positions (frames kept).
    """
def ltdl_factorize(model: Model, data: Data, *, out: typing.Any = None) -> typing.Any:
    """
    M = L^T D L of data.M (run crba first): D on the diagonal, L strictly below. Returns a copy of data.ltdl.
    """
def ltdl_inverse(model: Model, data: Data, *, out: typing.Any = None) -> typing.Any:
    """
    M^-1 (both triangles) from the factors of ltdl_factorize. A copy of data.Minv.
    """
def ltdl_solve(model: Model, data: Data, y: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
    """
    M^-1 y from the factors of ltdl_factorize (a new array).
    """
def mass_matrix_from_inverse_dynamics(model: Model, data: Data, x: State) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    Reference M(s) column by column from inverse dynamics (a new array).
    """
def mimic_couplings(model: Model) -> list[ConstraintSpec]:
    """
    The model's URDF <mimic> relations as coupling specs.
    """
def model_diagnostics(model: Model) -> list:
    """
    The loader's and builder's named diagnostics (docs/loading.md): dicts with link, kind, message, magnitude.
    """
def neutral(model: Model) -> State:
    """
    The neutral state.
    """
def potential_energy(model: Model, data: Data, x: State) -> float:
    """
    Potential energy -m g . p_com (inertial frame).
    """
def project_configuration(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State) -> int:
    """
    Moves x's configuration onto the constraint manifold (Newton on the group); returns the iterations.
    """
def project_velocity(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State) -> None:
    """
    Projects x's velocity onto the constraints' tangent space (J [nu; r] = v*), in place.
    """
def random_model(num_joints: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 1, options: RandomModelOptions = ...) -> Model:
    """
    A random tree with valid random inertias, from std::mt19937(seed) (the same model C++ gets).
    """
def random_state(model: Model, seed: typing.SupportsInt | typing.SupportsIndex = 7) -> State:
    """
    A random state from std::mt19937(seed): attitude uniform on SO(3), position in [-1, 1]^3, joints within limits (else [-pi, pi]), velocities in [-1, 1]. The same state C++'s random_state gives.
    """
def rnea(model: Model, data: Data, x: State, ddq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], fext: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"] | None = None, *, out: typing.Any = None) -> typing.Any:
    """
    Inverse dynamics tau = M(s) ddq + h(x) - (external wrenches) by recursive Newton-Euler. ddq = [nu'; r'] (body acceleration of the base, base frame); tau = [base wrench in the base frame; joint torques]. fext: None or (num_bodies x 6), row i the wrench on body i in its frame. Returns a copy of data.tau.
    """
@typing.overload
def semi_implicit_euler_step(model: Model, data: Data, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], dt: typing.SupportsFloat | typing.SupportsIndex, fext: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"] | None = None) -> State:
    """
    One Lie-group semi-implicit Euler step: nu+ = nu + dt nu', r+ = r + dt r', s+ = s + dt r+, H+ = H exp(dt nu+^), with (nu', r') = FD(x, tau). Returns a new State.
    """
@typing.overload
def semi_implicit_euler_step(model: Model, data: Data, set: ConstraintSet, cdata: ConstraintData, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], dt: typing.SupportsFloat | typing.SupportsIndex, route: ConstrainedDynamicsRoute = ConstrainedDynamicsRoute.ExactKKT) -> State:
    """
    Constrained form: one semi-implicit Euler step with (nu', r') = cdata.ddq of constrained_forward_dynamics (cdata.lambda its forces); no projection onto the constraint manifold (Baumgarte gains, or project_configuration / project_velocity between steps). Returns a new State.
    """
def set_finite_checks(enabled: bool) -> None:
    """
    Whether kernels refuse a state or input vector holding NaN or infinity with InvalidArgument (default True). Off saves a pass over the inputs per call (about the cost of reading them); a non-finite input then gives non-finite results or misleading errors.
    """
def step(model: Model, workspace: ContactStepWorkspace, x: State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], dt: typing.SupportsFloat | typing.SupportsIndex, settings: ContactStepSettings = ...) -> tuple[State, ContactStepResult]:
    """
    One time step of length dt with the frictional unilateral point contacts of `workspace` (contact_step, docs/frictional-contacts.md): v_free = nu + dt M^-1 (tau - h), lambda from the frictional contact problem, nu+ = v_free + M^-1 J^T lambda, (H, s)+ = (H, s) (+) dt nu+. Returns (next State, ContactStepResult). InvalidArgument for dt not finite and > 0, a non-finite state or tau, wrong sizes, settings out of range, a workspace built for another model. An unconverged solve is reported (result.converged False), not raised.
    """
def tangent_size(model: Model) -> int:
    """
    2 nv.
    """
def with_armature(model: Model, armature: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> Model:
    """
    A new Model equal to model but for the joints' armature (rotor inertia added to M's diagonal; a URDF has none): one entry per joint velocity coordinate, liedyn's order (nv_joints entries); a multi-DoF joint's entries equal. InvalidArgument for another size or unequal entries, ModelError for a negative or non-finite one.
    """
__version__: str = '0.1.0'
_pybind11_version: str = '3.1.0'
rotation_tolerance: float = 1e-06
