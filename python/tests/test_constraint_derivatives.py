"""The derivatives of the constraint kinematics and of the impulse dynamics from Python:
constraint_kinematics_derivatives, impulse_dynamics_derivatives and the ConstraintData outputs they
fill (position_error_dx, velocity_dx, acceleration_dx, Jdot, v_after_dx, impulse_dx). solo12 on its
four point feet (as test_constrained_linearization.py), and loop closures between its feet with a
coupling of two of its joints: a loop's desired placement defaults to "the frames coincide", so at
a random state its position error is far from zero. (Point contacts have no desired placement from
Python -- ConstraintSpec.placement is not bound -- so their position error and its derivative are
zero.) Derivatives are checked column by column against central finite differences on the group
taken here with the module's own integrate; every tolerance states where it comes from."""
import numpy as np
import pytest

import liedyn
from conftest import FD_STEP as STEP
from conftest import FEET, REPRESENTATIONS, SOLO12, central_fd, four_feet, random_vector, relative_error

BODY = liedyn.TwistRepresentation.Body
MIXED = liedyn.TwistRepresentation.Mixed

# Tolerances, relative to the largest entry of the derivative, for STEP = 1e-6.
# Kinematic quantities (e, J nu, J ddq + gamma, J: no solve): truncation h^2/6 |f'''| measured
# <= 2e-9 at h = 1e-4, so ~2e-13 at 1e-6; rounding c eps |f| / h measured 3e-11..2e-9 at 1e-6
# (and 5e-9..2e-8 at 1e-7, as 1/h). 1e-8 leaves a margin of 5 over the worst measured (Jdot of a
# ball loop, 1.8e-9); a wrong column, sense or representation is off by O(1).
KIN_RTOL = 1e-8
# Impulse dynamics (a KKT solve per evaluation, as the forward dynamics of
# test_constrained_linearization.py): truncation measured 1.7e-7 at h = 1e-4 (~2e-11 at 1e-6),
# rounding 6e-10..1.1e-9 at 1e-6 (7e-9..1.1e-8 at 1e-7). The KKT matrix's condition (~1e4) may
# scale the rounding by up to ~100 elsewhere: 1e-7, the colleague file's FD_RTOL, margin ~100.
IMPULSE_RTOL = 1e-7


def loop_and_coupling(m, loop_type, sense, Kp=3.0, Kd=1.5):
    """A loop FL_FOOT ~ HR_FOOT (frames far apart: e != 0) and the coupling s_2 = 2 s_1 + 0.1, both
    with Baumgarte gains so that gamma carries Kd J nu and Kp e."""
    loop = liedyn.ConstraintSpec.loop(loop_type, "FL_FOOT", "HR_FOOT", sense)
    coupling = liedyn.ConstraintSpec.coupling(m.joint_name(2), m.joint_name(1), 2.0, 0.1)
    for s in (loop, coupling):
        s.Kp, s.Kd = Kp, Kd
    return liedyn.ConstraintSet(m, [loop, coupling])


