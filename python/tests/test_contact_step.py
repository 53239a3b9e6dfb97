"""The time step with frictional unilateral point contacts from Python (liedyn.step,
docs/frictional-contacts.md) and its batch (batch_contact_step, batch_rollout with a
ContactBatchWorkspace): the C++ test scenes' answers (tests/test_contact_step.cpp: a cube sticking
and sliding on an incline, a ball dropped on the ground) with the same bounds; the batch equal bit
for bit to the loop of step, for 1, 2 and 3 threads; bad input named; the GIL released."""
import math
import threading

import numpy as np
import pytest

import liedyn

GRAVITY = 9.81  # ModelBuilder's default |g|


def cube_model(a=0.2, m=1.5):
    """A free cube of side a and mass m, its body origin at its centre."""
    inertia = liedyn.SpatialInertia.from_mass_com_inertia(m, np.zeros(3), np.eye(3) * m * a * a / 6)
    return liedyn.ModelBuilder(liedyn.BaseType.Moving, "cube", inertia).build()


def ball_model(r=0.1, m=0.5):
    """A free solid ball of radius r and mass m, its body origin at its centre."""
    inertia = liedyn.SpatialInertia.from_mass_com_inertia(m, np.zeros(3), np.eye(3) * 0.4 * m * r * r)
    return liedyn.ModelBuilder(liedyn.BaseType.Moving, "ball", inertia).build()


def rotation_y(theta):
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def incline(theta):
    """The plane through the origin tilted by theta about A's y axis (downhill: +x of the cube)."""
    return liedyn.ContactPlane.through(np.zeros(3), np.array([math.sin(theta), 0.0, math.cos(theta)]))


def cube_corners(a, plane, mu):
    return [liedyn.ContactPointSpec.on_body("cube", np.array([sx * a / 2, sy * a / 2, -a / 2]), plane, mu)
            for sx in (-1.0, 1.0) for sy in (-1.0, 1.0)]


def cube_on_incline(model, a, theta, lift=0.0):
    x = liedyn.State(model)
    R = rotation_y(theta)
    x.H = liedyn.SE3(R, R @ np.array([0.0, 0.0, a / 2 + lift]))
    return x


@pytest.mark.parametrize("solver", [liedyn.ContactSolver.Admm, liedyn.ContactSolver.Pgs])
def test_a_cube_on_an_incline_sticks_when_tan_theta_is_below_mu(solver):
    a, m, theta, mu, dt = 0.2, 1.5, math.atan(0.42), 0.6, 1e-3
    model = cube_model(a, m)
    ws = liedyn.ContactStepWorkspace(model, cube_corners(a, incline(theta), mu))
    settings = liedyn.ContactStepSettings()
    settings.solver = solver
    x = cube_on_incline(model, a, theta)
    start = x.H.translation.copy()
    tau = np.zeros(6)
    largest_speed = 0.0
    results: list[liedyn.ContactStepResult] = []
    for _ in range(200):
        x, result = liedyn.step(model, ws, x, tau, dt, settings)
        results.append(result)
        largest_speed = max(largest_speed, float(np.linalg.norm(x.nu)))
    assert all(r.converged for r in results)
    assert all(r.active_contacts == 4 and r.active == [0, 1, 2, 3] for r in results)
    # The C++ test's bounds: the solver's 1.5e-10 m/s through J^-1, 1e-8; 200 steps, 2e-9 m.
    assert largest_speed < 1e-8
    assert np.linalg.norm(x.H.translation - start) < 2e-9
    # The impulses carry the weight (t1 = downhill): sum lambda_n = m g cos(theta) dt, sum
    # lambda_t1 = -m g sin(theta) dt, to the solver's tolerance relative to them (1e-8).
    impulses = results[-1].impulses
    assert impulses.shape == (4, 3)
    assert abs(impulses[:, 2].sum() - m * GRAVITY * math.cos(theta) * dt) < 1e-8 * m * GRAVITY * dt
    assert abs(impulses[:, 0].sum() + m * GRAVITY * math.sin(theta) * dt) < 1e-8 * m * GRAVITY * dt
    # The contact frame: n the plane's unit normal, t1 downhill.
    axes = ws.axes
    assert axes.shape == (4, 3, 3)
    np.testing.assert_allclose(axes[0][:, 2], [math.sin(theta), 0.0, math.cos(theta)], rtol=0, atol=1e-15)
    np.testing.assert_allclose(axes[0][:, 0], [math.cos(theta), 0.0, -math.sin(theta)], rtol=0, atol=1e-15)
    assert results[-1].iterations >= 0 and results[-1].primal_residual >= 0
    assert results[-1].dual_residual >= 0 and results[-1].complementarity_residual >= 0
    assert results[-1].contact_velocity.shape == (4, 3)


