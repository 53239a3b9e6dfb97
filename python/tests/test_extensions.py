"""Centroidal quantities, energy, the Coriolis matrix and the constrained dynamics from Python:
checked against identities that hold exactly in exact arithmetic (tolerances: a few hundred
rounding errors of the quantities' scale), and against the unconstrained kernels."""
import numpy as np
import pytest

import liedyn
from conftest import REPRESENTATIONS, SOLO12, random_vector

FEET = ["FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"]


@pytest.fixture
def solo():
    m = liedyn.load_urdf_file(SOLO12)
    x = liedyn.random_state(m, 3)
    return m, liedyn.Data(m), x


def test_centroidal_identities(solo):
    m, d, x = solo
    nu_bar = np.concatenate([x.nu, x.r])
    ddq = random_vector(m.nv, 4)
    A_G = liedyn.centroidal_momentum_matrix(m, d, x)
    h_G = liedyn.centroidal_momentum(m, d, x)
    scale = np.abs(A_G).max() * np.abs(nu_bar).max()
    np.testing.assert_allclose(A_G @ nu_bar, h_G, rtol=0, atol=1e-13 * scale)
    rate = liedyn.centroidal_momentum_rate(m, d, x, ddq)
    drift = liedyn.centroidal_momentum_drift(m, d, x)
    np.testing.assert_allclose(A_G @ ddq + drift, rate, rtol=0, atol=1e-12 * max(1.0, np.abs(rate).max()))
    J_com = liedyn.center_of_mass_jacobian(m, d, x)
    v_com = liedyn.center_of_mass_velocity(m, d, x)
    mass = (h_G[:3] @ v_com) / (v_com @ v_com)
    assert mass == pytest.approx(2.5, rel=0.2)  # solo12 weighs about 2.5 kg
    np.testing.assert_allclose(J_com @ nu_bar, v_com, rtol=0, atol=1e-13 * scale)
    np.testing.assert_allclose(mass * v_com, h_G[:3], rtol=0, atol=1e-13 * scale)
    np.testing.assert_allclose(mass * liedyn.center_of_mass_acceleration(m, d, x, ddq), rate[:3], rtol=0,
                               atol=1e-12 * max(1.0, np.abs(rate).max()))
    # Base-frame CoM: the inertial one seen from the base pose.
    p_world = liedyn.center_of_mass(m, d, x, liedyn.ComFrame.Inertial)
    p_base = liedyn.center_of_mass(m, d, x, liedyn.ComFrame.Base)
    np.testing.assert_allclose(x.H.rotation @ p_base + x.H.translation, p_world, rtol=0, atol=1e-14 * 10)


def test_energy_and_coriolis(solo):
    m, d, x = solo
    nu_bar = np.concatenate([x.nu, x.r])
    M = liedyn.crba(m, d, x).copy()
    T = liedyn.kinetic_energy(m, d, x)
    assert T == pytest.approx(0.5 * nu_bar @ M @ nu_bar, rel=1e-13)
    g = m.gravity
    V = liedyn.potential_energy(m, d, x)
    A_G = liedyn.centroidal_momentum_matrix(m, d, x)
    mass = np.linalg.norm(A_G[:3, :3], 2)  # the base's linear block is m R (R the base rotation)
    assert V == pytest.approx(-mass * g @ liedyn.center_of_mass(m, d, x), rel=1e-12, abs=1e-12)
    C = liedyn.coriolis_matrix(m, d, x).copy()
    velocity_terms = liedyn.coriolis_force(m, d, x).copy()
    np.testing.assert_allclose(C @ nu_bar, velocity_terms, rtol=0, atol=1e-12 * max(1.0, np.abs(velocity_terms).max()))


