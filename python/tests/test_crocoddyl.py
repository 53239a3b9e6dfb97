"""liedyn.crocoddyl from Python: the bridge's objects inside Crocoddyl's own Python classes and
solvers (docs/crocoddyl.md).

* Against Crocoddyl's Pinocchio-backed models, live in this interpreter (Crocoddyl 3.2.1 and
  Pinocchio 4.0.0, pinned by the `crocoddyl` extra), on solo12 after the documented state
  conversion: the state's operations and Jacobians, and calc's and calcDiff's outputs of the free,
  contact (four point contacts; one rigid contact) and impulse models with their residuals agree
  to 1e-9 relative, the issue's bound (both sides are exact; what differs is the
  rounding of two O(n) recursions, ~1e-13 relative, and the conversion).
* Crocoddyl's arm manipulation example solved by FDDP from Python on the bridge against the
  Pinocchio-backed solve stored in tests/data/crocoddyl/talos_arm_fddp.txt: iterations equal
  (+-1), cost, xs and us within 1e-6 relative (the issue's bounds); and the same solve with the
  problem's nodes on two threads, bit for bit (each node's data is its own).
* The errors a user meets: a wrong model object, wrong sizes, an unknown frame, another model's
  data.

Skipped where liedyn was built without its Crocoddyl module or Crocoddyl is not installed,
unless LIEDYN_REQUIRE_CROCODDYL=1 (scripts/test-wheel.sh), where that fails.
"""
import os
import sys

import numpy as np
import pytest

import liedyn
from conftest import DATA_DIR, SOLO12

if os.environ.get("LIEDYN_REQUIRE_CROCODDYL") == "1":
    import crocoddyl
    import pinocchio

    import liedyn.crocoddyl as lc
else:
    crocoddyl = pytest.importorskip("crocoddyl")
    pinocchio = pytest.importorskip("pinocchio")
    lc = pytest.importorskip("liedyn.crocoddyl")

# The reader of scripts/generate_crocoddyl_reference.py's files, one copy: the walking example's.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
from crocoddyl_walk import read_reference  # noqa: E402

FEET = ["FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"]
TOL = 1e-9  # the agreement bound (this file's docstring)


def relative_error(ours, theirs):
    ours, theirs = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
    return float(np.max(np.abs(ours - theirs), initial=0.0) / max(1.0, np.max(np.abs(theirs), initial=0.0)))


class Solo:
    """solo12 on both sides: liedyn's StateLiedyn and Crocoddyl's StateMultibody, and the maps
    between their coordinates (docs/crocoddyl.md, "Conversion")."""

    def __init__(self):
        self.model = liedyn.load_urdf_file(SOLO12)
        self.state = lc.StateLiedyn(self.model)
        self.pin_model = pinocchio.buildModelFromUrdf(SOLO12, pinocchio.JointModelFreeFlyer())
        self.names = list(self.pin_model.names)[2:]
        self.pin_state = crocoddyl.StateMultibody(self.pin_model)
        self.nv = self.model.nv
        self.nu = self.nv - 6
        self.T = self.state.tangent_permutation(self.names)  # dx_pin = T dx
        self.P = self.T[: self.nv, : self.nv]  # v_pin = P v
        self.Pu = self.P[6:, 6:]  # u_pin = Pu u

    def x(self, seed):
        dx = np.random.default_rng(seed).uniform(-1.0, 1.0, 2 * self.nv)
        x = self.state.integrate(self.state.zero(), dx)
        return x, self.state.to_pinocchio(x, self.names)

    def frame(self, name):
        return self.pin_model.getFrameId(name)


@pytest.fixture(scope="module")
def solo():
    return Solo()