def check_kinematics_derivatives(m, d, x, cs, label):
    """Every output of constraint_kinematics_derivatives (Body columns) against central FD;
    returns them (copies) and the measured errors."""
    nv, mm = m.nv, cs.dimension()
    c = liedyn.ConstraintData(m, cs)
    ddq = random_vector(nv, 7)
    out = liedyn.constraint_kinematics_derivatives(m, d, cs, c, x, ddq)
    e_dx, vel_dx, acc_dx, Jdot = out
    assert e_dx.shape == (mm, nv) and vel_dx.shape == (mm, 2 * nv)
    assert acc_dx.shape == (mm, 2 * nv) and Jdot.shape == (mm, nv)
    # Copies of cdata's buffers (the properties are read-only views of them).
    for a, prop in zip(out, (c.position_error_dx, c.velocity_dx, c.acceleration_dx, c.Jdot)):
        assert a.flags.writeable and not np.shares_memory(a, prop) and np.array_equal(a, prop)
        assert prop.base is c and not prop.flags.writeable
    e_dx, vel_dx, acc_dx, Jdot = (a.copy() for a in out)
    # It leaves constraint_kinematics' outputs too (same computation, same bits).
    c_ref = liedyn.ConstraintData(m, cs)
    liedyn.constraint_kinematics(m, liedyn.Data(m), cs, c_ref, x)
    for name in ("J", "drift", "gamma", "position_error", "velocity_error"):
        np.testing.assert_array_equal(getattr(c, name), getattr(c_ref, name))

    d2, c2 = liedyn.Data(m), liedyn.ConstraintData(m, cs)

    def kinematics(y):
        liedyn.constraint_kinematics(m, d2, cs, c2, y)
        return c2

    fd_e = central_fd(m, x, lambda y: kinematics(y).position_error.copy())
    # e depends on the configuration only: its velocity columns are exactly zero (same q both sides).
    assert not fd_e[:, nv:].any()
    fd_vel = central_fd(m, x, lambda y: kinematics(y).velocity_error.copy())  # J [nu; r] - v*, v* const
    fd_acc = central_fd(m, x, lambda y: kinematics(y).J @ ddq + kinematics(y).gamma)
    # J along the motion: the configuration flows by q (+) h [nu; r] (tangent (h [nu; r], 0)).
    v = np.concatenate([x.nu, x.r])

    def J_along(t):
        return kinematics(liedyn.integrate(m, x, np.concatenate([t * v, np.zeros(nv)]))).J.copy()

    fd_Jdot = (J_along(STEP) - J_along(-STEP)) / (2 * STEP)
    errors = {"velocity_dx": relative_error(vel_dx, fd_vel), "acceleration_dx": relative_error(acc_dx, fd_acc)}
    if np.abs(e_dx).any():
        errors["position_error_dx"] = relative_error(e_dx, fd_e[:, :nv])
    else:
        assert not fd_e.any()
    if np.abs(Jdot).any():
        errors["Jdot"] = relative_error(Jdot, fd_Jdot)
    else:
        assert not fd_Jdot.any()
    print(f"{label}: FD relative errors " + ", ".join(f"{k} {e:.1e}" for k, e in errors.items()))
    for k, err in errors.items():
        assert err < KIN_RTOL, k
    return c, (e_dx, vel_dx, acc_dx, Jdot)


@pytest.mark.parametrize("sense", REPRESENTATIONS)
def test_kinematics_derivatives_four_feet(solo, sense):
    m, d, x = solo
    cs = four_feet(m, sense, Kd=2.0)  # Kd: gamma's Kd J nu term in acceleration_dx
    c, (e_dx, vel_dx, acc_dx, Jdot) = check_kinematics_derivatives(m, d, x, cs, f"four feet, {sense}")
    # No desired placement: e = 0 at every state, and so is its derivative.
    assert not c.position_error.any() and not e_dx.any()
    assert np.abs(Jdot).max() > 0.1 and np.abs(acc_dx - 2.0 * vel_dx).max() > 0.1
    # The same velocity_dx as constrained_forward_dynamics_derivatives (another route to the same
    # rows: a ground pass with the solution's accelerations; rounding of O(nv)-term sums).
    c_fd = liedyn.ConstraintData(m, cs)
    liedyn.constrained_forward_dynamics_derivatives(m, liedyn.Data(m), cs, c_fd, x, random_vector(m.nv, 5))
    np.testing.assert_allclose(c_fd.velocity_dx, vel_dx, rtol=0, atol=1e-13 * np.abs(vel_dx).max())


@pytest.mark.parametrize("sense", REPRESENTATIONS)
def test_kinematics_derivatives_contacts_with_placement(solo, sense):
    """Rigid feet with a desired placement (the world origin: far from every foot, so e != 0) and
    both Baumgarte gains: e and its Kp term in d(J ddq + gamma)/dx."""
    m, d, x = solo
    specs = [liedyn.ConstraintSpec.rigid_contact(f, sense) for f in FEET[:2]]
    for s in specs:
        assert s.placement is None
        s.placement = liedyn.SE3()
        s.Kp, s.Kd = 3.0, 1.5
    cs = liedyn.ConstraintSet(m, specs)
    c, (e_dx, _, _, _) = check_kinematics_derivatives(m, d, x, cs, f"rigid feet with a placement, {sense}")
    assert np.abs(c.position_error).max() > 0.1 and np.abs(e_dx).max() > 0.1


