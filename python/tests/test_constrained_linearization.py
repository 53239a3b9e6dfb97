"""The derivatives and linearizations of the constrained dynamics from Python (issue 21): solo12
standing on its four point feet. Derivatives are checked column by column against central finite
differences taken here on the group with the module's own integrate/difference; the linearizations
against the derivatives they are built from, and the reduced form against its defining properties.
Every tolerance states where it comes from."""
import numpy as np
import pytest

import liedyn
from conftest import FD_STEP as STEP
from conftest import FEET, REPRESENTATIONS, SOLO12, central_fd, four_feet, random_vector, relative_error

BODY = liedyn.TwistRepresentation.Body


# The finite-difference tolerance, relative to the largest entry of the derivative (ddq_dx
# reaches ~4e3 here). Truncation: h^2/6 |f^(3)| -- measured 2e-7 at h = 1e-4, so ~2e-11 at
# h = 1e-6. Rounding: each f evaluation (a KKT solve) carries c eps |f| and the difference divides
# by 2h: measured ~8e-9 at h = 1e-7, ~1e-9 at h = 1e-6 (c ~ 5). 1e-7 allows c up to ~500 (the
# KKT matrix's condition number is ~1e4), while a wrong column or a wrong representation (errors
# of order 1 relative) fails by six orders of magnitude.
FD_RTOL = 1e-7


def four_feet_with_data(m, sense=BODY, Kd=0.0):
    cs = four_feet(m, sense, Kd)
    return cs, liedyn.ConstraintData(m, cs)


@pytest.mark.parametrize("sense", REPRESENTATIONS)
def test_derivatives_against_finite_differences(solo, sense):
    m, d, x = solo
    # Baumgarte velocity gain: its term Kd d(J nu)/dx is in the derivatives too. (Kp would need a
    # desired placement of the feet, which point contacts on the floor do not have.)
    cs, c = four_feet_with_data(m, sense, Kd=2.0)
    nv, mm = m.nv, cs.dimension()
    tau = random_vector(nv, 5)
    ddq_dx, lam_dx, ddq_dtau, lam_dtau = liedyn.constrained_forward_dynamics_derivatives(m, d, cs, c, x, tau)
    assert ddq_dx.shape == (nv, 2 * nv) and lam_dx.shape == (mm, 2 * nv)
    assert ddq_dtau.shape == (nv, nv) and lam_dtau.shape == (mm, nv)
    # New arrays holding what cdata's buffers hold (the next kernel on cdata overwrites those).
    assert ddq_dx.flags.writeable and not np.shares_memory(lam_dx, c.lambda_dx)
    np.testing.assert_array_equal(lam_dx, c.lambda_dx)
    ddq_dx, lam_dx, ddq_dtau, lam_dtau = (a.copy() for a in (ddq_dx, lam_dx, ddq_dtau, lam_dtau))
    vel_dx = c.velocity_dx.copy()
    np.testing.assert_array_equal(c.ddq_dtau, ddq_dtau)
    np.testing.assert_array_equal(c.lambda_dtau, lam_dtau)
    np.testing.assert_array_equal(c.ddq_dx, ddq_dx)

    # Separate Data/ConstraintData for the evaluations, so the results above stay untouched.
    d2, c2 = liedyn.Data(m), liedyn.ConstraintData(m, cs)

    def ddq_and_lambda(y):
        ddq = liedyn.constrained_forward_dynamics(m, d2, cs, c2, y, tau)
        return np.concatenate([ddq, getattr(c2, "lambda")])

    def constraint_velocity(y):
        liedyn.constraint_kinematics(m, d2, cs, c2, y)
        return c2.velocity_error.copy()  # J [nu; r] - v*, v* constant

    fd = central_fd(m, x, ddq_and_lambda)
    err_ddq = relative_error(ddq_dx, fd[:nv])
    err_lam = relative_error(lam_dx, fd[nv:])
    err_vel = relative_error(vel_dx, central_fd(m, x, constraint_velocity))
    print(f"sense {sense}: FD relative errors ddq_dx {err_ddq:.2e}, lambda_dx {err_lam:.2e}, "
          f"velocity_dx {err_vel:.2e}")
    assert err_ddq < FD_RTOL and err_lam < FD_RTOL and err_vel < FD_RTOL

    # tau enters linearly: the tau columns are the KKT inverse's, M ddq_dtau - J^T lambda_dtau = 1 and
    # J ddq_dtau = 0 (rounding of M and J times the derivatives, ~1e3 eps relative).
    M, J = d.M.copy(), c.J.copy()
    scale = np.abs(M).max() * np.abs(ddq_dtau).max() + np.abs(J).max() * np.abs(lam_dtau).max()
    np.testing.assert_allclose(M @ ddq_dtau - J.T @ lam_dtau, np.eye(nv), rtol=0, atol=1e-12 * scale)
    np.testing.assert_allclose(J @ ddq_dtau, np.zeros((mm, nv)), rtol=0, atol=1e-12 * np.abs(J).max()
                               * np.abs(ddq_dtau).max())
    # and the finite difference in tau is exact up to rounding (~c eps / h, as above).
    cols = []
    for k in range(nv):
        e = np.zeros(nv)
        e[k] = STEP
        plus = liedyn.constrained_forward_dynamics(m, d2, cs, c2, x, tau + e).copy()
        minus = liedyn.constrained_forward_dynamics(m, d2, cs, c2, x, tau - e).copy()
        cols.append((plus - minus) / (2 * STEP))
    assert relative_error(ddq_dtau, np.column_stack(cols)) < FD_RTOL