def test_state_equals_crocoddyls(solo):
    """diff, integrate, Jdiff, Jintegrate and JintegrateTransport against StateMultibody's,
    through dx_pin = T dx and J_pin = T J T^T (docs/crocoddyl.md, "Layout of x and dx")."""
    s = solo
    for seed in range(10):
        (x0, x0_pin), (x1, x1_pin) = s.x(seed), s.x(50 + seed)
        dx = np.random.default_rng(200 + seed).uniform(-1.0, 1.0, 2 * s.nv)
        assert relative_error(s.T @ s.state.diff(x0, x1), s.pin_state.diff(x0_pin, x1_pin)) < TOL
        ours = s.state.to_pinocchio(s.state.integrate(x0, dx), s.names)
        assert relative_error(ours, s.pin_state.integrate(x0_pin, s.T @ dx)) < TOL
        for mine, theirs in zip(s.state.Jdiff(x0, x1), s.pin_state.Jdiff(x0_pin, x1_pin)):
            assert relative_error(s.T @ mine @ s.T.T, theirs) < TOL
        for mine, theirs in zip(s.state.Jintegrate(x0, dx), s.pin_state.Jintegrate(x0_pin, s.T @ dx)):
            assert relative_error(s.T @ mine @ s.T.T, theirs) < TOL
        (second,) = s.state.Jdiff(x0, x1, crocoddyl.Jcomponent.second)
        assert np.array_equal(second, s.state.Jdiff(x0, x1)[1])
        J = np.random.default_rng(300 + seed).uniform(-1.0, 1.0, (2 * s.nv, 5))
        J_pin, J_before = s.T @ J, J.copy()
        s.state.JintegrateTransport(x0, dx, J, crocoddyl.Jcomponent.first)  # in place
        assert np.max(np.abs(J - J_before)) > 1e-3  # the base rows moved
        s.pin_state.JintegrateTransport(x0_pin, s.T @ dx, J_pin, crocoddyl.Jcomponent.first)
        assert relative_error(s.T @ J, J_pin) < TOL


COM_TARGET = np.array([0.1, -0.05, 0.3])


def both_cost_sums(s, nu, x_ref, x_ref_pin, terms):
    """The same costs on each side, those named in `terms`: state and control regularization
    ("x", "u"), the CoM ("com"), a foot's translation ("foot"), and on a contact node a friction
    cone and a contact force ("forces")."""
    ours, theirs = crocoddyl.CostModelSum(s.state, nu), crocoddyl.CostModelSum(s.pin_state, nu)
    ours.addCost("x", crocoddyl.CostModelResidual(s.state, lc.ResidualModelStateLiedyn(s.state, x_ref, nu)), 1e-1)
    theirs.addCost("x", crocoddyl.CostModelResidual(s.pin_state, crocoddyl.ResidualModelState(s.pin_state, x_ref_pin, nu)), 1e-1)
    if nu > 0:
        ours.addCost("u", crocoddyl.CostModelResidual(s.state, crocoddyl.ResidualModelControl(s.state, nu)), 1e-3)
        theirs.addCost("u", crocoddyl.CostModelResidual(s.pin_state, crocoddyl.ResidualModelControl(s.pin_state, nu)), 1e-3)
    if "com" in terms:
        com = COM_TARGET
        ours.addCost("com", crocoddyl.CostModelResidual(s.state, lc.ResidualModelCoMPositionLiedyn(s.state, com, nu)), 10.0)
        theirs.addCost("com", crocoddyl.CostModelResidual(s.pin_state, crocoddyl.ResidualModelCoMPosition(s.pin_state, com, nu)), 10.0)
    target = np.array([0.2, 0.1, 0.05])
    ours.addCost("foot", crocoddyl.CostModelResidual(
        s.state, lc.ResidualModelFrameTranslationLiedyn(s.state, "HR_FOOT", target, nu)), 100.0)
    theirs.addCost("foot", crocoddyl.CostModelResidual(
        s.pin_state, crocoddyl.ResidualModelFrameTranslation(s.pin_state, s.frame("HR_FOOT"), target, nu)), 100.0)
    if "forces" in terms:
        cone = crocoddyl.FrictionCone(np.eye(3), 0.7, 4, False)
        bounds = crocoddyl.ActivationBounds(cone.lb, cone.ub)
        ours.addCost("cone", crocoddyl.CostModelResidual(
            s.state, crocoddyl.ActivationModelQuadraticBarrier(bounds),
            lc.ResidualModelContactFrictionConeLiedyn(s.state, "FL_FOOT", cone, nu)), 10.0)
        theirs.addCost("cone", crocoddyl.CostModelResidual(
            s.pin_state, crocoddyl.ActivationModelQuadraticBarrier(bounds),
            crocoddyl.ResidualModelContactFrictionCone(s.pin_state, s.frame("FL_FOOT"), cone, nu)), 10.0)
        fref = pinocchio.Force(np.array([1.0, -2.0, 30.0, 0.0, 0.0, 0.0]))
        ours.addCost("force", crocoddyl.CostModelResidual(
            s.state, lc.ResidualModelContactForceLiedyn(s.state, "HL_FOOT", fref, 3, nu)), 1e-2)
        theirs.addCost("force", crocoddyl.CostModelResidual(
            s.pin_state, crocoddyl.ResidualModelContactForce(s.pin_state, s.frame("HL_FOOT"), fref, 3, nu)), 1e-2)
    return ours, theirs


