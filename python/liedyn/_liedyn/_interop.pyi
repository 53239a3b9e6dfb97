"""
States, velocities, accelerations, generalized forces, mass matrices and dynamics Jacobians to and from the conventions of Pinocchio, MuJoCo, Drake, RBDL and iDynTree (docs/interop.md). liedyn's own: x = (H, s, nu, r), nu the base BODY twist [v; omega], vectors base first in liedyn's joint order. Their generalized velocity is v_L = T [nu; r] with T = blockdiag(T_b(R), P) orthogonal: Pinocchio T_b = I (q = [p; qx qy qz qw; s]), MuJoCo and RBDL blockdiag(R, I), iDynTree blockdiag(R, R), Drake [0, R; R, 0]. All functions return new arrays.
"""
from __future__ import annotations
import collections.abc
import liedyn._liedyn
import numpy
import numpy.typing
import typing
__all__: list[str] = ['JointPermutation', 'Library', 'PinocchioView', 'acceleration_from', 'acceleration_to', 'base_velocity_matrix', 'configuration_from', 'configuration_size', 'configuration_to', 'force_from', 'force_to', 'forward_dynamics_jacobians_to', 'inverse_dynamics_jacobians_to', 'linearization_from_pinocchio', 'matrix_from', 'matrix_to', 'mujoco_qpos', 'pinocchio_urdf_joint_order', 'retract', 'state_from', 'state_from_mujoco', 'velocity_from', 'velocity_matrix', 'velocity_to']
class Library:
    """
    A library whose floating-base convention is built in (docs/interop.md).
    
    Members:
    
      Pinocchio
    
      MuJoCo
    
      Drake
    
      RBDL
    
      iDynTree
    """
    Drake: typing.ClassVar[Library]
    MuJoCo: typing.ClassVar[Library]
    Pinocchio: typing.ClassVar[Library]
    RBDL: typing.ClassVar[Library]
    __members__: typing.ClassVar[dict[str, Library]]
    iDynTree: typing.ClassVar[Library]
    @typing.overload
    def __eq__(self, other: Library) -> bool:
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
    def __ne__(self, other: Library) -> bool:
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
class JointPermutation:
    """
    A bijection between liedyn's joint order and another library's order of the same joints (a multi-DoF joint moves as one block of its coordinates). JointPermutation() is the identity for any number of joints.
    """
    @staticmethod
    def from_names(model: liedyn._liedyn.Model, names: collections.abc.Sequence[str]) -> JointPermutation:
        """
        From the other library's joint names in its order, without its floating-base joint (Pinocchio: model.names[2:]). InvalidArgument naming an unknown, repeated or missing joint.
        """
    def __init__(self) -> None:
        """
        The identity.
        """
    def __repr__(self) -> str:
        ...
    def is_identity(self) -> bool:
        ...
    def theirs_of_ours(self, k: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        Position in their list of liedyn's joint k (0-based).
        """
    @property
    def size(self) -> int:
        """
        Number of joints it was built for; -1 for the identity.
        """
class PinocchioView:
    """
    The kernels in Pinocchio's coordinates: q = [p; qx qy qz qw; s], v, a, tau = [base (Pinocchio's free flyer: the body twist, its derivative, the body wrench); joints], the joints in Pinocchio's order. Converts in C++ inside each call. Holds scratch: one view per thread, as a Data. docs/interop.md, 'Pinocchio's coordinates as input'.
    """
    @staticmethod
    def from_pinocchio(model: liedyn._liedyn.Model, pin_model: typing.Any) -> PinocchioView:
        """
        The view of model in the joint order of pin_model (a pinocchio.Model of the same robot: its names after 'universe' and, for a moving base, its free flyer).
        """
    def __init__(self, model: liedyn._liedyn.Model, perm: JointPermutation | None) -> None:
        """
        A view of model in Pinocchio's coordinates, its joints in the order perm gives (required: JointPermutation() states that Pinocchio's order is liedyn's).
        """
    def __repr__(self) -> str:
        ...
    def aba(self, data: liedyn._liedyn.Data, q: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], v: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], *, out: typing.Any = None) -> typing.Any:
        """
        Pinocchio's aba(model, data, q, v, tau): its a (free flyer: the body acceleration), by liedyn's articulated-body algorithm.
        """
    def aba_derivatives(self, data: liedyn._liedyn.Data, q: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], v: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray, numpy.ndarray]:
        """
        Pinocchio's computeABADerivatives(model, data, q, v, tau): (a, ddq_dq, ddq_dv, ddq_dtau), each Jacobian nv x nv in Pinocchio's coordinates (its configuration tangent: the free flyer's q + dq = M exp6(dq), liedyn's eta), from liedyn's exact Body linearization.
        """
    def batch_states(self, Q: typing.Any, V: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
        """
        Batch rows (N, batch_state_size(model)) from Pinocchio's configurations Q (N, nq) and velocities V (N, nv), row i from (Q[i], V[i]), converted in C++.
        """
    def configuration(self, x: liedyn._liedyn.State) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
        """
        Pinocchio's q of the State x (the base quaternion with w >= 0).
        """
    def constrained_forward_dynamics(self, data: liedyn._liedyn.Data, set: liedyn._liedyn.ConstraintSet, cdata: liedyn._liedyn.ConstraintData, q: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], v: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], *, out: typing.Any = None) -> typing.Any:
        """
        Forward dynamics under the constraint set (liedyn's exact KKT route), in Pinocchio's coordinates: its a; cdata.lambda in each constraint's sense (a rigid or point contact's LOCAL = Body, LOCAL_WORLD_ALIGNED = Mixed, as Pinocchio's constraintDynamics).
        """
    def rnea(self, data: liedyn._liedyn.Data, q: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], v: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], a: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], *, out: typing.Any = None) -> typing.Any:
        """
        Pinocchio's rnea(model, data, q, v, a): its tau (free flyer: the body wrench), by liedyn's recursive Newton-Euler algorithm.
        """
    def state(self, q: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], v: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> liedyn._liedyn.State:
        """
        liedyn's State of Pinocchio's (q, v) (a new State). Every quaternion of q must be of unit norm within liedyn.rotation_tolerance.
        """
    @property
    def nq(self) -> int:
        """
        Size of Pinocchio's q.
        """
    @property
    def nv(self) -> int:
        """
        Size of Pinocchio's v, a and tau.
        """
def acceleration_from(library: Library, model: liedyn._liedyn.Model, x: liedyn._liedyn.State, a: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], perm: JointPermutation | None = None) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
    """
    liedyn's ddq = [nu'; r'] from their generalized acceleration a at the state x. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def acceleration_to(library: Library, model: liedyn._liedyn.Model, x: liedyn._liedyn.State, ddq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], perm: JointPermutation | None = None) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
    """
    Their generalized acceleration, the time derivative of their velocity coordinates (MuJoCo's qacc: p'' for the linear part), from ddq = [nu'; r'] at the state x. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def base_velocity_matrix(library: Library, R: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[3, 3]"]) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[6, 6]"]:
    """
    T_b(R) (6 x 6, orthogonal), their base velocity = T_b nu, R = ^A R_0.
    """
def configuration_from(library: Library, model: liedyn._liedyn.Model, q: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], perm: JointPermutation | None = None) -> liedyn._liedyn.State:
    """
    The State (H, s) at rest from their configuration vector q (the quaternion is normalized; a zero one raises InvalidArgument). perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def configuration_size(library: Library, model: liedyn._liedyn.Model) -> int:
    """
    Size of their configuration vector q: 7 + nq_joints (moving base) or nq_joints. InvalidArgument for iDynTree (no q vector).
    """
def configuration_to(library: Library, model: liedyn._liedyn.Model, x: liedyn._liedyn.State, perm: JointPermutation | None = None) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
    """
    Their configuration vector q of the state x, e.g. Pinocchio [p; qx qy qz qw; s], MuJoCo [p; qw qx qy qz; s]; the quaternion of ^A R_0 with w >= 0. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def force_from(library: Library, model: liedyn._liedyn.Model, H: liedyn._liedyn.SE3, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], perm: JointPermutation | None = None) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
    """
    liedyn's tau (base wrench in the base frame, then joints) from their generalized force: T^T tau_L. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def force_to(library: Library, model: liedyn._liedyn.Model, H: liedyn._liedyn.SE3, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], perm: JointPermutation | None = None) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
    """
    Their generalized force T tau from liedyn's tau = [base wrench [force; moment] in the base frame; joint torques], at the base pose H. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def forward_dynamics_jacobians_to(library: Library, model: liedyn._liedyn.Model, x: liedyn._liedyn.State, tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], ddq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], A: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], Minv: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], perm: JointPermutation | None = None) -> tuple[typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"], typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"], typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]]:
    """
    (dddq_dq, dddq_dv, dddq_dtau), each nv x nv: the Jacobians of their forward dynamics in their coordinates (Pinocchio's computeABADerivatives), from liedyn's continuous Body linearization at (x, tau): A, _ = linearize(model, data, x, tau) with the Body representation, Minv = data.Minv, ddq = data.ddq. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def inverse_dynamics_jacobians_to(library: Library, model: liedyn._liedyn.Model, x: liedyn._liedyn.State, ddq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], tau: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], D1: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], D2: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], D3: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], D4: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], M: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], perm: JointPermutation | None = None) -> tuple[typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"], typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"], typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]]:
    """
    (dtau_dq, dtau_dv, dtau_da), each nv x nv: the Jacobians of their inverse dynamics in their coordinates (Pinocchio's computeRNEADerivatives; MuJoCo's mjd_inverseFD gives their transposes), from liedyn's Body-representation derivatives at (x, ddq): D1..D4 = eidamb_derivatives(model, data, x, ddq, TwistRepresentation.Body), M = data.M, tau = data.tau. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def linearization_from_pinocchio(model: liedyn._liedyn.Model, x: liedyn._liedyn.State, ddq_dq: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], ddq_dv: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], Minv: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], perm: JointPermutation | None = None) -> tuple[typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"], typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]]:
    """
    (A, B): liedyn's continuous Body linearization (2nv x 2nv, 2nv x nv) from Pinocchio's computeABADerivatives outputs ddq_dq, ddq_dv, Minv (pass Minv symmetrized: Pinocchio fills its upper triangle). perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def matrix_from(library: Library, model: liedyn._liedyn.Model, H: liedyn._liedyn.SE3, X: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], perm: JointPermutation | None = None) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    T^T X_L T: liedyn's M (or M^-1) from theirs. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def matrix_to(library: Library, model: liedyn._liedyn.Model, H: liedyn._liedyn.SE3, X: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, n]"], perm: JointPermutation | None = None) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    T X T^T (nv x nv): their M from liedyn's M, their M^-1 from M^-1. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def mujoco_qpos(model: liedyn._liedyn.Model, qpos0: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], x: liedyn._liedyn.State) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
    """
    MuJoCo's qpos of the state x of an MJCF model (base quaternion w first, w >= 0); its qvel is velocity_to(Library.MuJoCo, model, x).
    """