def test_derivatives_mixed_columns_by_numdiff(solo):
    """Mixed base-twist columns against the module's numdiff: same central scheme, but its default
    step eps^(1/3) ~ 6e-6 is relative to the coordinates (up to ~3 here), so h up to ~2e-5 and a
    truncation error (~h^2) up to ~(2e-5 / 1e-4)^2 of the 2e-7 measured at h = 1e-4, ~1e-8;
    measured 2e-8. Tolerance 2e-7: that estimate with a margin of 10."""
    m, d, x = solo
    cs, c = four_feet_with_data(m, liedyn.TwistRepresentation.Mixed)
    tau = random_vector(m.nv, 8)
    rep = liedyn.TwistRepresentation.Mixed
    ddq_dx = liedyn.constrained_forward_dynamics_derivatives(m, d, cs, c, x, tau, representation=rep)[0].copy()
    body = liedyn.constrained_forward_dynamics_derivatives(m, d, cs, c, x, tau)[0].copy()
    assert relative_error(body, ddq_dx) > 1e-3  # the representation changes the twist and eta columns
    d2, c2 = liedyn.Data(m), liedyn.ConstraintData(m, cs)
    opt = liedyn.numdiff.NumDiffOptions(twist_representation=rep)
    fd = liedyn.numdiff.state_jacobian(m, lambda y: liedyn.constrained_forward_dynamics(m, d2, cs, c2, y, tau).copy(),
                                       x, opt)
    err = relative_error(ddq_dx, fd)
    print(f"Mixed columns by numdiff: FD relative error ddq_dx {err:.2e}")
    assert err < 2e-7