def contact_models(s, x_ref, x_ref_pin):
    nu = s.nu
    ours_costs, their_costs = both_cost_sums(s, nu, x_ref, x_ref_pin, ("com", "forces"))
    gains = np.array([0.0, 50.0])
    ours = lc.DifferentialActionModelContactFwdDynamicsLiedyn(
        s.state, lc.Actuation.FloatingBase,
        [lc.ContactLiedyn.point(f, np.zeros(3), pinocchio.LOCAL_WORLD_ALIGNED, gains) for f in FEET], ours_costs)
    contacts = crocoddyl.ContactModelMultiple(s.pin_state, nu)
    for f in FEET:
        contacts.addContact(f, crocoddyl.ContactModel3D(
            s.pin_state, s.frame(f), np.zeros(3), pinocchio.LOCAL_WORLD_ALIGNED, nu, gains))
    theirs = crocoddyl.DifferentialActionModelContactFwdDynamics(
        s.pin_state, crocoddyl.ActuationModelFloatingBase(s.pin_state), contacts, their_costs, 0.0, True)
    return ours, theirs


def compare_differential(s, ours, theirs, seeds):
    """calc and calcDiff of a differential action model on both sides, at random (x, u)."""
    worst = 0.0
    d_ours, d_theirs = ours.createData(), theirs.createData()
    for seed in seeds:
        x, x_pin = s.x(seed)
        u = np.random.default_rng(100 + seed).uniform(-2.0, 2.0, s.nu)
        u_pin = s.Pu @ u
        ours.calc(d_ours, x, u)
        theirs.calc(d_theirs, x_pin, u_pin)
        ours.calcDiff(d_ours, x, u)
        theirs.calcDiff(d_theirs, x_pin, u_pin)
        pairs = [
            (s.P @ d_ours.xout, d_theirs.xout),
            (d_ours.cost, d_theirs.cost),
            (s.P @ d_ours.Fx @ s.T.T, d_theirs.Fx),
            (s.P @ d_ours.Fu @ s.Pu.T, d_theirs.Fu),
            (s.T @ d_ours.Lx, d_theirs.Lx),
            (s.Pu @ d_ours.Lu, d_theirs.Lu),
            (s.T @ d_ours.Lxx @ s.T.T, d_theirs.Lxx),
            (s.T @ d_ours.Lxu @ s.Pu.T, d_theirs.Lxu),
            (s.Pu @ d_ours.Luu @ s.Pu.T, d_theirs.Luu),
        ]
        for k, (a, b) in enumerate(pairs):
            e = relative_error(a, b)
            assert e < TOL, f"seed {seed}, output {k}: {e:.3e}"
            worst = max(worst, e)
    return d_ours, d_theirs, worst