@pytest.mark.parametrize("sense", REPRESENTATIONS)
@pytest.mark.parametrize("loop_type", [liedyn.ConstraintType.BallLoop, liedyn.ConstraintType.RigidLoop])
def test_kinematics_derivatives_loop_and_coupling(solo, sense, loop_type):
    m, d, x = solo
    cs = loop_and_coupling(m, loop_type, sense)
    c, (e_dx, vel_dx, acc_dx, Jdot) = check_kinematics_derivatives(m, d, x, cs, f"{loop_type}, coupling, {sense}")
    mm = cs.dimension()
    loop_rows = slice(0, mm - 1)
    assert np.abs(c.position_error[loop_rows]).max() > 0.1  # the feet are far from coinciding
    assert np.abs(e_dx[loop_rows]).max() > 0.1
    # The coupling's rows are linear in (s, r): d e/dq and d(J nu)/dr are its J row (exact), J is
    # constant (Jdot = 0), and d(J ddq + gamma)/dx = (Kp J, Kd J).
    J_cp = c.J[-1]
    np.testing.assert_array_equal(e_dx[-1], J_cp)
    np.testing.assert_array_equal(vel_dx[-1], np.concatenate([np.zeros(m.nv), J_cp]))
    np.testing.assert_array_equal(acc_dx[-1], np.concatenate([3.0 * J_cp, 1.5 * J_cp]))
    assert not Jdot[-1].any()


def test_jdot_and_drift(solo):
    """Jdot [nu; r] is the drift where the rows are plain time derivatives of J [nu; r]: mixed point
    contacts. Body point contacts take the classical acceleration R^T p'' (constraint_kinematics.hpp):
    it differs by omega_F x (J nu), so only where J [nu; r] = 0, after project_velocity. Tolerances:
    rounding of the nv-term products Jdot v, ~nv eps relative (measured 7e-16 and 2e-15)."""
    m, d, x = solo
    v = lambda y: np.concatenate([y.nu, y.r])  # noqa: E731
    ddq = np.zeros(m.nv)
    cs = four_feet(m, MIXED)
    c = liedyn.ConstraintData(m, cs)
    Jdot = liedyn.constraint_kinematics_derivatives(m, d, cs, c, x, ddq)[3]
    np.testing.assert_allclose(Jdot @ v(x), c.drift, rtol=0, atol=1e-13 * np.abs(c.drift).max())
    body = four_feet(m, BODY)
    cb = liedyn.ConstraintData(m, body)
    Jdot = liedyn.constraint_kinematics_derivatives(m, d, body, cb, x, ddq)[3]
    gap = np.abs(Jdot @ v(x) - cb.drift).max()
    assert gap > 1e-2 * np.abs(cb.drift).max()
    y = liedyn.random_state(m, 3)
    liedyn.project_velocity(m, d, body, cb, y)
    Jdot = liedyn.constraint_kinematics_derivatives(m, d, body, cb, y, ddq)[3]
    assert np.abs(cb.velocity_error).max() < 1e-12
    np.testing.assert_allclose(Jdot @ v(y), cb.drift, rtol=0, atol=1e-13 * np.abs(cb.drift).max())


def test_forward_dynamics_derivatives_fill_acceleration_dx(solo):
    """constrained_forward_dynamics_derivatives leaves d(J ddq + gamma)/dx at its solution ddq in
    cdata.acceleration_dx: constraint_kinematics_derivatives at that ddq gives it again (another
    ground pass; rounding of O(nv)-term sums, measured in the eps range)."""
    m, d, x = solo
    cs = four_feet(m, MIXED, Kd=1.0)
    c = liedyn.ConstraintData(m, cs)
    liedyn.constrained_forward_dynamics_derivatives(m, d, cs, c, x, random_vector(m.nv, 5), MIXED)
    view = c.acceleration_dx
    assert view.shape == (cs.dimension(), 2 * m.nv) and view.base is c and not view.flags.writeable
    acc_dx = view.copy()
    c2 = liedyn.ConstraintData(m, cs)
    ref = liedyn.constraint_kinematics_derivatives(m, liedyn.Data(m), cs, c2, x, c.ddq.copy(), MIXED)[2]
    np.testing.assert_allclose(acc_dx, ref, rtol=0, atol=1e-12 * np.abs(ref).max())


def impulse_case(m, case, sense):
    if case == "feet":
        return four_feet(m, sense)
    # Contacts with a ball loop and a coupling: with restitution > 0 the contacts and the others see
    # different post-impact velocities (two ground passes in the C++).
    specs = [liedyn.ConstraintSpec.point_contact(f, sense) for f in ("FR_FOOT", "HL_FOOT")]
    specs.append(liedyn.ConstraintSpec.loop(liedyn.ConstraintType.BallLoop, "FL_FOOT", "HR_FOOT", sense))
    specs.append(liedyn.ConstraintSpec.coupling(m.joint_name(2), m.joint_name(1), 2.0, 0.1))
    return liedyn.ConstraintSet(m, specs)