@pytest.mark.parametrize("solver", [liedyn.ContactSolver.Admm, liedyn.ContactSolver.Pgs])
def test_a_cube_on_an_incline_slides_with_the_analytic_acceleration(solver):
    a, m, theta, mu, dt = 0.2, 1.5, math.atan(0.42), 0.3, 1e-3
    analytic = GRAVITY * (math.sin(theta) - mu * math.cos(theta))
    model = cube_model(a, m)
    ws = liedyn.ContactStepWorkspace(model, cube_corners(a, incline(theta), mu))
    settings = liedyn.ContactStepSettings()
    settings.solver = solver
    x = cube_on_incline(model, a, theta)
    tau = np.zeros(6)
    converged, lowest_gap, speed_at_100 = True, 0.0, 0.0
    for k in range(1, 201):
        x, result = liedyn.step(model, ws, x, tau, dt, settings)
        converged = converged and result.converged
        lowest_gap = min(lowest_gap, float(result.gap.min()))
        if k == 100:
            speed_at_100 = x.nu[0]
    assert converged
    # The C++ test's bounds: 1e-6 relative on the acceleration, the gaps at rounding level.
    assert abs((x.nu[0] - speed_at_100) / (100 * dt) - analytic) < 1e-6 * analytic
    assert abs(x.nu[0] - 200 * dt * analytic) < 1e-6 * 200 * dt * analytic
    assert lowest_gap > -1e-12


def test_a_dropped_ball_comes_to_rest_without_penetrating():
    r, dt = 0.1, 1e-3
    model = ball_model(r)
    spec = liedyn.ContactPointSpec(body="ball", plane=liedyn.ContactPlane.ground(), friction=0.5, radius=r)
    ws = liedyn.ContactStepWorkspace(model, [spec])
    assert ws.names == ["ball"] and ws.num_contacts == 1
    x = liedyn.State(model)
    x.H = liedyn.SE3(np.eye(3), np.array([0.0, 0.0, 0.6]))
    lowest, highest_after_touch, touched, converged = 1.0, -1.0, False, True
    for _ in range(1000):
        x, result = liedyn.step(model, ws, x, np.zeros(6), dt)
        converged = converged and result.converged
        gap = x.H.translation[2] - r
        lowest = min(lowest, gap)
        if touched:
            highest_after_touch = max(highest_after_touch, gap)
        touched = touched or gap < 1e-9
    assert converged and touched
    # The C++ test's bounds: closed exactly within the margin (1e-12 m), no bounce (1e-9 m), at
    # rest to the solver's tolerance (1e-9 m/s).
    assert lowest > -1e-12
    assert highest_after_touch < 1e-9
    assert np.linalg.norm(x.nu) < 1e-9
    # Resting: the impulse carries the weight over the step, m g dt.
    assert abs(result.impulses[0, 2] - 0.5 * GRAVITY * dt) < 1e-8 * 0.5 * GRAVITY * dt