def test_free_model_equals_crocoddyls(solo):
    s = solo
    x_ref, x_ref_pin = s.x(7)
    # No CoM cost: Crocoddyl's free model never computes the CoM its residual reads (it stays 0).
    ours_costs, their_costs = both_cost_sums(s, s.nu, x_ref, x_ref_pin, ())
    ours = lc.DifferentialActionModelFreeFwdDynamicsLiedyn(s.state, lc.Actuation.FloatingBase, ours_costs)
    theirs = crocoddyl.DifferentialActionModelFreeFwdDynamics(
        s.pin_state, crocoddyl.ActuationModelFloatingBase(s.pin_state), their_costs)
    _, _, worst = compare_differential(s, ours, theirs, range(10))
    assert worst < TOL


def test_com_residual_on_a_free_node_equals_pinocchios_com(solo):
    """Ours computes the CoM on any node; checked against pinocchio.centerOfMass."""
    s = solo
    costs = crocoddyl.CostModelSum(s.state, s.nu)
    residual = lc.ResidualModelCoMPositionLiedyn(s.state, COM_TARGET, s.nu)
    costs.addCost("com", crocoddyl.CostModelResidual(s.state, residual), 1.0)
    dam = lc.DifferentialActionModelFreeFwdDynamicsLiedyn(s.state, lc.Actuation.FloatingBase, costs)
    data = dam.createData()
    for seed in range(5):
        x, x_pin = s.x(seed)
        dam.calc(data, x, np.zeros(s.nu))
        com = pinocchio.centerOfMass(s.pin_model, pinocchio.Data(s.pin_model), x_pin[: s.pin_model.nq])
        assert relative_error(data.costs.costs["com"].residual.r, com - COM_TARGET) < TOL


def test_contact_model_equals_crocoddyls(solo):
    s = solo
    x_ref, x_ref_pin = s.x(8)
    ours, theirs = contact_models(s, x_ref, x_ref_pin)
    d_ours, d_theirs, _ = compare_differential(s, ours, theirs, range(10))
    assert isinstance(d_ours, lc.DifferentialActionDataContactFwdDynamicsLiedyn)
    # The last sample's forces (stacked in the contacts' order) and their derivatives.
    forces = np.concatenate([d_ours.force(k) for k in range(len(FEET))])
    assert relative_error(forces, d_theirs.pinocchio.lambda_c) < TOL
    assert relative_error(d_ours.df_dx @ s.T.T, d_theirs.df_dx) < TOL
    assert relative_error(d_ours.df_du @ s.Pu.T, d_theirs.df_du) < TOL


def test_rigid_contact_and_wrench_cone_equal_crocoddyls(solo):
    """One rigid (6D) contact on a foot, LOCAL, Kd only, with a wrench-cone cost on it."""
    s = solo
    nu, gains = s.nu, np.array([0.0, 20.0])
    x_ref, x_ref_pin = s.x(11)
    ours_costs, their_costs = both_cost_sums(s, nu, x_ref, x_ref_pin, ())
    cone = crocoddyl.WrenchCone(np.eye(3), 0.7, np.array([0.05, 0.03]), 4, True, 0.0, 500.0)
    bounds = crocoddyl.ActivationBounds(cone.lb, cone.ub)
    ours_costs.addCost("wrench", crocoddyl.CostModelResidual(
        s.state, crocoddyl.ActivationModelQuadraticBarrier(bounds),
        lc.ResidualModelContactWrenchConeLiedyn(s.state, "FR_FOOT", cone, nu)), 1.0)
    their_costs.addCost("wrench", crocoddyl.CostModelResidual(
        s.pin_state, crocoddyl.ActivationModelQuadraticBarrier(bounds),
        crocoddyl.ResidualModelContactWrenchCone(s.pin_state, s.frame("FR_FOOT"), cone, nu)), 1.0)
    ours = lc.DifferentialActionModelContactFwdDynamicsLiedyn(
        s.state, lc.Actuation.FloatingBase, [lc.ContactLiedyn.rigid("FR_FOOT", pinocchio.LOCAL, gains)], ours_costs)
    contacts = crocoddyl.ContactModelMultiple(s.pin_state, nu)
    contacts.addContact("FR_FOOT", crocoddyl.ContactModel6D(
        s.pin_state, s.frame("FR_FOOT"), pinocchio.SE3.Identity(), pinocchio.LOCAL, nu, gains))
    theirs = crocoddyl.DifferentialActionModelContactFwdDynamics(
        s.pin_state, crocoddyl.ActuationModelFloatingBase(s.pin_state), contacts, their_costs, 0.0, True)
    d_ours, d_theirs, _ = compare_differential(s, ours, theirs, range(10))
    assert relative_error(d_ours.force(0), d_theirs.pinocchio.lambda_c) < TOL
    assert d_ours.force(0).shape == (6,)
    assert relative_error(d_ours.df_dx @ s.T.T, d_theirs.df_dx) < TOL
    with pytest.raises(liedyn.InvalidArgument):
        d_ours.force(1)  # one contact only