def test_derivative_solves_agree(solo):
    """The two KKT solves of the derivatives (KktDerivativeSolve) reach the same numbers by different
    operations: they agree to rounding (the KKT matrix's condition number ~1e4 times eps, 1e-11
    relative with a margin) and differ in the last digits, and Automatic takes SparseFactors below
    40 velocities (solo12 has 18): bit-identical to it. The linearize forms pass the choice on."""
    m, d, x = solo
    cs, c = four_feet_with_data(m, liedyn.TwistRepresentation.Mixed)
    tau = random_vector(m.nv, 9)
    KKT = liedyn.KktDerivativeSolve

    def derivatives(solve):
        out = liedyn.constrained_forward_dynamics_derivatives(m, d, cs, c, x, tau, derivative_solve=solve)
        return [a.copy() for a in out]

    sparse, dense, automatic = (derivatives(s) for s in (KKT.SparseFactors, KKT.DenseInverse, KKT.Automatic))
    for a, b, auto in zip(sparse, dense, automatic):
        print(f"sparse vs dense solve: relative difference {relative_error(a, b):.1e}")
        assert relative_error(a, b) < 1e-11
        np.testing.assert_array_equal(auto, a)
    assert any(not np.array_equal(a, b) for a, b in zip(sparse, dense))  # two routes indeed
    A_sparse = liedyn.linearize(m, d, cs, c, x, tau, derivative_solve=KKT.SparseFactors)[0].copy()
    A_dense = liedyn.linearize(m, d, cs, c, x, tau, derivative_solve=KKT.DenseInverse)[0].copy()
    np.testing.assert_array_equal(A_dense[m.nv:, :], dense[0])
    assert relative_error(A_sparse, A_dense) < 1e-11 and not np.array_equal(A_sparse, A_dense)


@pytest.mark.parametrize("rep", REPRESENTATIONS)
def test_constrained_linearize(solo, rep):
    m, d, x = solo
    cs, c = four_feet_with_data(m, liedyn.TwistRepresentation.Mixed, Kd=1.0)
    nv = m.nv
    tau = random_vector(nv, 9)
    opt = liedyn.LinearizationOptions(representation=rep)
    A, B = liedyn.linearize(m, d, cs, c, x, tau, opt)
    assert A.shape == (2 * nv, 2 * nv) and B.shape == (2 * nv, nv) and not np.shares_memory(A, d.A)
    np.testing.assert_array_equal(B, d.B)
    A, B = A.copy(), B.copy()
    # Rows of A and B: (eta, ds, dt, dr). The joint-acceleration rows are the derivatives, copied
    # (exact); so are the twist rows in the Body representation, where dt = d nu.
    n = m.num_joints
    rows = slice(nv, 2 * nv) if rep == BODY else slice(nv + 6, 2 * nv)
    cols = slice(0, nv) if rep == BODY else slice(6, nv)
    np.testing.assert_array_equal(A[rows], c.ddq_dx[cols])
    np.testing.assert_array_equal(B[rows], c.ddq_dtau[cols])
    np.testing.assert_array_equal(d.ddq, c.ddq)
    # Other representations: the twist rows are T (d nu'/d x) + G (linearization.hpp), so in B (no
    # G) T times the body rows, T = Ad_H (Inertial) or diag(R, R) (Mixed): 6-term products.
    R = x.H.rotation
    T = x.H.velocity_transform() if rep == liedyn.TwistRepresentation.Inertial else np.kron(np.eye(2), R)
    if rep != BODY:
        np.testing.assert_allclose(B[nv:nv + 6], T @ c.ddq_dtau[:6], rtol=0,
                                   atol=1e-15 * 6 * np.abs(T).max() * np.abs(c.ddq_dtau[:6]).max())
    c2 = liedyn.ConstraintData(m, cs)
    ddq_dx = liedyn.constrained_forward_dynamics_derivatives(m, liedyn.Data(m), cs, c2, x, tau, rep)[0]
    np.testing.assert_array_equal(c.ddq_dx, ddq_dx)  # same computation, same bits
    # The kinematic rows do not see the constraints in the Body representation (delta eta' and
    # delta s' depend on the velocities only): identical to the unconstrained linearize there.
    if rep == BODY:
        A_free = liedyn.linearize(m, liedyn.Data(m), x, tau, opt)[0]
        np.testing.assert_array_equal(A[:nv], A_free[:nv])
        assert np.abs(A[nv:] - A_free[nv:]).max() > 1e-3 * np.abs(A[nv:]).max()  # the constraints act
    # Actuated: B S for the joint torques.
    S = np.vstack([np.zeros((6, n)), np.eye(n)])
    u = random_vector(n, 10)
    A_u, Bu = liedyn.linearize_actuated(m, d, cs, c, x, S, u, opt)
    A_s, B_s = liedyn.linearize(m, liedyn.Data(m), cs, liedyn.ConstraintData(m, cs), x, S @ u, opt)
    np.testing.assert_array_equal(A_u, A_s)
    # B S by columns (GEMV) in C++, by numpy here: summation order differs, rounding of nv terms.
    np.testing.assert_allclose(Bu, B_s @ S, rtol=0, atol=1e-14 * nv * np.abs(B_s).max())