def landing_cubes(model, n, seed):
    """n cube states 5 to 15 mm above the incline (outside or inside the 1 cm margin) with random
    twists, as a batch array."""
    rng = np.random.default_rng(seed)
    xs = []
    for _ in range(n):
        x = cube_on_incline(model, 0.2, math.atan(0.42), lift=rng.uniform(0.005, 0.015))
        x.nu[:] = rng.uniform(-0.3, 0.3, 6)
        xs.append(x)
    return xs, liedyn.batch_states(model, xs)


@pytest.mark.parametrize("solver", [liedyn.ContactSolver.Admm, liedyn.ContactSolver.Pgs])
def test_contact_rollouts_equal_the_loop_of_step_for_1_2_3_threads(solver):
    model = cube_model()
    contacts = cube_corners(0.2, incline(math.atan(0.42)), 0.3)
    N, K, dt = 5, 40, 1e-3
    xs, X = landing_cubes(model, N, 3)
    controls = np.random.default_rng(4).uniform(-0.5, 0.5, (N, K, 6))
    settings = liedyn.ContactStepSettings()
    settings.solver = solver
    states = np.empty((N, K + 1, liedyn.batch_state_size(model)))
    impulses = np.empty((N, K, 4, 3))
    iterations = np.empty((N, K), dtype=np.int32)
    active = np.empty((N, K), dtype=np.int32)
    converged = np.empty((N, K), dtype=bool)
    residuals = np.empty((N, K, 3))
    for i, x in enumerate(xs):
        ws = liedyn.ContactStepWorkspace(model, contacts)  # fresh: a zero warm start
        states[i, 0] = X[i]
        for k in range(K):
            x, r = liedyn.step(model, ws, x, controls[i, k], dt, settings)
            states[i, k + 1] = liedyn.batch_states(model, [x])[0]
            impulses[i, k] = r.impulses
            iterations[i, k], active[i, k], converged[i, k] = r.iterations, r.active_contacts, r.converged
            residuals[i, k] = (r.primal_residual, r.dual_residual, r.complementarity_residual)
    assert active.max() == 4 and active.min() < 4  # the corners enter the problem as they land
    for threads in (1, 2, 3):
        bws = liedyn.ContactBatchWorkspace(model, contacts, threads)
        assert bws.threads == threads and bws.num_contacts == 4
        for _ in range(2):  # the second run starts on used workers: still the same
            out = liedyn.batch_rollout(model, bws, X, controls, dt, settings)
            assert isinstance(out, liedyn.ContactBatchResult)
            assert np.array_equal(out.states, states)
            assert np.array_equal(out.impulses, impulses)
            assert np.array_equal(out.iterations, iterations) and out.iterations.dtype == np.int32
            assert np.array_equal(out.active_contacts, active)
            assert np.array_equal(out.converged, converged) and out.converged.dtype == np.bool_
            assert np.array_equal(out.primal_residual, residuals[..., 0])
            assert np.array_equal(out.dual_residual, residuals[..., 1])
            assert np.array_equal(out.complementarity_residual, residuals[..., 2])


