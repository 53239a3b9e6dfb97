"""The batch layer from Python: every batch kernel equals its single call bit for bit, for
any number of threads; errors name the state; the GIL is released while C++ runs."""
import os
import threading
from typing import Any

import numpy as np
import pytest

import liedyn
from conftest import DATA_DIR, MODELS, four_feet

THREADS = [1, 2, 3]
N = 7  # not a multiple of 2 or 3: uneven shards


def multi_dof_models():
    """cassie (a free base, hinges, two ball joints) and a planar plus a floating URDF joint."""
    return {
        "cassie": lambda: liedyn.load_mjcf_robot_file(
            os.path.join(DATA_DIR, "mjcf", "cassie.xml")).model,
        "planar_floating": lambda: liedyn.load_urdf_file(
            os.path.join(DATA_DIR, "planar_floating.urdf")),
    }


ALL_MODELS = {**MODELS, **multi_dof_models()}


@pytest.fixture(params=sorted(ALL_MODELS))
def any_model(request):
    return ALL_MODELS[request.param]()


def states_and_inputs(m, n=N):
    xs = [liedyn.random_state(m, 100 + i) for i in range(n)]
    u = np.random.default_rng(5).uniform(-1.0, 1.0, (n, m.nv))
    return xs, liedyn.batch_states(m, xs), u


def test_batch_states_round_trip_exactly(any_model):
    m = any_model
    xs, X, _ = states_and_inputs(m)
    assert X.shape == (N, liedyn.batch_state_size(m))
    for x, y in zip(xs, liedyn.batch_state_list(m, X)):
        assert np.array_equal(x.H.matrix(), y.H.matrix())
        assert np.array_equal(x.s, y.s) and np.array_equal(x.r, y.r)
        if m.has_moving_base:
            assert np.array_equal(x.nu, y.nu)


@pytest.mark.parametrize("threads", THREADS)
def test_unconstrained_kernels_equal_single_calls(any_model, threads):
    m = any_model
    xs, X, u = states_and_inputs(m)
    ws = liedyn.BatchWorkspace(m, threads)
    assert ws.threads == threads
    d = liedyn.Data(m)
    opt = liedyn.LinearizationOptions(liedyn.TwistRepresentation.Mixed)
    single: dict[str, list[Any]] = {
        "rnea": [liedyn.rnea(m, d, x, u[i]) for i, x in enumerate(xs)],
        "eidamb": [liedyn.eidamb(m, d, x, u[i]) for i, x in enumerate(xs)],
        "aba": [liedyn.aba(m, d, x, u[i]) for i, x in enumerate(xs)],
        "crba": [liedyn.crba(m, d, x) for x in xs],
        "immamb": [liedyn.immamb(m, d, x) for x in xs],
        "centroidal": [liedyn.centroidal_momentum(m, d, x) for x in xs],
        "D": [liedyn.eidamb_derivatives(m, d, x, u[i], liedyn.TwistRepresentation.Inertial)
              for i, x in enumerate(xs)],
        "lin": [liedyn.linearize(m, d, x, u[i], opt) for i, x in enumerate(xs)],
        "disc": [liedyn.linearize_discrete(m, d, x, u[i], 0.01, opt) for i, x in enumerate(xs)],
    }
    batch: dict[str, Any] = {
        "rnea": liedyn.batch_rnea(m, ws, X, u),
        "eidamb": liedyn.batch_eidamb(m, ws, X, u),
        "aba": liedyn.batch_aba(m, ws, X, u),
        "crba": liedyn.batch_crba(m, ws, X),
        "immamb": liedyn.batch_immamb(m, ws, X),
        "centroidal": liedyn.batch_centroidal_momentum(m, ws, X),
        "D": liedyn.batch_eidamb_derivatives(m, ws, X, u, liedyn.TwistRepresentation.Inertial),
        "lin": liedyn.batch_linearize(m, ws, X, u, opt),
        "disc": liedyn.batch_linearize_discrete(m, ws, X, u, 0.01, opt),
    }
    for name, results in single.items():
        for i, r in enumerate(results):
            if isinstance(r, tuple):
                for part, whole in zip(r, batch[name]):
                    assert np.array_equal(part, whole[i]), (name, i)
            else:
                assert np.array_equal(r, batch[name][i]), (name, i)
    # Frame placements: the frames' poses after forward_poses at each state. frame_pose computes
    # the frame's support chain alone, its joints' sines and cosines one by one rather than all
    # at once (vectorized): the same poses to rounding.
    ids = list(range(0, len(m.frame_names), 3))
    R, p = liedyn.batch_frame_placements(m, ws, X, ids)
    assert R.shape == (N, len(ids), 3, 3) and p.shape == (N, len(ids), 3)
    for i, x in enumerate(xs):
        liedyn.forward_poses(m, d, x)
        H_world = d.H_world
        for k, f in enumerate(ids):
            fr = m.frame(f)
            H = H_world[fr.body] * fr.placement
            assert np.array_equal(H.rotation, R[i, k]) and np.array_equal(H.translation, p[i, k])
            np.testing.assert_allclose(liedyn.frame_pose(m, d, x, f).matrix(), H.matrix(), rtol=0, atol=1e-14)