@pytest.mark.parametrize("sense", REPRESENTATIONS)
def test_constrained_dynamics_on_four_feet(solo, sense):
    m, d, x = solo
    specs = [liedyn.ConstraintSpec.point_contact(f, sense) for f in FEET]
    for s in specs:
        s.Kp, s.Kd = 0.0, 1.0
    assert specs[0].type == liedyn.ConstraintType.PointContact and specs[0].sense == sense
    cs = liedyn.ConstraintSet(m, specs)
    assert cs.size() == 4 and cs.dimension() == 12 and "FL_FOOT" in cs.describe(0)
    c = liedyn.ConstraintData(m, cs)
    tau = random_vector(m.nv, 5)
    ddq = liedyn.constrained_forward_dynamics(m, d, cs, c, x, tau).copy()
    J, gamma, lam = c.J.copy(), c.gamma.copy(), getattr(c, "lambda").copy()
    M = liedyn.crba(m, d, x).copy()
    h = liedyn.bias_force(m, d, x).copy()
    scale = np.abs(M).max() * np.abs(ddq).max()
    np.testing.assert_allclose(J @ ddq + gamma, np.zeros(12), rtol=0, atol=1e-12 * scale)
    np.testing.assert_allclose(M @ ddq + h - tau, J.T @ lam, rtol=0, atol=1e-11 * scale)
    for route in (liedyn.ConstrainedDynamicsRoute.Proximal, liedyn.ConstrainedDynamicsRoute.Projector,
                  liedyn.ConstrainedDynamicsRoute.MinimalCoordinates, liedyn.ConstrainedDynamicsRoute.ExactKKT):
        other = liedyn.constrained_forward_dynamics(m, d, cs, c, x, tau, route)
        np.testing.assert_allclose(other, ddq, rtol=0, atol=1e-10 * np.abs(ddq).max())
    liedyn.constraint_kinematics(m, d, cs, c, x)
    np.testing.assert_allclose(c.velocity_error, J @ np.concatenate([x.nu, x.r]) - 0.0, rtol=0, atol=1e-13 * 100)
    assert c.drift.shape == (12,) and c.position_error.shape == (12,)
    # An inelastic impact stops the feet; the impulses change the momentum by J^T impulse.
    v_after = liedyn.impulse_dynamics(m, d, cs, c, x, 0.0).copy()
    np.testing.assert_allclose(J @ v_after, np.zeros(12), rtol=0, atol=1e-12 * np.abs(v_after).max() * np.abs(J).max())
    np.testing.assert_allclose(M @ (v_after - np.concatenate([x.nu, x.r])), J.T @ c.impulse, rtol=0,
                               atol=1e-11 * np.abs(M).max() * np.abs(v_after).max())
    np.testing.assert_array_equal(v_after, c.v_after)
    np.testing.assert_array_equal(ddq.shape, c.ddq.shape)
    # Velocity projection: the feet's velocities vanish afterwards.
    y = x.copy()
    liedyn.project_velocity(m, d, cs, c, y)
    liedyn.constraint_kinematics(m, d, cs, c, y)
    np.testing.assert_allclose(c.velocity_error, np.zeros(12), rtol=0, atol=1e-12 * 100)
    # Constrained inverse dynamics: joint torques u and foot forces that produce ddq with no other
    # applied force (tau = 0, so the force-minus-bias argument is -h): S u + J^T lambda = M ddq + h.
    S = np.vstack([np.zeros((6, 12)), np.eye(12)])
    u, lam2 = liedyn.constrained_inverse_dynamics(M, J, S, ddq, -h)
    np.testing.assert_allclose(S @ u + J.T @ lam2, M @ ddq + h, rtol=0, atol=1e-10 * scale)


def test_constraint_errors_and_assembly(solo):
    m, d, x = solo
    with pytest.raises(ValueError, match="NO_SUCH_FRAME"):
        liedyn.ConstraintSet(m, [liedyn.ConstraintSpec.point_contact("NO_SUCH_FRAME")])
    # The same rigid contact twice: rank deficient for the exact route, named in the message.
    twice = [liedyn.ConstraintSpec.rigid_contact("FL_FOOT"), liedyn.ConstraintSpec.rigid_contact("FL_FOOT")]
    cs = liedyn.ConstraintSet(m, twice)
    c = liedyn.ConstraintData(m, cs)
    with pytest.raises(liedyn.ConstraintError, match="rank deficient"):
        liedyn.constrained_forward_dynamics(m, d, cs, c, x, np.zeros(m.nv))
    # solo12 has no <mimic> joints; a coupling s_2 = 2 s_1 + 0.1 is met after projection.
    assert liedyn.mimic_couplings(m) == []
    spec = liedyn.ConstraintSpec.coupling(m.joint_name(2), m.joint_name(1), 2.0, 0.1)
    spec.name = "gear"
    spec.components = []
    assert spec.type == liedyn.ConstraintType.Coupling and spec.Kp == 0.0 and spec.Kd == 0.0
    cs = liedyn.ConstraintSet(m, [spec])
    assert "gear" in cs.describe(0)
    c = liedyn.ConstraintData(m, cs)
    y = x.copy()
    assert liedyn.project_configuration(m, d, cs, c, y) >= 1
    assert y.s[1] == pytest.approx(2.0 * y.s[0] + 0.1, abs=1e-12)
    loop = liedyn.ConstraintSpec.loop(liedyn.ConstraintType.BallLoop, "FL_FOOT", "FR_FOOT")
    assert loop.type == liedyn.ConstraintType.BallLoop
    for t in (liedyn.ConstraintType.RigidContact, liedyn.ConstraintType.RigidLoop, liedyn.ConstraintType.RevoluteLoop,
              liedyn.ConstraintType.PrismaticLoop):
        assert t != liedyn.ConstraintType.Coupling