def test_batch_contact_step_equals_step_on_fresh_workspaces(solo12):
    """Solo-12's four feet on the ground, random joint states: each state's step from a zero warm
    start, for 1 and 2 threads."""
    m = solo12
    feet = [liedyn.ContactPointSpec.on_frame(f, liedyn.ContactPlane.ground(), 0.8)
            for f in ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT")]
    xs = []
    for i in range(5):
        x = liedyn.random_state(m, 40 + i)
        x.H = liedyn.SE3(x.H.rotation, np.array([0.0, 0.0, 0.25]))  # some feet below, some above
        xs.append(x)
    X = liedyn.batch_states(m, xs)
    tau = np.random.default_rng(8).uniform(-1.0, 1.0, (5, m.nv))
    expected: list[tuple[liedyn.State, liedyn.ContactStepResult]] = []
    for i, x in enumerate(xs):
        expected.append(liedyn.step(m, liedyn.ContactStepWorkspace(m, feet), x, tau[i], 2e-3))
    assert {r.active_contacts for _, r in expected} != {0}
    for threads in (1, 2):
        out = liedyn.batch_contact_step(m, liedyn.ContactBatchWorkspace(m, feet, threads), X, tau, 2e-3)
        assert out.states.shape == (5, liedyn.batch_state_size(m)) and out.impulses.shape == (5, 4, 3)
        for i, (x_next, r) in enumerate(expected):
            assert np.array_equal(out.states[i], liedyn.batch_states(m, [x_next])[0])
            assert np.array_equal(out.impulses[i], r.impulses)
            assert out.iterations[i] == r.iterations and out.converged[i] == r.converged


def test_bad_input_gets_a_clear_error():
    model = cube_model()
    ground = liedyn.ContactPlane.ground()
    good = [liedyn.ContactPointSpec.on_body("cube", np.zeros(3), ground, 0.5)]
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: ContactStepWorkspace: contact 'cube': "
                       r"the friction coefficient must be finite and >= 0, got -0\.1"):
        liedyn.ContactStepWorkspace(model, [liedyn.ContactPointSpec.on_body("cube", np.zeros(3), ground, -0.1)])
    with pytest.raises(liedyn.InvalidArgument, match="contact 'nowhere': no frame named 'nowhere'"):
        liedyn.ContactStepWorkspace(model, [liedyn.ContactPointSpec.on_frame("nowhere", ground, 0.5)])
    with pytest.raises(liedyn.InvalidArgument, match="contact 'wheel': no body named 'wheel'"):
        liedyn.ContactBatchWorkspace(model, [liedyn.ContactPointSpec(body="wheel")], 2)
    flat = liedyn.ContactPlane(normal=np.zeros(3))
    with pytest.raises(liedyn.InvalidArgument, match="contact 'cube': the plane's normal must be non-zero"):
        liedyn.ContactStepWorkspace(model, [liedyn.ContactPointSpec(body="cube", plane=flat, friction=0.5)])
    with pytest.raises(liedyn.InvalidArgument, match="threads must be at least 1"):
        liedyn.ContactBatchWorkspace(model, good, 0)

    ws = liedyn.ContactStepWorkspace(model, good)
    x, tau = liedyn.State(model), np.zeros(6)
    for dt in (0.0, -1e-3, math.nan):
        with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: step: dt must be finite and > 0"):
            liedyn.step(model, ws, x, tau, dt)
    bad = x.copy()
    bad.nu[:] = np.array([0.0, 0.0, 0.0, math.nan, 0.0, 0.0])
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: step: state.nu has a non-finite entry"):
        liedyn.step(model, ws, bad, tau, 1e-3)
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: step: tau has a non-finite entry"):
        liedyn.step(model, ws, x, np.array([math.inf, 0, 0, 0, 0, 0]), 1e-3)
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: step: tau has size 5, expected 6"):
        liedyn.step(model, ws, x, np.zeros(5), 1e-3)
    settings = liedyn.ContactStepSettings()
    settings.margin = -1.0
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: step: the margin must be >= 0"):
        liedyn.step(model, ws, x, tau, 1e-3, settings)
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: step: the workspace was built for another model"):
        other = cube_model()
        liedyn.step(other, ws, liedyn.State(other), tau, 1e-3)

    bws = liedyn.ContactBatchWorkspace(model, good, 2)
    X = liedyn.batch_states(model, [x, x, x])
    controls = np.zeros((3, 4, 6))
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: batch_rollout: dt must be finite and > 0, got 0\.0"):
        liedyn.batch_rollout(model, bws, X, controls, 0.0)
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: batch_contact_step: dt must be finite"):
        liedyn.batch_contact_step(model, bws, X, controls[:, 0], -1.0)
    X_bad = X.copy()
    X_bad[1, 12] = math.nan  # state 1's twist
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: batch_rollout: initial has a non-finite entry"):
        liedyn.batch_rollout(model, bws, X_bad, controls, 1e-3)
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: batch_contact_step: states has a non-finite entry"):
        liedyn.batch_contact_step(model, bws, X_bad, controls[:, 0], 1e-3)
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: batch_rollout: controls must have shape \(3, K, 6\)"):
        liedyn.batch_rollout(model, bws, X, np.zeros((2, 4, 6)), 1e-3)
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: batch_rollout: trajectory 0: step 0: contact_step: "
                       r"penetration_recovery must lie in \[0, 1\]"):
        settings = liedyn.ContactStepSettings()
        settings.penetration_recovery = 2.0
        liedyn.batch_rollout(model, bws, X, controls, 1e-3, settings)
    with pytest.raises(liedyn.InvalidArgument, match=r"^liedyn: batch_contact_step: the ContactBatchWorkspace was built "
                       "for another model"):
        other = cube_model()
        liedyn.batch_contact_step(other, bws, X, controls[:, 0], 1e-3)