def test_constrained_discrete_step_and_its_jacobians(solo):
    m, d, x = solo
    cs, c = four_feet_with_data(m, Kd=1.0)
    nv, dt = m.nv, 1e-3
    tau = random_vector(nv, 11)
    # The step: semi-implicit Euler with the constrained accelerations (rounding of dt-scaled sums).
    y = liedyn.semi_implicit_euler_step(m, d, cs, c, x, tau, dt)
    ddq = liedyn.constrained_forward_dynamics(m, liedyn.Data(m), cs, liedyn.ConstraintData(m, cs), x, tau).copy()
    np.testing.assert_array_equal(c.ddq, ddq)
    nu_plus = x.nu + dt * ddq[:6]
    r_plus = x.r + dt * ddq[6:]
    np.testing.assert_allclose(y.nu, nu_plus, rtol=0, atol=1e-15 * 10 * np.abs(nu_plus).max())
    np.testing.assert_allclose(y.r, r_plus, rtol=0, atol=1e-15 * 10 * np.abs(r_plus).max())
    np.testing.assert_allclose(y.s, x.s + dt * r_plus, rtol=0, atol=1e-14)
    np.testing.assert_allclose(y.H.matrix(), (x.H * liedyn.SE3.exp(dt * nu_plus)).matrix(), rtol=0, atol=1e-14)
    # Other routes give the same accelerations (to the routes' agreement, as in test_extensions).
    y2 = liedyn.semi_implicit_euler_step(m, d, cs, c, x, tau, dt, liedyn.ConstrainedDynamicsRoute.Proximal)
    np.testing.assert_allclose(y2.r, y.r, rtol=0, atol=1e-10 * dt * np.abs(ddq).max())

    Ad, Bd = liedyn.linearize_discrete(m, d, cs, c, x, tau, dt)
    Ad, Bd = Ad.copy(), Bd.copy()
    A, B = liedyn.linearize(m, d, cs, c, x, tau)
    A, B = A.copy(), B.copy()
    # Discrete differs from continuous, by O(dt^2): Ad = 1 + dt A + O(dt^2), Bd = dt B + O(dt^2)
    # (s+ = s + dt r + dt^2 r' alone gives dt^2 terms). Second order is checked by halving dt: the
    # gaps shrink by ~4 (a first-order error, e.g. a wrong dt factor, would shrink by 2).
    def gaps(step):
        Ad_h, Bd_h = liedyn.linearize_discrete(m, liedyn.Data(m), cs, liedyn.ConstraintData(m, cs), x, tau, step)
        return np.abs(Ad_h - np.eye(2 * nv) - step * A).max(), np.abs(Bd_h - step * B).max()

    gap_A, gap_B = gaps(dt)
    half_A, half_B = gaps(dt / 2)
    print(f"discrete - continuous: {gap_A:.2e}, {gap_B:.2e}; ratios at dt/2 {gap_A / half_A:.3f}, {gap_B / half_B:.3f}")
    assert gap_A > 0 and gap_B > 0
    assert 3.5 < gap_A / half_A < 4.5 and 3.5 < gap_B / half_B < 4.5
    assert np.abs(Ad - A).max() > 0.1
    # Ad column by column against central differences of the step on the group: step(x (+) e) (-)
    # step(x). The step's map is smooth in x; FD_RTOL as for the continuous derivatives (the step
    # adds dt-scaled terms only).
    d2, c2 = liedyn.Data(m), liedyn.ConstraintData(m, cs)
    fd = central_fd(m, x, lambda z: liedyn.difference(m, y, liedyn.semi_implicit_euler_step(m, d2, cs, c2, z, tau, dt)))
    err = relative_error(Ad, fd)
    print(f"discrete step: FD relative error Ad {err:.2e}")
    assert err < FD_RTOL