TRIANGLE_URDF = """<robot name="r">
  <link name="base"><inertial><mass value="1"/><origin xyz="0 0 0"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><mass value="1"/><origin xyz="0 0 0"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


def test_loading_policies_and_diagnostics(solo):
    m, d, x = solo
    assert liedyn.model_diagnostics(m) == []
    # izz = 0.05 > ixx + iyy = 0.02: loads as written under lenient, with a named diagnostic.
    lenient = liedyn.load_urdf_string(TRIANGLE_URDF)
    diags = liedyn.model_diagnostics(lenient)
    assert [e["kind"] for e in diags] == ["triangle_inequality"] and diags[0]["link"] == "base"
    assert diags[0]["magnitude"] == pytest.approx(0.03)
    opt = liedyn.UrdfOptions()
    opt.inertia = liedyn.InertiaPolicy.strict
    with pytest.raises(liedyn.ModelError, match="base"):
        liedyn.load_urdf_string(TRIANGLE_URDF, opt)
    opt.inertia = liedyn.InertiaPolicy.balance
    balanced = liedyn.load_urdf_string(TRIANGLE_URDF, opt)
    assert "balanced_inertia" in [e["kind"] for e in liedyn.model_diagnostics(balanced)]
    assert liedyn.InertiaPolicy.lenient != opt.inertia
    # Locking a knee: one coordinate fewer, the same mass.
    locked = liedyn.lock_joints(m, ["FL_KFE"], [-1.2])
    assert locked.nv == m.nv - 1
    assert locked.total_mass == pytest.approx(m.total_mass, rel=1e-15)


def test_centroidal_derivatives_and_actuated_step(solo):
    m, d, x = solo
    ddq = random_vector(m.nv, 6)
    com_dx, h_dx, rate_dx = liedyn.centroidal_derivatives(m, d, x, ddq, liedyn.TwistRepresentation.Body)
    n, nv = m.num_joints, m.nv
    assert com_dx.shape == (3, 2 * nv) and h_dx.shape == (6, 2 * nv) and rate_dx.shape == (6, 2 * nv)
    # The joint-position columns against central differences (step 1e-6: error ~1e-10 of entries ~1).
    for k in range(n):
        y_plus, y_minus = x.copy(), x.copy()
        s = np.array(x.s)
        s[k] += 1e-6
        y_plus.s[:] = s
        s[k] -= 2e-6
        y_minus.s[:] = s
        fd = (liedyn.center_of_mass(m, d, y_plus) - liedyn.center_of_mass(m, d, y_minus)) / 2e-6
        np.testing.assert_allclose(com_dx[:, 6 + k], fd, rtol=0, atol=1e-8)
    # The actuated step: B times the actuation matrix.
    S = np.vstack([np.zeros((6, n)), np.eye(n)])
    u = random_vector(n, 7)
    A1, Bu = liedyn.linearize_discrete_actuated(m, d, x, S, u, 0.01)
    A1 = A1.copy()
    A2, B2 = liedyn.linearize_discrete(m, d, x, S @ u, 0.01)
    np.testing.assert_array_equal(A1, A2)
    np.testing.assert_allclose(Bu, B2 @ S, rtol=0, atol=1e-14 * np.abs(B2).max())