@pytest.mark.parametrize("threads", [1, 2])
def test_constrained_kernels_equal_single_calls(solo12, threads):
    m = solo12
    cs = four_feet(m, liedyn.TwistRepresentation.Mixed)
    xs, X, u = states_and_inputs(m)
    ws = liedyn.BatchWorkspace(m, cs, threads)
    assert ws.has_constraints and not liedyn.BatchWorkspace(m).has_constraints
    assert repr(ws) == f"liedyn.BatchWorkspace(threads={threads}, constraint rows=12)"
    d, cd = liedyn.Data(m), liedyn.ConstraintData(m, cs)
    ddq, lam = liedyn.batch_constrained_forward_dynamics(m, cs, ws, X, u)
    derivs = liedyn.batch_constrained_forward_dynamics_derivatives(
        m, cs, ws, X, u, liedyn.TwistRepresentation.Inertial)
    v_after, impulse = liedyn.batch_impulse_dynamics(m, cs, ws, X, 0.5)
    for i, x in enumerate(xs):
        assert np.array_equal(liedyn.constrained_forward_dynamics(m, d, cs, cd, x, u[i]), ddq[i])
        assert np.array_equal(getattr(cd, "lambda"), lam[i])
        single = liedyn.constrained_forward_dynamics_derivatives(
            m, d, cs, cd, x, u[i], liedyn.TwistRepresentation.Inertial)
        for part, whole in zip(single, derivs):
            assert np.array_equal(part, whole[i])
        assert np.array_equal(liedyn.impulse_dynamics(m, d, cs, cd, x, 0.5), v_after[i])
        assert np.array_equal(cd.impulse, impulse[i])


@pytest.mark.parametrize("threads", [1, 2])
def test_rollouts_equal_repeated_steps(solo12, threads):
    m = solo12
    xs, X, _ = states_and_inputs(m, 3)
    K, dt = 4, 0.01
    controls = np.random.default_rng(9).uniform(-1.0, 1.0, (3, K, m.nv))
    ws = liedyn.BatchWorkspace(m, threads)
    traj = liedyn.batch_rollout(m, ws, X, controls, dt)
    traj_j, A, B = liedyn.batch_rollout_with_jacobians(m, ws, X, controls, dt)
    assert traj.shape == (3, K + 1, liedyn.batch_state_size(m))
    assert A.shape == (3, K, 2 * m.nv, 2 * m.nv) and B.shape == (3, K, 2 * m.nv, m.nv)
    assert np.array_equal(traj, traj_j)
    d = liedyn.Data(m)
    for i, x in enumerate(xs):
        for k in range(K):
            assert np.array_equal(liedyn.batch_states(m, [x])[0], traj[i, k])
            Ak, Bk = liedyn.linearize_discrete(m, d, x, controls[i, k], dt)
            assert np.array_equal(Ak, A[i, k]) and np.array_equal(Bk, B[i, k])
            x = liedyn.semi_implicit_euler_step(m, d, x, controls[i, k], dt)
        assert np.array_equal(liedyn.batch_states(m, [x])[0], traj[i, K])


def test_constrained_rollout_equals_constrained_steps(solo12):
    m = solo12
    cs = four_feet(m)
    xs, X, _ = states_and_inputs(m, 2)
    controls = np.random.default_rng(4).uniform(-1.0, 1.0, (2, 3, m.nv))
    ws = liedyn.BatchWorkspace(m, cs, 2)
    traj = liedyn.batch_rollout(m, cs, ws, X, controls, 0.005)
    d, cd = liedyn.Data(m), liedyn.ConstraintData(m, cs)
    for i, x in enumerate(xs):
        for k in range(3):
            x = liedyn.semi_implicit_euler_step(m, d, cs, cd, x, controls[i, k], 0.005)
        assert np.array_equal(liedyn.batch_states(m, [x])[0], traj[i, 3])


def test_out_receives_the_result_in_place(solo12):
    m = solo12
    _, X, u = states_and_inputs(m)
    ws = liedyn.BatchWorkspace(m, 2)
    ddq = liedyn.batch_aba(m, ws, X, u)
    again = liedyn.batch_aba(m, ws, X, 2 * u, out=ddq)
    assert again is ddq
    assert np.array_equal(ddq, liedyn.batch_aba(m, ws, X, 2 * u))
    M = liedyn.batch_crba(m, ws, X)
    assert liedyn.batch_crba(m, ws, X, out=M) is M
    with pytest.raises(ValueError, match="strides"):
        liedyn.batch_crba(m, ws, X, out=np.empty((N, m.nv, m.nv)))  # C order: M_i transposed
    with pytest.raises(ValueError, match="shape"):
        liedyn.batch_aba(m, ws, X, u, out=np.empty((N, m.nv + 1)))