@pytest.mark.parametrize("restitution", [0.0, 0.5])
@pytest.mark.parametrize("case", ["feet", "loop"])
@pytest.mark.parametrize("sense", [BODY, MIXED])
def test_impulse_derivatives(solo, restitution, case, sense):
    m, d, x = solo
    cs = impulse_case(m, case, sense)
    nv, mm = m.nv, cs.dimension()
    c = liedyn.ConstraintData(m, cs)
    out = liedyn.impulse_dynamics_derivatives(m, d, cs, c, x, restitution)
    v_dx, imp_dx = out
    assert v_dx.shape == (nv, 2 * nv) and imp_dx.shape == (mm, 2 * nv)
    for a, prop in zip(out, (c.v_after_dx, c.impulse_dx)):
        assert a.flags.writeable and not np.shares_memory(a, prop) and np.array_equal(a, prop)
    v_dx, imp_dx = v_dx.copy(), imp_dx.copy()
    # It leaves impulse_dynamics' results (same computation, same bits).
    c_ref = liedyn.ConstraintData(m, cs)
    np.testing.assert_array_equal(c.v_after, liedyn.impulse_dynamics(m, liedyn.Data(m), cs, c_ref, x, restitution))
    np.testing.assert_array_equal(c.impulse, c_ref.impulse)

    d2, c2 = liedyn.Data(m), liedyn.ConstraintData(m, cs)

    def after_impact(y):
        v_after = liedyn.impulse_dynamics(m, d2, cs, c2, y, restitution)
        return np.concatenate([v_after, c2.impulse])

    fd = central_fd(m, x, after_impact)
    err_v = relative_error(v_dx, fd[:nv])
    err_i = relative_error(imp_dx, fd[nv:])
    print(f"impulse {case}, {sense}, e = {restitution}: FD relative errors v_after_dx {err_v:.1e}, "
          f"impulse_dx {err_i:.1e}")
    assert err_v < IMPULSE_RTOL and err_i < IMPULSE_RTOL
    # Every column finite differences see (above 1e-6 of the largest entry, 1e3 times their
    # measured error) is non-zero in the analytic derivative too.
    analytic = np.vstack([v_dx, imp_dx])
    seen = np.abs(fd).max(axis=0) > 1e-6 * np.abs(fd).max()
    assert seen.sum() >= nv  # at least the velocity columns
    assert (np.abs(analytic[:, seen]).max(axis=0) > 0).all()
    # The velocity columns of v_after: v+ = v + M^-1 J^T Lambda is affine in v, Lambda linear;
    # restitution scales the impulses by (1 + e) (impulse_dynamics.hpp): compare with e = 0.
    if restitution > 0 and case == "feet":
        imp0 = liedyn.impulse_dynamics_derivatives(m, liedyn.Data(m), cs, liedyn.ConstraintData(m, cs), x, 0.0)[1]
        np.testing.assert_allclose(imp_dx, (1 + restitution) * imp0, rtol=0, atol=1e-12 * np.abs(imp_dx).max())