def test_linearize_reduced(solo):
    m, d, x = solo
    cs, c = four_feet_with_data(m, liedyn.TwistRepresentation.Inertial, Kd=1.0)
    nv, mm = m.nv, cs.dimension()
    tau = random_vector(nv, 12)
    red = liedyn.ReducedLinearization(m, cs)
    assert red.dimension() == 0  # nothing computed yet
    liedyn.linearize_reduced(m, d, cs, c, x, tau, red)
    # Four independent point contacts: C = [J 0; velocity_dx] has rank 2m = 24, k = 36 - 24 = 12.
    assert red.rank == 2 * mm and red.dimension() == 2 * nv - 2 * mm
    P = red.basis
    assert P.shape == (2 * nv, red.dimension())
    # Orthonormal columns from Householder reflections: rounding of a few eps times 2nv.
    np.testing.assert_allclose(P.T @ P, np.eye(red.dimension()), rtol=0, atol=1e-14 * 2 * nv)
    C = np.vstack([np.hstack([c.J, np.zeros((mm, nv))]), c.velocity_dx])
    # P spans C's null space: C P = 0 up to the QR's backward error, ~eps |C| per entry times 2nv.
    np.testing.assert_allclose(C @ P, np.zeros((2 * mm, red.dimension())), rtol=0,
                               atol=1e-14 * 2 * nv * np.abs(C).max())
    # A_r = P^T A P and B_r = P^T B with A, B the full constrained linearization (left in data):
    # products of 2nv terms, summed in another order than numpy's.
    A, B = d.A.copy(), d.B.copy()
    np.testing.assert_allclose(red.A, P.T @ A @ P, rtol=0, atol=1e-14 * 4 * nv * np.abs(A).max())
    np.testing.assert_allclose(red.B, P.T @ B, rtol=0, atol=1e-14 * 2 * nv * np.abs(B).max())
    A2, B2 = liedyn.linearize(m, liedyn.Data(m), cs, liedyn.ConstraintData(m, cs), x, tau)
    np.testing.assert_array_equal(A, A2)
    np.testing.assert_array_equal(B, B2)
    # The properties are copies: a later call does not change what was read.
    kept = red.A
    liedyn.linearize_reduced(m, d, cs, c, liedyn.random_state(m, 4), tau, red)
    assert not np.array_equal(kept, red.A)


def test_reduced_at_an_equilibrium_is_invariant(solo):
    """At rest with tau = h (base wrench included) the constrained accelerations and forces vanish:
    an equilibrium on the manifold (point contacts have no position error), where A maps the
    tangent space into itself, A P = P A_r (header of constrained_linearization.hpp). Tolerance:
    rounding of the 2nv-term products, relative to |A|; off the equilibrium this fails by O(1)."""
    m, d, x = solo
    x.nu[:] = np.zeros(6)
    x.r[:] = np.zeros(m.num_joints)
    cs, c = four_feet_with_data(m)
    h = liedyn.bias_force(m, d, x).copy()
    red = liedyn.ReducedLinearization(m, cs)
    liedyn.linearize_reduced(m, d, cs, c, x, h, red)
    assert np.abs(c.ddq).max() < 1e-12 * np.abs(h).max()
    A, P = d.A.copy(), red.basis
    np.testing.assert_allclose(A @ P, P @ red.A, rtol=0, atol=1e-12 * np.abs(A).max())
    # Away from the equilibrium (other torques: nonzero forces and accelerations) it does not hold.
    liedyn.linearize_reduced(m, d, cs, c, x, h + random_vector(m.nv, 13) * np.abs(h).max(), red)
    A, P = d.A.copy(), red.basis
    assert np.abs(A @ P - P @ red.A).max() > 1e-6 * np.abs(A).max()