def test_bad_input_gets_a_clear_error(solo12):
    m = solo12
    _, X, u = states_and_inputs(m)
    ws = liedyn.BatchWorkspace(m)
    with pytest.raises(liedyn.InvalidArgument, match=r"states has shape \(7, \d+\), expected \(7, \d+\)"):
        liedyn.batch_aba(m, ws, X[:, :-1], u)
    with pytest.raises(liedyn.InvalidArgument, match=r"tau has shape \(6, 18\)"):
        liedyn.batch_aba(m, ws, X, u[:-1])
    with pytest.raises(TypeError, match="complex"):
        liedyn.batch_aba(m, ws, X, u.astype(complex))
    Y = X.copy()
    Y[3, 20] = np.nan
    with pytest.raises(liedyn.InvalidArgument, match="states has a non-finite entry"):
        liedyn.batch_aba(m, ws, Y, u)
    other = liedyn.load_urdf_file(os.path.join(DATA_DIR, "solo12.urdf"))
    with pytest.raises(liedyn.InvalidArgument, match="another model|built for"):
        liedyn.batch_aba(other, ws, X, u)
    with pytest.raises(liedyn.InvalidArgument, match="threads must be at least 1"):
        liedyn.BatchWorkspace(m, 0)


def test_a_failing_state_is_named(solo12):
    m = solo12
    # The same foot twice: J has dependent rows at every state; the lowest state is named.
    specs = [liedyn.ConstraintSpec.point_contact("FL_FOOT")] * 2
    cs = liedyn.ConstraintSet(m, specs)
    _, X, u = states_and_inputs(m)
    ws = liedyn.BatchWorkspace(m, cs, 2)
    with pytest.raises(Exception, match="state 0"):
        liedyn.batch_constrained_forward_dynamics(m, cs, ws, X, u)


def test_the_gil_is_released_while_cpp_runs(solo12):
    """While one thread's batch call runs, another thread runs Python and reaches the same
    workspace: it is refused as in use. With the GIL held for the call, the second thread could
    not run until the call returned, and would never see the workspace in use."""
    m = solo12
    _, X, u = states_and_inputs(m, 1)
    big = np.repeat(X, 3000, axis=0)
    tau = np.repeat(u, 3000, axis=0)
    ws = liedyn.BatchWorkspace(m)
    done = threading.Event()
    seen: list[str] = []

    def long_call():
        try:
            liedyn.batch_linearize(m, ws, big, tau)
        finally:
            done.set()

    t = threading.Thread(target=long_call)
    t.start()
    while not done.is_set() and not seen:
        try:
            liedyn.batch_aba(m, ws, X, u)
        except liedyn.InvalidArgument as e:
            seen.append(str(e))
    t.join()
    assert seen and "batch workspace is in use by a call in another thread" in seen[0]


def test_threads_with_their_own_data_get_the_serial_results(solo12):
    m = solo12
    xs, _, u = states_and_inputs(m)
    d = liedyn.Data(m)
    serial = [liedyn.linearize(m, d, x, u[i]) for i, x in enumerate(xs)]
    results = {}

    def work(k):
        dk = liedyn.Data(m)
        results[k] = [liedyn.linearize(m, dk, x, u[i]) for i, x in enumerate(xs) for _ in range(20)]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(3):
        for j, (A, B) in enumerate(results[k]):
            assert np.array_equal(A, serial[j // 20][0]) and np.array_equal(B, serial[j // 20][1])


def test_empty_batches_and_empty_dimensions(solo12):
    m = solo12
    _, X, u = states_and_inputs(m, 3)
    ws = liedyn.BatchWorkspace(m, 2)
    assert liedyn.batch_aba(m, ws, X[:0], u[:0]).shape == (0, m.nv)
    assert liedyn.batch_crba(m, ws, X[:0]).shape == (0, m.nv, m.nv)
    # K = 0 steps: each trajectory is its initial state.
    traj = liedyn.batch_rollout(m, ws, X, np.zeros((3, 0, m.nv)), 0.01)
    assert traj.shape == (3, 1, X.shape[1]) and np.array_equal(traj[:, 0], X)
    # No constraint rows: lambda and its derivatives have 0 rows per state.
    empty = liedyn.ConstraintSet(m, [])
    wse = liedyn.BatchWorkspace(m, empty, 2)
    ddq, lam = liedyn.batch_constrained_forward_dynamics(m, empty, wse, X, u)
    assert lam.shape == (3, 0)
    # Another route to the same accelerations (a factorization of M, not ABA): round-off apart.
    aba = liedyn.batch_aba(m, ws, X, u)
    assert np.abs(ddq - aba).max() <= 1e-10 * np.abs(aba).max()
    assert liedyn.batch_constrained_forward_dynamics_derivatives(m, empty, wse, X, u)[1].shape \
        == (3, 0, 2 * m.nv)