def test_impulse_model_equals_crocoddyls(solo):
    s = solo
    x_ref, x_ref_pin = s.x(9)
    ours_costs, their_costs = both_cost_sums(s, 0, x_ref, x_ref_pin, ("com",))
    feet = FEET[:2]
    ours = lc.ActionModelImpulseFwdDynamicsLiedyn(
        s.state, [lc.ContactLiedyn.point(f, np.zeros(3), pinocchio.LOCAL_WORLD_ALIGNED) for f in feet], ours_costs)
    impulses = crocoddyl.ImpulseModelMultiple(s.pin_state)
    for f in feet:
        impulses.addImpulse(f, crocoddyl.ImpulseModel3D(s.pin_state, s.frame(f), pinocchio.LOCAL_WORLD_ALIGNED))
    # r_coeff = 0: Crocoddyl's derivatives are wrong with restitution (docs/crocoddyl.md).
    theirs = crocoddyl.ActionModelImpulseFwdDynamics(s.pin_state, impulses, their_costs, 0.0, 0.0, True)
    d_ours, d_theirs = ours.createData(), theirs.createData()
    empty = np.zeros(0)
    for seed in range(10):
        x, x_pin = s.x(seed)
        ours.calc(d_ours, x, empty)
        theirs.calc(d_theirs, x_pin, empty)
        ours.calcDiff(d_ours, x, empty)
        theirs.calcDiff(d_theirs, x_pin, empty)
        xnext_pin = s.state.to_pinocchio(d_ours.xnext, s.names)
        assert relative_error(xnext_pin, d_theirs.xnext) < TOL
        assert relative_error(d_ours.cost, d_theirs.cost) < TOL
        assert relative_error(s.T @ d_ours.Fx @ s.T.T, d_theirs.Fx) < TOL
        assert relative_error(s.T @ d_ours.Lx, d_theirs.Lx) < TOL
        assert relative_error(s.T @ d_ours.Lxx @ s.T.T, d_theirs.Lxx) < TOL
        impulses = np.concatenate([d_ours.impulse(k) for k in range(len(feet))])
        assert relative_error(impulses, d_theirs.pinocchio.impulse_c) < TOL
        assert relative_error(d_ours.df_dx @ s.T.T, d_theirs.df_dx) < TOL