def test_errors(solo):
    m, d, x = solo
    cs, c = four_feet_with_data(m)
    bad = np.zeros(5)
    red = liedyn.ReducedLinearization(m, cs)
    S = np.zeros((18, 2))
    cases = [
        (lambda: liedyn.constrained_forward_dynamics_derivatives(m, d, cs, c, x, bad),
         "liedyn: constrained_forward_dynamics_derivatives: tau has size 5, expected 18"),
        (lambda: liedyn.linearize(m, d, cs, c, x, bad), "liedyn: linearize: tau has size 5, expected 18"),
        (lambda: liedyn.linearize_discrete(m, d, cs, c, x, bad, 0.01),
         "liedyn: linearize_discrete: tau has size 5, expected 18"),
        (lambda: liedyn.semi_implicit_euler_step(m, d, cs, c, x, bad, 0.01),
         "liedyn: semi_implicit_euler_step: tau has size 5, expected 18"),
        (lambda: liedyn.linearize_reduced(m, d, cs, c, x, bad, red),
         "liedyn: linearize_reduced: tau has size 5, expected 18"),
        (lambda: liedyn.linearize_actuated(m, d, cs, c, x, S, np.zeros(3)),
         "liedyn: linearize_actuated: actuation has size 18 x 2, expected 18 x 3"),
    ]
    for call, msg in cases:
        with pytest.raises(liedyn.InvalidArgument) as err:
            call()
        assert str(err.value) == msg
    # A ConstraintData, a ReducedLinearization or a Data for another set or model.
    two = liedyn.ConstraintSet(m, [liedyn.ConstraintSpec.point_contact(f) for f in FEET[:2]])
    c_two = liedyn.ConstraintData(m, two)
    tau = np.zeros(m.nv)
    with pytest.raises(liedyn.InvalidArgument, match="ConstraintData was sized for another model or constraint set"):
        liedyn.constrained_forward_dynamics_derivatives(m, d, cs, c_two, x, tau)
    with pytest.raises(liedyn.InvalidArgument, match="ConstraintData was sized for another"):
        liedyn.linearize(m, d, cs, c_two, x, tau)
    with pytest.raises(liedyn.InvalidArgument,
                       match="linearize_reduced: the ReducedLinearization was sized for another model or constraint"):
        liedyn.linearize_reduced(m, d, two, c_two, x, tau, red)
    other = liedyn.figure4_model()
    with pytest.raises(ValueError, match="liedyn: linearize_discrete: data was made for a model with 8 bodies"):
        liedyn.linearize_discrete(m, liedyn.Data(other), cs, c, x, tau, 0.01)
    with pytest.raises(liedyn.InvalidArgument, match="the constraint set was built for another model"):
        liedyn.ReducedLinearization(other, cs)
    with pytest.raises(liedyn.InvalidArgument, match="semi_implicit_euler_step: the constraint set was built for"):
        liedyn.semi_implicit_euler_step(other, liedyn.Data(other), cs, c, liedyn.random_state(other, 1), tau, 0.01)
    # The same rigid contact twice: J is rank deficient, the derivatives (exact KKT) refuse it.
    twice = liedyn.ConstraintSet(m, [liedyn.ConstraintSpec.rigid_contact("FL_FOOT")] * 2)
    with pytest.raises(liedyn.ConstraintError, match="rank deficient"):
        liedyn.constrained_forward_dynamics_derivatives(m, d, twice, liedyn.ConstraintData(m, twice), x, tau)
    # Wrong argument types: pybind11's TypeError (no overload matches), not a crash.
    with pytest.raises(TypeError):
        liedyn.linearize(m, d, cs, x, tau)  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        liedyn.linearize_reduced(m, d, cs, c, x, tau, None)  # type: ignore[arg-type]
