"""Every kernel: equal to the C++ results bit for bit (liedyn._testing.reference computes them in
C++ on its own Data from the same state and inputs), and checked against identities and finite
differences."""
import numpy as np
import pytest

import liedyn
from conftest import REPRESENTATIONS, random_vector

Body, Inertial, Mixed = REPRESENTATIONS


def same(a, b):
    """Bit for bit: the bindings pass doubles through unchanged."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("rep", REPRESENTATIONS)
def test_every_kernel_equals_cpp_bit_for_bit(model, rep):
    m = model
    ref = liedyn._testing.reference(m, 5, rep, 0.01)
    x, ddq, tau = ref["x"], ref["ddq"], ref["tau_in"]
    d = liedyn.Data(m)
    same(liedyn.rnea(m, d, x, ddq), ref["rnea"])
    same(liedyn.eidamb(m, d, x, ddq), ref["eidamb"])
    same(liedyn.bias_force(m, d, x), ref["bias_force"])
    same(liedyn.gravity_force(m, d, x), ref["gravity_force"])
    same(liedyn.coriolis_force(m, d, x), ref["coriolis_force"])
    same(liedyn.crba(m, d, x), ref["crba"])
    same(liedyn.ltdl_factorize(m, d), ref["ltdl"])
    same(liedyn.ltdl_solve(m, d, tau), ref["ltdl_solve"])
    same(liedyn.ltdl_inverse(m, d), ref["ltdl_inverse"])
    same(liedyn.immamb(m, d, x), ref["immamb"])
    same(liedyn.aba(m, d, x, tau), ref["aba"])
    for got, want in zip(liedyn.eidamb_derivatives(m, d, x, ddq, rep), ref["D"]):
        same(got, want)
    opt = liedyn.LinearizationOptions(representation=rep)
    for got, want in zip(liedyn.linearize(m, d, x, tau, opt), ref["linearize"]):
        same(got, want)
    for got, want in zip(liedyn.linearize_discrete(m, d, x, tau, 0.01, opt), ref["linearize_discrete"]):
        same(got, want)
    y, y_ref = liedyn.semi_implicit_euler_step(m, d, x, tau, 0.01), ref["step"]
    same(y.H.matrix(), y_ref.H.matrix())
    same(y.s, y_ref.s)
    same(y.nu, y_ref.nu)
    same(y.r, y_ref.r)
    body = m.num_bodies - 1
    same(liedyn.body_jacobian(m, d, x, body, rep), ref["body_jacobian"])
    same(liedyn.frame_velocity(m, d, x, body, liedyn.SE3(), rep), ref["frame_velocity"])
    same(liedyn.frame_acceleration_bias(m, d, x, body, liedyn.SE3(), rep), ref["frame_acceleration_bias"])
    # The reference reads data.H_world after forward_kinematics; frame_pose computes the body's
    # support chain alone, with its own sines and cosines: the same pose to rounding.
    np.testing.assert_allclose(liedyn.frame_pose(m, d, x, body, liedyn.SE3()).matrix(), ref["frame_pose"],
                               rtol=0, atol=1e-14)


def test_identities(model):
    m = model
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 9)
    ddq = random_vector(m.nv, 1)
    tau = liedyn.rnea(m, d, x, ddq).copy()
    scale = 1.0 + np.abs(tau).max()
    # Forward and inverse dynamics are inverses: relative 1e-12 (M's condition number times a few
    # roundings on these well-conditioned models).
    np.testing.assert_allclose(liedyn.aba(m, d, x, tau), ddq, rtol=0, atol=1e-11)
    np.testing.assert_allclose(liedyn.eidamb(m, d, x, ddq), tau, rtol=0, atol=1e-12 * scale)
    # h = G + V, and h = rnea(x, 0).
    h = liedyn.bias_force(m, d, x).copy()
    G = liedyn.gravity_force(m, d, x).copy()
    V = liedyn.coriolis_force(m, d, x).copy()
    np.testing.assert_allclose(G + V, h, rtol=0, atol=1e-12 * scale)
    np.testing.assert_allclose(liedyn.rnea(m, d, x, np.zeros(m.nv)), h, rtol=0, atol=0)
    # M M^-1 = I by independent algorithms (crba, immamb); crba from s equals crba from x.
    M = liedyn.crba(m, d, x).copy()
    same_M = liedyn.crba(m, d, x.s).copy()
    np.testing.assert_array_equal(M, same_M)
    np.testing.assert_allclose(M, M.T, rtol=0, atol=0)
    Minv = liedyn.immamb(m, d, x).copy()
    np.testing.assert_array_equal(liedyn.immamb(m, d, x.s), Minv)
    np.testing.assert_allclose(M @ Minv, np.eye(m.nv), rtol=0, atol=1e-11)
    np.testing.assert_allclose(M @ ddq + h, tau, rtol=0, atol=1e-12 * scale)
    # Reference routes.
    np.testing.assert_allclose(liedyn.mass_matrix_from_inverse_dynamics(m, d, x), M, rtol=0, atol=1e-12 * scale)
    np.testing.assert_allclose(liedyn.forward_dynamics_llt(m, d, x, tau), ddq, rtol=0, atol=1e-11)
    # AZA solves and LTDL.
    liedyn.aza_factorize(m, d, x.s)
    Y = np.column_stack([tau, h])
    np.testing.assert_allclose(liedyn.aza_solve(m, d, Y), Minv @ Y, rtol=0, atol=1e-11 * scale)
    liedyn.crba(m, d, x)
    LD = liedyn.ltdl_factorize(m, d).copy()
    L = np.tril(LD, -1) + np.eye(m.nv)
    np.testing.assert_allclose(L.T @ np.diag(np.diag(LD)) @ L, M, rtol=0, atol=1e-12 * np.abs(M).max())
    np.testing.assert_allclose(liedyn.ltdl_solve(m, d, tau), Minv @ tau, rtol=0, atol=1e-11 * scale)
    np.testing.assert_allclose(liedyn.ltdl_inverse(m, d), Minv, rtol=0, atol=1e-11)


def test_external_wrenches_enter_through_the_jacobian(model):
    m = model
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 4)
    ddq = random_vector(m.nv, 2)
    fext = np.zeros((m.num_bodies, 6))
    b = m.num_bodies - 1
    fext[b] = [1.0, -2.0, 0.5, 0.1, 0.3, -0.2]   # on the last body, in its frame
    J = liedyn.body_jacobian(m, d, x, b, Body)
    tau0 = liedyn.rnea(m, d, x, ddq).copy()
    # tau = M ddq + h - J_b^T f (the body Jacobian maps body-frame wrenches to generalized forces).
    np.testing.assert_allclose(liedyn.rnea(m, d, x, ddq, fext), tau0 - J.T @ fext[b], rtol=0, atol=1e-12)
    np.testing.assert_allclose(liedyn.eidamb(m, d, x, ddq, fext), tau0 - J.T @ fext[b], rtol=0, atol=1e-12)
    h = liedyn.bias_force(m, d, x, fext).copy()
    # At tau = h(x) (with the same wrenches) the robot does not accelerate.
    np.testing.assert_allclose(liedyn.aba(m, d, x, h, fext), np.zeros(m.nv), rtol=0, atol=1e-11)
    np.testing.assert_allclose(liedyn.aba(m, d, x, tau0, fext), liedyn.forward_dynamics_llt(m, d, x, tau0, fext),
                               rtol=0, atol=1e-10)
    step = liedyn.semi_implicit_euler_step(m, d, x, tau0, 0.01, fext)
    assert np.all(np.isfinite(step.s))
    A, B = liedyn.linearize(m, d, x, tau0, liedyn.LinearizationOptions(), fext)
    np.testing.assert_allclose(d.ddq, liedyn.forward_dynamics_llt(m, d, x, tau0, fext), rtol=0, atol=1e-10)
    D = liedyn.eidamb_derivatives(m, d, x, ddq, Body, fext)
    assert D[1].shape == (m.nv, m.num_joints)
    liedyn.linearize_discrete(m, d, x, tau0, 0.01, liedyn.LinearizationOptions(), fext)
    liedyn.linearize_actuated(m, d, x, np.eye(m.nv), tau0, liedyn.LinearizationOptions(), fext)
    with pytest.raises(ValueError, match=r"liedyn: rnea: external wrenches has size \d+, expected \d+ \(one entry per body\)"):
        liedyn.rnea(m, d, x, ddq, np.zeros((2, 6)))
    with pytest.raises(ValueError, match=r"liedyn: aba: external wrenches must be an array of shape"):
        liedyn.aba(m, d, x, ddq, np.zeros((m.num_bodies, 5)))


@pytest.mark.parametrize("rep", REPRESENTATIONS)
def test_derivatives_and_linearization_against_finite_differences(model, rep):
    m = model
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 6)
    ddq = random_vector(m.nv, 3)
    tau = random_vector(m.nv, 4)
    D1, D2, D3, D4 = [np.array(a) for a in liedyn.eidamb_derivatives(m, d, x, ddq, rep)]
    work = liedyn.Data(m)
    opt = liedyn.numdiff.NumDiffOptions(twist_representation=rep)
    K = liedyn.numdiff.state_jacobian(m, lambda y: liedyn.rnea(m, work, y, ddq).copy(), x, opt)
    # Central differences in double: error ~ eps^(2/3) times the data's scale (~1e-10 here).
    tol = 1e-7 * (1.0 + np.abs(K).max())
    np.testing.assert_allclose(np.hstack([D1, D2, D3, D4]), K, rtol=0, atol=tol)
    # The linearization against a finite difference of the forward dynamics' state derivative,
    # block by block: the bottom rows (twist and joint accelerations in `rep`).
    lo = liedyn.LinearizationOptions(representation=rep)
    A, B = [np.array(a) for a in liedyn.linearize(m, d, x, tau, lo)]
    np.testing.assert_allclose(d.ddq, liedyn.aba(m, work, x, tau), rtol=0, atol=1e-11)

    def fd_rate(y):
        # The rate of the twist of `rep` and of r: d/dt of (t, r) along the motion.
        qdd = liedyn.aba(m, work, y, tau).copy()
        if not m.has_moving_base:
            return qdd
        t_dot = liedyn.base_acceleration_from_body(y.H, y.nu, qdd[:6], rep)
        return np.concatenate([t_dot, qdd[6:]])

    Kfd = liedyn.numdiff.state_jacobian(m, fd_rate, x, opt)
    np.testing.assert_allclose(A[m.nv:, :], Kfd, rtol=0, atol=1e-6 * (1.0 + np.abs(Kfd).max()))
    Bfd = liedyn.numdiff.vector_jacobian(lambda u: fd_rate_tau(m, work, x, u, rep), tau)
    np.testing.assert_allclose(B[m.nv:, :], Bfd, rtol=0, atol=1e-6 * (1.0 + np.abs(Bfd).max()))
    # linearize_actuated with S: B S, and A unchanged.
    S = np.random.default_rng(0).standard_normal((m.nv, 3))
    u = np.linalg.lstsq(S, tau, rcond=None)[0]
    A2, BS = liedyn.linearize_actuated(m, d, x, S, u, lo)
    tau_u = S @ u
    A3, B3 = [np.array(a) for a in liedyn.linearize(m, work, x, tau_u, lo)]
    np.testing.assert_allclose(A2, A3, rtol=0, atol=1e-12 * (1.0 + np.abs(A3).max()))
    np.testing.assert_allclose(BS, B3 @ S, rtol=0, atol=1e-12 * (1.0 + np.abs(B3).max()))
    # Every M^-1 route gives the same A (Dense, Sweeps).
    Ad = np.array(liedyn.linearize(m, d, x, tau, liedyn.LinearizationOptions(rep, liedyn.MinvMethod.Dense))[0])
    As = np.array(liedyn.linearize(m, d, x, tau, liedyn.LinearizationOptions(rep, liedyn.MinvMethod.Sweeps))[0])
    np.testing.assert_allclose(Ad, As, rtol=0, atol=1e-10 * (1.0 + np.abs(Ad).max()))


def fd_rate_tau(m, work, x, u, rep):
    qdd = liedyn.aba(m, work, x, u).copy()
    if not m.has_moving_base:
        return qdd
    return np.concatenate([liedyn.base_acceleration_from_body(x.H, x.nu, qdd[:6], rep), qdd[6:]])


@pytest.mark.parametrize("rep", REPRESENTATIONS)
def test_discrete_linearization_against_finite_differences(model, rep):
    m = model
    d, work = liedyn.Data(m), liedyn.Data(m)
    x = liedyn.random_state(m, 8)
    tau = random_vector(m.nv, 5)
    dt = 0.01
    A, B = [np.array(a) for a in liedyn.linearize_discrete(m, d, x, tau, dt, liedyn.LinearizationOptions(rep))]
    opt = liedyn.numdiff.NumDiffOptions(twist_representation=rep)
    y0 = liedyn.semi_implicit_euler_step(m, work, x, tau, dt)

    def tangent(y):
        # y (-) y0 with the twist coordinates in `rep` (what delta x+ means in that representation).
        dxv = liedyn.difference(m, y0, y)
        if m.has_moving_base:
            n = m.num_joints
            dxv[6 + n:12 + n] = y.base_twist(rep) - y0.base_twist(rep)
        return dxv

    Afd = liedyn.numdiff.state_jacobian(m, lambda y: tangent(liedyn.semi_implicit_euler_step(m, work, y, tau, dt)),
                                        x, opt)
    np.testing.assert_allclose(A, Afd, rtol=0, atol=1e-7 * (1.0 + np.abs(Afd).max()))
    Bfd = liedyn.numdiff.vector_jacobian(
        lambda u: tangent(liedyn.semi_implicit_euler_step(m, work, x, u, dt)), tau)
    np.testing.assert_allclose(B, Bfd, rtol=0, atol=1e-7 * (1.0 + np.abs(Bfd).max()))


@pytest.mark.parametrize("rep", REPRESENTATIONS)
def test_kinematics(model, rep):
    m = model
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 2)
    liedyn.forward_kinematics(m, d, x)
    Hw = d.H_world
    assert len(Hw) == m.num_bodies
    np.testing.assert_array_equal(Hw[0].matrix(), liedyn.base_pose(m, x).matrix())
    np.testing.assert_array_equal(d.v[0], x.nu if m.has_moving_base else np.zeros(6))
    assert d.v.shape == (m.num_bodies, 6) and len(d.H_parent) == m.num_bodies
    liedyn.forward_poses(m, d, x)
    liedyn.forward_velocity(m, d, x)
    v = x.velocity(m)
    for f in range(len(m.frames)):
        fr = m.frame(f)
        J = liedyn.frame_jacobian(m, d, x, f, rep)
        np.testing.assert_array_equal(J, liedyn.frame_jacobian(m, d, x, fr.body, fr.placement, rep))
        # v_F = J q' (two routes, a few roundings apart).
        np.testing.assert_allclose(liedyn.frame_velocity(m, d, x, f, rep), J @ v, rtol=0, atol=1e-13)
        np.testing.assert_array_equal(liedyn.frame_velocity(m, d, x, fr.body, fr.placement, rep),
                                      liedyn.frame_velocity(m, d, x, f, rep))
        np.testing.assert_array_equal(liedyn.frame_acceleration_bias(m, d, x, f, rep),
                                      liedyn.frame_acceleration_bias(m, d, x, fr.body, fr.placement, rep))
        np.testing.assert_array_equal(liedyn.frame_pose(m, d, x, f).matrix(),
                                      liedyn.frame_pose(m, d, x, fr.body, fr.placement).matrix())
        np.testing.assert_array_equal(liedyn.frame_pose(m, d, x, fr.name).matrix(),
                                      liedyn.frame_pose(m, d, x, f).matrix())
    # J' q' against a finite difference of J(x) q' along the motion with q'' = 0.
    b = m.num_bodies - 1
    bias = liedyn.frame_acceleration_bias(m, d, x, b, liedyn.SE3(), rep)
    eps = 1e-6
    xs = liedyn.integrate(m, x, np.concatenate([eps * v, np.zeros(m.nv)]))
    xs.nu[:] = x.nu
    xs.r[:] = x.r
    fd = (liedyn.frame_velocity(m, d, xs, b, liedyn.SE3(), rep) - liedyn.frame_velocity(m, d, x, b, liedyn.SE3(), rep)) / eps
    # Forward difference: error O(eps) times the second derivative (~1 here).
    np.testing.assert_allclose(bias, fd, rtol=0, atol=1e-5)
    np.testing.assert_array_equal(liedyn.body_jacobian(m, d, x, b, rep),
                                  liedyn.frame_jacobian(m, d, x, b, liedyn.SE3(), rep))


def test_numdiff_helpers():
    assert liedyn.numdiff.default_step(liedyn.numdiff.DifferenceScheme.Central) == pytest.approx(6.055e-6, rel=1e-3)
    Aq = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.0]])
    J = liedyn.numdiff.vector_jacobian(lambda v: Aq @ v, np.array([0.3, -0.2]))
    np.testing.assert_allclose(J, Aq, rtol=0, atol=1e-10)  # linear: only rounding of the quotient
    fw = liedyn.numdiff.NumDiffOptions(scheme=liedyn.numdiff.DifferenceScheme.Forward, step=1e-7,
                                       relative_step=False)
    assert fw.step == 1e-7 and not fw.relative_step
    np.testing.assert_allclose(liedyn.numdiff.vector_jacobian(lambda v: float(v @ v), np.array([1.0, 2.0]), fw),
                               [[2.0, 4.0]], rtol=0, atol=1e-6)  # forward: O(step)
    m = liedyn.figure4_model()
    x = liedyn.random_state(m, 1)
    full = liedyn.numdiff.state_jacobian(m, lambda y: y.s.copy(), x)
    blk = liedyn.numdiff.state_jacobian_block(m, lambda y: y.s.copy(), x, liedyn.numdiff.StateBlock.JointPositions)
    np.testing.assert_array_equal(full[:, 6:6 + m.num_joints], blk)
    np.testing.assert_allclose(blk, np.eye(m.num_joints), rtol=0, atol=1e-9)
    # A matrix-valued f is flattened column-major; a scalar gives one row.
    M = liedyn.numdiff.state_jacobian_block(m, lambda y: np.outer(y.r, y.r), x,
                                            liedyn.numdiff.StateBlock.JointVelocities)
    assert M.shape == (m.num_joints ** 2, m.num_joints)
    with pytest.raises(ValueError, match="numdiff.state_jacobian"):
        liedyn.numdiff.state_jacobian(m, lambda y: y.s, liedyn.State(liedyn.SE3(), np.zeros(2), np.zeros(6),
                                                                       np.zeros(2)))