def test_every_joint_type_against_crocoddyls_numdiff():
    """A moving-base tree with every joint type (spherical, free, planar and universal among
    them) and armature, which Crocoddyl's StateMultibody cannot hold as liedyn does: the free
    model's Fx, Fu, Lx, Lu against Crocoddyl's DifferentialActionModelNumDiff of the same model,
    whose forward differences move x with StateLiedyn.integrate. Bound 1e-6 relative: its step
    is sqrt(2 eps) = 2.1e-8, so its truncation and rounding errors are each about 1e-8 times the
    second derivatives' scale (observed 2e-8 to 7e-8)."""
    options = liedyn.RandomModelOptions()
    options.every_joint_type = True
    options.branching = 2
    options.armature = True
    model = liedyn.random_model(14, 1, options)
    state = lc.StateLiedyn(model)
    nu = model.nv - 6
    costs = crocoddyl.CostModelSum(state, nu)
    costs.addCost("x", crocoddyl.CostModelResidual(state, lc.ResidualModelStateLiedyn(state, nu)), 1.0)
    costs.addCost("u", crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelControl(state, nu)), 1e-2)
    ours = lc.DifferentialActionModelFreeFwdDynamicsLiedyn(state, lc.Actuation.FloatingBase, costs)
    numdiff = crocoddyl.DifferentialActionModelNumDiff(ours, False)
    d, d_numdiff = ours.createData(), numdiff.createData()
    types = {str(model.joint(i).type) for i in range(1, model.num_joints + 1)}
    assert {"JointType.Spherical", "JointType.Free", "JointType.Planar", "JointType.Universal"} <= types
    for seed in range(5):
        rng = np.random.default_rng(seed)
        x = state.integrate(state.zero(), rng.uniform(-1.0, 1.0, state.ndx))
        u = rng.uniform(-1.0, 1.0, nu)
        for m, data in ((ours, d), (numdiff, d_numdiff)):
            m.calc(data, x, u)
            m.calcDiff(data, x, u)
        for name in ("Fx", "Fu", "Lx", "Lu"):
            e = relative_error(getattr(d, name), getattr(d_numdiff, name))
            assert e < 1e-6, f"seed {seed}, {name}: {e:.2e}"


# --- Crocoddyl's arm manipulation example ----------------------------------------------------------

def arm_problem():
    words, vecs, mats, joints = read_reference(os.path.join(DATA_DIR, "crocoddyl", "talos_arm_fddp.txt"))
    options = liedyn.UrdfOptions()
    options.weld_base = True
    bare = liedyn.load_urdf_file(os.path.join(DATA_DIR, "talos_left_arm.urdf"), options)
    # liedyn's joint order may differ from Pinocchio's: the armature is moved by the permutation.
    perm = liedyn.interop.JointPermutation.from_names(bare, joints)
    armature = np.array([vecs["armature"][perm.theirs_of_ours(k)] for k in range(bare.nv)])
    model = liedyn.with_armature(bare, armature)
    state = lc.StateLiedyn(model)
    nu = model.nv
    weights, target, dt = vecs["weights"], vecs["target"], vecs["dt"][0]
    # Crocoddyl's gripper_left_joint frame is the frame of its child link, liedyn's body.
    placement = lc.ResidualModelFramePlacementLiedyn(
        state, "gripper_left_motor_double_link", pinocchio.SE3(np.eye(3), target), nu)

    def node(terminal):
        costs = crocoddyl.CostModelSum(state, nu)
        costs.addCost("gripperPose", crocoddyl.CostModelResidual(state, placement), weights[0])
        if not terminal:
            costs.addCost("xReg", crocoddyl.CostModelResidual(state, lc.ResidualModelStateLiedyn(state, nu)), weights[1])
            costs.addCost("uReg", crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelControl(state, nu)), weights[2])
        dam = lc.DifferentialActionModelFreeFwdDynamicsLiedyn(state, lc.Actuation.Full, costs)
        return crocoddyl.IntegratedActionModelEuler(dam, 0.0 if terminal else dt)

    horizon = int(words["horizon"][0])
    x0 = state.from_pinocchio(vecs["x0"], joints)
    problem = crocoddyl.ShootingProblem(x0, [node(False)] * horizon, node(True))
    return problem, state, joints, words, vecs, mats, horizon, x0


def solve_arm(nthreads):
    problem, state, joints, words, vecs, mats, horizon, x0 = arm_problem()
    problem.nthreads = nthreads
    solver = crocoddyl.SolverFDDP(problem)
    converged = solver.solve([x0] * (horizon + 1), [np.zeros(state.nv)] * horizon, 100, False)
    return solver, converged, state, joints, words, vecs, mats