def test_the_model_types_round_trip_and_print():
    plane = liedyn.ContactPlane(np.array([0.0, 0.0, 0.1]), np.array([0.0, 0.0, 2.0]))
    assert "normal=(0.0, 0.0, 2.0)" in repr(plane)
    plane.point = np.array([1.0, 2.0, 3.0])
    plane.normal = np.array([0.0, 1.0, 0.0])
    assert np.array_equal(plane.point, [1.0, 2.0, 3.0]) and np.array_equal(plane.normal, [0.0, 1.0, 0.0])
    spec = liedyn.ContactPointSpec.on_frame("FL_FOOT", plane, 0.7, np.array([0.0, 0.0, -0.01]), 0.02)
    assert (spec.frame, spec.body, spec.friction, spec.radius) == ("FL_FOOT", "", 0.7, 0.02)
    assert np.array_equal(spec.offset, [0.0, 0.0, -0.01]) and np.array_equal(spec.plane.normal, [0.0, 1.0, 0.0])
    spec.name = "front left"
    assert spec.name == "front left" and "frame 'FL_FOOT'" in repr(spec)
    settings = liedyn.ContactStepSettings()
    assert settings.solver == liedyn.ContactSolver.Admm and settings.solver_settings.warm_start
    assert (settings.margin, settings.penetration_recovery, settings.restitution) == (0.01, 0.2, 0.0)
    s = liedyn.FrictionalContactSettings()
    assert not s.warm_start and s.max_iterations == 1000 and s.adaptive_rho
    assert s.absolute_tolerance > 0 and s.relative_tolerance > 0 and s.symmetry_tolerance > 0
    assert (s.rho_initial, s.rho_update_ratio, s.rho_update_interval) == (1.0, 5.0, 30)
    assert (s.over_relaxation, s.relaxation) == (1.6, 1.0)
    s.max_iterations = 1
    s.warm_start = False
    settings.solver_settings = s
    assert settings.solver_settings.max_iterations == 1