def pinocchio_urdf_joint_order(model: liedyn._liedyn.Model) -> list[str]:
    """
    The joint names of model in the order Pinocchio lists them when it loads the same URDF (depth-first, a link's children by joint name; liedyn keeps the file's order): the order a converter called with perm=None checks for Library.Pinocchio.
    """
def retract(library: Library, H: liedyn._liedyn.SE3, delta: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[6, 1]"]) -> liedyn._liedyn.SE3:
    """
    The base pose moved along their base position tangent delta (6, their velocity's order): Pinocchio H exp(delta^); MuJoCo, RBDL p + dp (world), R exp(dtheta^); iDynTree, Drake p + dp, exp(dtheta^) R. What their q-derivatives' base columns mean.
    """
def state_from(library: Library, model: liedyn._liedyn.Model, q: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], v: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], perm: JointPermutation | None = None) -> liedyn._liedyn.State:
    """
    The State x = (H, s, nu, r) from their configuration q and velocity v (Pinocchio's v = [nu; r] up to the joint order). perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def state_from_mujoco(model: liedyn._liedyn.Model, qpos0: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], qpos: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], qvel: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"]) -> liedyn._liedyn.State:
    """
    The State of an MJCF model (load_mjcf_robot_file) from MuJoCo's qpos and qvel; qpos0 = MjcfRobot.qpos0 (hinge and slide joints: s = qpos - qpos0).
    """
def velocity_from(library: Library, model: liedyn._liedyn.Model, H: liedyn._liedyn.SE3, v: typing.Annotated[numpy.typing.ArrayLike, numpy.float64, "[m, 1]"], perm: JointPermutation | None = None) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
    """
    liedyn's generalized velocity [nu; r] (size nv) from theirs, at the base pose H = ^A H_0. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def velocity_matrix(library: Library, model: liedyn._liedyn.Model, H: liedyn._liedyn.SE3, perm: JointPermutation | None = None) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, n]"]:
    """
    T = blockdiag(T_b(R), P) (nv x nv), their velocity = T [nu; r]. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
def velocity_to(library: Library, model: liedyn._liedyn.Model, x: liedyn._liedyn.State, perm: JointPermutation | None = None) -> typing.Annotated[numpy.typing.NDArray[numpy.float64], "[m, 1]"]:
    """
    Their generalized velocity v_L = [T_b nu; P r] (size nv) of the state x. perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it gives the same URDF differs (the error names the first joint that differs).
    """