def test_arm_manipulation_fddp_as_crocoddyl_solves_it():
    solver, converged, state, joints, words, vecs, mats = solve_arm(1)
    assert converged == (words["fddp_converged"][0] == "1")
    assert abs(solver.iter - int(words["fddp_iterations"][0])) <= 1
    assert abs(solver.cost - vecs["fddp_cost"][0]) / abs(vecs["fddp_cost"][0]) < 1e-6
    xs = np.array([state.to_pinocchio(x, joints) for x in solver.xs])
    P = state.tangent_permutation(joints)[: state.nv, : state.nv]
    us = np.array([P @ u for u in solver.us])
    assert relative_error(xs, mats["xs"]) < 1e-6
    assert relative_error(us, mats["us"]) < 1e-6


def test_arm_on_two_threads_is_the_same_solve():
    one, _, _, _, _, _, _ = solve_arm(1)
    two, _, _, _, _, _, _ = solve_arm(2)
    assert one.iter == two.iter
    assert one.cost == two.cost
    for a, b in zip(one.xs, two.xs):
        assert np.array_equal(a, b)


# --- errors ----------------------------------------------------------------------------------------

def test_errors_are_named(solo):
    s = solo
    with pytest.raises(TypeError, match="expected a liedyn.Model"):
        lc.StateLiedyn("solo12.urdf")
    costs = crocoddyl.CostModelSum(s.state, s.nu)
    dam = lc.DifferentialActionModelFreeFwdDynamicsLiedyn(s.state, lc.Actuation.FloatingBase, costs)
    data = dam.createData()
    x, _ = s.x(0)
    with pytest.raises(liedyn.InvalidArgument, match="x has size 5, expected 37"):
        dam.calc(data, np.zeros(5), np.zeros(s.nu))
    with pytest.raises(liedyn.InvalidArgument, match="u has size 3, expected 12"):
        dam.calc(data, x, np.zeros(3))
    other = lc.DifferentialActionModelFreeFwdDynamicsLiedyn(s.state, lc.Actuation.FloatingBase, costs)
    with pytest.raises(liedyn.InvalidArgument, match="data was created by another model"):
        other.calc(data, x, np.zeros(s.nu))
    with pytest.raises(liedyn.InvalidArgument, match="no frame named 'FL_FOT'"):
        lc.DifferentialActionModelContactFwdDynamicsLiedyn(
            s.state, lc.Actuation.FloatingBase,
            [lc.ContactLiedyn.point("FL_FOT", np.zeros(3), pinocchio.LOCAL)], costs)
    with pytest.raises(liedyn.InvalidArgument, match="no frame named"):
        lc.ResidualModelFrameTranslationLiedyn(s.state, "nowhere", np.zeros(3), s.nu)
    with pytest.raises(TypeError, match="contact 1 is a str"):
        lc.DifferentialActionModelContactFwdDynamicsLiedyn(
            s.state, lc.Actuation.FloatingBase,
            [lc.ContactLiedyn.point("FL_FOOT", np.zeros(3), pinocchio.LOCAL), "HR_FOOT"], costs)
    with pytest.raises(liedyn.InvalidArgument, match="Kp must be 0"):
        lc.DifferentialActionModelContactFwdDynamicsLiedyn(
            s.state, lc.Actuation.FloatingBase,
            [lc.ContactLiedyn.rigid("FL_FOOT", pinocchio.LOCAL, np.array([10.0, 1.0]))], costs)
    with pytest.raises(liedyn.InvalidArgument, match="WORLD"):
        lc.DifferentialActionModelContactFwdDynamicsLiedyn(
            s.state, lc.Actuation.FloatingBase,
            [lc.ContactLiedyn.point("FL_FOOT", np.zeros(3), pinocchio.WORLD)], costs)
    with pytest.raises(liedyn.InvalidArgument, match="Jdiff"):
        s.state.Jdiff(x, np.zeros(5))