def test_mixed_columns_by_numdiff(solo):
    """Mixed base-twist columns against the module's numdiff: same central scheme, but its step
    eps^(1/3) ~ 6e-6 is relative to the coordinates (up to ~3 here), so h up to ~2e-5 and a
    truncation error up to ~(2e-5 / 1e-4)^2 of the one measured at h = 1e-4: ~1e-10 for the
    kinematics, ~7e-9 for the impulses (measured 7e-11, 1e-10 and 2.5e-8). Tolerances 1e-8 (the
    kinematics' KIN_RTOL) and 2e-7 (test_constrained_linearization.py's numdiff test, margin 8),
    against O(1) for the Body columns."""
    m, d, x = solo
    opt = liedyn.numdiff.NumDiffOptions(twist_representation=MIXED)
    cs = loop_and_coupling(m, liedyn.ConstraintType.RigidLoop, MIXED)
    c = liedyn.ConstraintData(m, cs)
    ddq = random_vector(m.nv, 7)
    _, vel_dx, acc_dx, _ = (a.copy() for a in liedyn.constraint_kinematics_derivatives(m, d, cs, c, x, ddq, MIXED))
    body_acc = liedyn.constraint_kinematics_derivatives(m, d, cs, c, x, ddq)[2].copy()
    assert relative_error(body_acc, acc_dx) > 1e-3
    d2, c2 = liedyn.Data(m), liedyn.ConstraintData(m, cs)

    def acc(y):
        liedyn.constraint_kinematics(m, d2, cs, c2, y)
        return c2.J @ ddq + c2.gamma

    err_acc = relative_error(acc_dx, liedyn.numdiff.state_jacobian(m, acc, x, opt))
    def vel(y):
        liedyn.constraint_kinematics(m, d2, cs, c2, y)
        return c2.velocity_error.copy()

    err_vel = relative_error(vel_dx, liedyn.numdiff.state_jacobian(m, vel, x, opt))
    feet = four_feet(m, MIXED)
    cf = liedyn.ConstraintData(m, feet)
    v_dx = liedyn.impulse_dynamics_derivatives(m, d, feet, cf, x, 0.5, representation=MIXED)[0].copy()
    cf2 = liedyn.ConstraintData(m, feet)
    err_imp = relative_error(v_dx, liedyn.numdiff.state_jacobian(
        m, lambda y: liedyn.impulse_dynamics(m, d2, feet, cf2, y, 0.5).copy(), x, opt))
    print(f"Mixed columns by numdiff: acceleration_dx {err_acc:.1e}, velocity_dx {err_vel:.1e}, "
          f"v_after_dx {err_imp:.1e}")
    assert err_acc < 1e-8 and err_vel < 1e-8 and err_imp < 2e-7


def test_errors(solo):
    m, d, x = solo
    cs = four_feet(m)
    c = liedyn.ConstraintData(m, cs)
    with pytest.raises(liedyn.InvalidArgument) as err:
        liedyn.constraint_kinematics_derivatives(m, d, cs, c, x, np.zeros(5))
    assert str(err.value) == "liedyn: constraint_kinematics_derivatives: ddq has size 5, expected 18"
    for e in (-0.1, 1.5, float("nan")):
        with pytest.raises(liedyn.InvalidArgument) as err:
            liedyn.impulse_dynamics_derivatives(m, d, cs, c, x, e)
        assert str(err.value) == "liedyn: impulse_dynamics_derivatives: the restitution must lie in [0, 1]"
    # A ConstraintData for another set, a Data or a set for another model.
    two = liedyn.ConstraintSet(m, [liedyn.ConstraintSpec.point_contact(f) for f in FEET[:2]])
    c_two = liedyn.ConstraintData(m, two)
    with pytest.raises(liedyn.InvalidArgument, match="^liedyn: constraint_kinematics_derivatives: the "
                                                     "ConstraintData was sized for another model or constraint set"):
        liedyn.constraint_kinematics_derivatives(m, d, cs, c_two, x, np.zeros(m.nv))
    with pytest.raises(liedyn.InvalidArgument, match="^liedyn: impulse_dynamics_derivatives: the ConstraintData was "
                                                     "sized for another model or constraint set"):
        liedyn.impulse_dynamics_derivatives(m, d, cs, c_two, x, 0.0)
    other = liedyn.figure4_model()
    with pytest.raises(ValueError, match="liedyn: impulse_dynamics_derivatives: data was made for a model with 8"):
        liedyn.impulse_dynamics_derivatives(m, liedyn.Data(other), cs, c, x)
    with pytest.raises(liedyn.InvalidArgument, match="constraint_kinematics_derivatives: the constraint set was"):
        liedyn.constraint_kinematics_derivatives(other, liedyn.Data(other), cs, c, liedyn.random_state(other, 1),
                                                 np.zeros(other.nv))
    # The same rigid contact twice: J is rank deficient, the impulse derivatives (exact KKT) refuse it.
    twice = liedyn.ConstraintSet(m, [liedyn.ConstraintSpec.rigid_contact("FL_FOOT")] * 2)
    with pytest.raises(liedyn.ConstraintError, match="rank deficient"):
        liedyn.impulse_dynamics_derivatives(m, d, twice, liedyn.ConstraintData(m, twice), x, 0.0)
    # Wrong argument types: pybind11's TypeError, not a crash.
    with pytest.raises(TypeError):
        liedyn.constraint_kinematics_derivatives(m, d, cs, x, np.zeros(m.nv))  # type: ignore[call-arg, arg-type]
    with pytest.raises(TypeError):
        liedyn.impulse_dynamics_derivatives(m, d, cs, c, x, "half")  # type: ignore[arg-type]