def test_an_unconverged_step_is_reported_and_taken_and_warm_starts_carry_over():
    """One iteration from a cold start does not solve four corners landing: reported, not raised;
    the kept impulses warm-start the next solve (reset_warm_start drops them)."""
    model = cube_model()
    ws = liedyn.ContactStepWorkspace(model, cube_corners(0.2, incline(math.atan(0.42)), 0.3))
    x = cube_on_incline(model, 0.2, math.atan(0.42))
    x.nu[:] = np.array([0.0, 0.0, -1.0, 0.0, 0.0, 0.0])
    settings = liedyn.ContactStepSettings()
    settings.solver_settings.max_iterations = 1
    settings.solver_settings.warm_start = False
    x_next, r = liedyn.step(model, ws, x, np.zeros(6), 1e-3, settings)
    assert not r.converged and r.iterations == 1 and r.active_contacts == 4
    assert not np.array_equal(x_next.nu, x.nu)  # the step was taken
    assert "converged=False" in repr(r)
    # Warm start: a converged step from zero, then the same step again starts at its solution;
    # after reset_warm_start the step is the first one again, exactly.
    settings = liedyn.ContactStepSettings()
    ws.reset_warm_start()
    _, first = liedyn.step(model, ws, x, np.zeros(6), 1e-3, settings)
    _, again = liedyn.step(model, ws, x, np.zeros(6), 1e-3, settings)
    assert first.converged and again.converged and again.iterations < first.iterations
    ws.reset_warm_start()
    _, cold = liedyn.step(model, ws, x, np.zeros(6), 1e-3, settings)
    assert cold.iterations == first.iterations and np.array_equal(cold.impulses, first.impulses)


def test_the_gil_is_released_during_a_contact_rollout():
    """While one thread's contact rollout runs, another thread runs Python and reaches the same
    workspace: it is refused as in use (with the GIL held it could not run meanwhile)."""
    model = cube_model()
    contacts = cube_corners(0.2, incline(math.atan(0.42)), 0.3)
    _, X = landing_cubes(model, 64, 6)
    controls = np.zeros((64, 400, 6))
    ws = liedyn.ContactBatchWorkspace(model, contacts)
    done = threading.Event()
    seen: list[str] = []

    def long_call():
        try:
            liedyn.batch_rollout(model, ws, X, controls, 1e-3)
        finally:
            done.set()

    t = threading.Thread(target=long_call)
    t.start()
    while not done.is_set() and not seen:
        try:
            liedyn.batch_contact_step(model, ws, X[:1], controls[:1, 0], 1e-3)
        except liedyn.InvalidArgument as e:
            seen.append(str(e))
    t.join()
    assert seen and "workspace is in use by a call in another thread" in seen[0]


def test_no_contacts_no_steps_no_states():
    """Empty dimensions: a contact model with no contact (the cube falls freely, as the
    semi-implicit step of free fall says), no steps, no states."""
    model = cube_model()
    size = liedyn.batch_state_size(model)
    ws = liedyn.ContactBatchWorkspace(model, [], 2)
    assert ws.num_contacts == 0 and repr(ws) == "liedyn.ContactBatchWorkspace(threads=2, contacts=0)"
    X = liedyn.batch_states(model, [liedyn.State(model)] * 3)
    dt, K = 1e-3, 5
    out = liedyn.batch_rollout(model, ws, X, np.zeros((3, K, 6)), dt)
    assert out.states.shape == (3, K + 1, size) and out.impulses.shape == (3, K, 0, 3)
    assert out.converged.all() and not out.active_contacts.any() and not out.iterations.any()
    # Step k: v_z = -k g dt, z = -(1 + ... + k) g dt^2 (the position takes the new velocity);
    # rounding of a few operations on numbers of order g dt, 1e-13 relative.
    v_z, z = out.states[:, K, 12 + 2], out.states[:, K, 9 + 2]
    assert np.all(np.abs(v_z + K * GRAVITY * dt) < 1e-13 * K * GRAVITY * dt)
    assert np.all(np.abs(z + 15 * GRAVITY * dt * dt) < 1e-13 * 15 * GRAVITY * dt * dt)
    none = liedyn.batch_rollout(model, ws, X, np.zeros((3, 0, 6)), dt)
    assert none.states.shape == (3, 1, size) and np.array_equal(none.states[:, 0], X)
    assert none.impulses.shape == (3, 0, 0, 3) and none.converged.shape == (3, 0)
    empty = liedyn.batch_contact_step(model, ws, np.zeros((0, size)), np.zeros((0, 6)), dt)
    assert empty.states.shape == (0, size) and empty.iterations.shape == (0,)
