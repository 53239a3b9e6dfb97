"""liedyn.interop: round trips of every converter, and agreement with Pinocchio's and MuJoCo's own
numbers (the reference dumps of tests/data: Pinocchio 3.7 for Solo-12 and Talos, Pinocchio 4.1
for a URDF model with planar and free joints inside the tree, MuJoCo 4 for an MJCF model)."""
import os

import numpy as np
import pytest

import liedyn
from liedyn.interop import Library
from conftest import DATA_DIR, MODELS, SOLO12, relative_error

Body = liedyn.TwistRepresentation.Body
TALOS = os.path.join(DATA_DIR, "talos.urdf")
LAYOUTS = [Library.Pinocchio, Library.MuJoCo, Library.Drake, Library.RBDL]

# Round trips: a quaternion through a rotation matrix and back, and a velocity through R and Rᵀ,
# are a few ulps of rounding; 1e-14 relative leaves a factor of ~20 over 2.2e-16 on entries of
# order one. Anything a converter gets wrong (an order, a frame, a sign) is an O(1) error.
ROUND_TRIP_TOL = 1e-14


def error(a, b):
    """max |a - b| relative to max(1, max |b|): conftest's relative_error, defined also where b is
    zero (a welded base's nu, a state at rest)."""
    return np.abs(a - b).max() / max(1.0, np.abs(b).max())


def read_dump(path):
    """A Pinocchio reference dump (tests/data/README.pinocchio.md, tests/data/pinocchio4/README.md):
    its vec and mat records, and the names of its joints after the root free flyer (all of them
    for a fixed base), in Pinocchio's order."""
    vecs, mats, joints = {}, {}, []
    freeflyer = True  # format 1 always has the free-flyer root_joint as joint 1
    ended = False
    with open(path, encoding="utf-8") as f:
        lines = iter(f.read().splitlines())
    for line in lines:
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if w[0] == "meta" and w[1] == "freeflyer":
            freeflyer = w[2] == "1"
        elif w[0] == "joint":
            joints.append((int(w[1]), w[2]))
        elif w[0] == "vec":
            vecs[w[1]] = np.array([float(t) for t in w[3:3 + int(w[2])]])
        elif w[0] == "mat":
            rows, cols = int(w[2]), int(w[3])
            mats[w[1]] = np.array([[float(t) for t in next(lines).split()] for _ in range(rows)])
            assert mats[w[1]].shape == (rows, cols)
        elif w[0] == "end":
            ended = True
    assert ended, f"{path} is truncated"
    first = 2 if freeflyer else 1  # joint 0 is the universe
    return vecs, mats, [name for i, name in sorted(joints) if i >= first]


# (robot loader, dump): Solo-12 (Pinocchio's joint order equals liedyn's), Talos (it does not:
# the permutation is exercised), and a welded URDF model with a planar joint and a free joint
# inside the tree (Pinocchio 4.1's multi-DoF conventions, identity permutation).
PINOCCHIO_CASES = {
    "solo12.seed1": (lambda: liedyn.load_urdf_file(SOLO12), "solo12.seed1.txt"),
    "solo12.seed2": (lambda: liedyn.load_urdf_file(SOLO12), "solo12.seed2.txt"),
    "talos.seed1": (lambda: liedyn.load_urdf_file(TALOS), "talos.seed1.txt"),
    "talos.seed2": (lambda: liedyn.load_urdf_file(TALOS), "talos.seed2.txt"),
    "planar_floating.seed1": (
        lambda: liedyn.load_urdf_file(os.path.join(DATA_DIR, "planar_floating.urdf"),
                                      liedyn.UrdfOptions(weld_base=True)),
        os.path.join("pinocchio4", "urdf_planar_floating.seed1.txt")),
    "planar_floating.seed2": (
        lambda: liedyn.load_urdf_file(os.path.join(DATA_DIR, "planar_floating.urdf"),
                                      liedyn.UrdfOptions(weld_base=True)),
        os.path.join("pinocchio4", "urdf_planar_floating.seed2.txt")),
}

# Agreement with Pinocchio, relative to each quantity's max norm. Observed: <= 1.2e-15 for tau,
# M, aba and the inverse-dynamics derivatives, <= 1.2e-12 for M⁻¹ and the forward-dynamics
# derivatives (Talos, whose M⁻¹ reaches 1e5: two libraries' rounding in a solve with a
# condition number that large). 1e-10 leaves a factor of ~100 for other compilers and CPUs
# (the C++ test of the same dumps, tests/test_pinocchio_reference.cpp, allows 1e-9); a wrong
# convention or joint order is off by O(1) (test_the_wrong_convention_misses_pinocchio).
PINOCCHIO_TOL = 1e-10


@pytest.fixture(params=sorted(PINOCCHIO_CASES))
def pinocchio_case(request):
    load, dump = PINOCCHIO_CASES[request.param]
    model = load()
    vecs, mats, names = read_dump(os.path.join(DATA_DIR, dump))
    perm = liedyn.interop.JointPermutation.from_names(model, names)
    return request.param, model, vecs, mats, perm


def test_state_round_trips(model):
    x = liedyn.random_state(model, 11)
    for lib in LAYOUTS:
        q = liedyn.interop.configuration_to(lib, model, x)
        v = liedyn.interop.velocity_to(lib, model, x)
        assert q.shape == (liedyn.interop.configuration_size(lib, model),)
        assert v.shape == (model.nv,)
        y = liedyn.interop.state_from(lib, model, q, v)
        assert relative_error(y.H.matrix(), x.H.matrix()) < ROUND_TRIP_TOL, lib
        assert np.array_equal(y.s, x.s), lib  # joint positions are copied (permuted), never computed
        assert error(y.nu, x.nu) < ROUND_TRIP_TOL, lib
        assert np.array_equal(y.r, x.r), lib
        # And q -> state -> q: the same vector, the quaternion with w >= 0 both times.
        assert relative_error(liedyn.interop.configuration_to(lib, model, y), q) < ROUND_TRIP_TOL
        back = liedyn.interop.configuration_from(lib, model, q)
        assert np.array_equal(back.s, x.s) and np.all(back.nu == 0) and np.all(back.r == 0)


def test_vector_and_matrix_round_trips(model):
    x = liedyn.random_state(model, 5)
    ddq = np.random.default_rng(1).uniform(-1, 1, model.nv)
    M = liedyn.crba(model, liedyn.Data(model), x)
    for lib in [Library.Pinocchio, Library.MuJoCo, Library.Drake, Library.RBDL,
                Library.iDynTree]:
        io = liedyn.interop
        v = io.velocity_to(lib, model, x)
        assert relative_error(io.velocity_from(lib, model, x.H, v), x.velocity(model)) \
            < ROUND_TRIP_TOL
        a = io.acceleration_to(lib, model, x, ddq)
        assert relative_error(io.acceleration_from(lib, model, x, a), ddq) < ROUND_TRIP_TOL
        t = io.force_to(lib, model, x.H, ddq)
        assert relative_error(io.force_from(lib, model, x.H, t), ddq) < ROUND_TRIP_TOL
        # Power is the same in every library's coordinates: v_L . tau_L = [nu; r] . tau.
        assert abs(v @ t - x.velocity(model) @ ddq) < ROUND_TRIP_TOL * np.abs(ddq).sum()
        ML = io.matrix_to(lib, model, x.H, M)
        assert relative_error(io.matrix_from(lib, model, x.H, ML), M) < ROUND_TRIP_TOL
        T = io.velocity_matrix(lib, model, x.H)
        assert relative_error(T @ T.T, np.eye(model.nv)) < ROUND_TRIP_TOL  # orthogonal
        assert relative_error(T @ x.velocity(model), v) < ROUND_TRIP_TOL


def test_conventions_differ_where_documented(solo12):
    """The base blocks follow docs/interop.md's table: Pinocchio's base velocity is the body twist,
    MuJoCo's linear part is in the world, Drake puts the angular part first (world)."""
    x = liedyn.random_state(solo12, 2)
    R = x.H.rotation
    io = liedyn.interop
    assert np.array_equal(io.velocity_to(Library.Pinocchio, solo12, x)[:6], x.nu)
    mj = io.velocity_to(Library.MuJoCo, solo12, x)[:6]
    assert relative_error(mj, np.concatenate([R @ x.nu[:3], x.nu[3:]])) < ROUND_TRIP_TOL
    drake = io.velocity_to(Library.Drake, solo12, x)[:6]
    assert relative_error(drake, np.concatenate([R @ x.nu[3:], R @ x.nu[:3]])) < ROUND_TRIP_TOL
    # Configuration layouts: Pinocchio [p; x y z w; s], MuJoCo [p; w x y z; s], Drake
    # [w x y z; p; s], RBDL [p; x y z; s; w]; the quaternion is SE3.quaternion's.
    xyzw, p = x.H.quaternion(), x.H.translation
    assert np.array_equal(io.configuration_to(Library.Pinocchio, solo12, x),
                          np.concatenate([p, xyzw, x.s]))
    assert np.array_equal(io.configuration_to(Library.MuJoCo, solo12, x),
                          np.concatenate([p, x.H.quaternion(order="wxyz"), x.s]))
    assert np.array_equal(io.configuration_to(Library.Drake, solo12, x),
                          np.concatenate([x.H.quaternion(order="wxyz"), p, x.s]))
    assert np.array_equal(io.configuration_to(Library.RBDL, solo12, x),
                          np.concatenate([p, xyzw[:3], x.s, xyzw[3:]]))
    # The apparent acceleration: MuJoCo's qacc at nu' = 0 is R (omega x v), not zero.
    a = io.acceleration_to(Library.MuJoCo, solo12, x, np.zeros(solo12.nv))
    assert relative_error(a[:3], R @ np.cross(x.nu[3:], x.nu[:3])) < ROUND_TRIP_TOL
    # Their base position tangent: Pinocchio's is H exp(delta^).
    delta = np.array([0.1, -0.2, 0.3, 0.05, 0.02, -0.04])
    assert relative_error(io.retract(Library.Pinocchio, x.H, delta).matrix(),
                          (x.H * liedyn.SE3.exp(delta)).matrix()) < ROUND_TRIP_TOL
    assert np.array_equal(io.base_velocity_matrix(Library.Pinocchio, R), np.eye(6))


def test_pinocchio_state_and_dynamics(pinocchio_case):
    name, model, vecs, mats, perm = pinocchio_case
    io = liedyn.interop
    P = Library.Pinocchio
    q, v = vecs["q"], vecs["v"]
    x = io.state_from(P, model, q, v, perm)
    # Back to Pinocchio's vectors; its quaternions may have w < 0 (ours have w >= 0), so the base
    # quaternion is compared up to sign (the joints' quaternions of the 4.1 dump are copied).
    q_back = io.configuration_to(P, model, x, perm)
    if model.has_moving_base and q[6] < 0:
        q_back[3:7] *= -1.0
    assert relative_error(q_back, q) < ROUND_TRIP_TOL, name
    assert np.array_equal(io.velocity_to(P, model, x, perm), v), name

    data = liedyn.Data(model)
    ddq = io.acceleration_from(P, model, x, vecs["a"], perm)
    tau_in = io.force_from(P, model, x.H, vecs["tau"], perm)
    tau = io.force_to(P, model, x.H, liedyn.rnea(model, data, x, ddq), perm)
    assert relative_error(tau, vecs["rnea"]) < PINOCCHIO_TOL, name
    M = io.matrix_to(P, model, x.H, liedyn.crba(model, data, x), perm)
    assert relative_error(M, mats["crba"]) < PINOCCHIO_TOL, name
    qdd = io.acceleration_to(P, model, x, liedyn.aba(model, data, x, tau_in), perm)
    assert relative_error(qdd, vecs["aba"]) < PINOCCHIO_TOL, name
    Minv = io.matrix_to(P, model, x.H, liedyn.immamb(model, data, x), perm)
    assert relative_error(Minv, mats["Minv"]) < PINOCCHIO_TOL, name


def test_pinocchio_derivatives(pinocchio_case):
    name, model, vecs, mats, perm = pinocchio_case
    io = liedyn.interop
    P = Library.Pinocchio
    x = io.state_from(P, model, vecs["q"], vecs["v"], perm)
    ddq = io.acceleration_from(P, model, x, vecs["a"], perm)
    tau_in = io.force_from(P, model, x.H, vecs["tau"], perm)
    data = liedyn.Data(model)

    # computeRNEADerivatives from our Body-representation derivatives at (x, ddq).
    D1, D2, D3, D4 = liedyn.eidamb_derivatives(model, data, x, ddq, Body)
    dtau_dq, dtau_dv, dtau_da = io.inverse_dynamics_jacobians_to(
        P, model, x, ddq, data.tau, D1, D2, D3, D4, data.M, perm)
    assert relative_error(dtau_dq, mats["dtau_dq"]) < PINOCCHIO_TOL, name
    assert relative_error(dtau_dv, mats["dtau_dv"]) < PINOCCHIO_TOL, name
    assert relative_error(dtau_da, mats["crba"]) < PINOCCHIO_TOL, name  # dtau_da = M

    # computeABADerivatives from the Body linearization at (x, tau).
    A, B = liedyn.linearize(model, data, x, tau_in, liedyn.LinearizationOptions(Body))
    dddq_dq, dddq_dv, dddq_dtau = io.forward_dynamics_jacobians_to(
        P, model, x, tau_in, data.ddq, A, data.Minv, perm)
    assert relative_error(dddq_dq, mats["dddq_dq"]) < PINOCCHIO_TOL, name
    assert relative_error(dddq_dv, mats["dddq_dv"]) < PINOCCHIO_TOL, name
    assert relative_error(dddq_dtau, mats["Minv"]) < PINOCCHIO_TOL, name

    # And back: our A, B from Pinocchio's matrices equal linearize's.
    A_pin, B_pin = io.linearization_from_pinocchio(model, x, mats["dddq_dq"], mats["dddq_dv"],
                                                   mats["Minv"], perm)
    assert relative_error(A_pin, A) < PINOCCHIO_TOL, name
    assert relative_error(B_pin, B) < PINOCCHIO_TOL, name


def test_the_wrong_convention_misses_pinocchio():
    """The dump comparisons can fail: MuJoCo's convention, or liedyn's joint order for Talos,
    applied to Pinocchio's numbers is off by O(1)."""
    model = liedyn.load_urdf_file(TALOS)
    vecs, mats, names = read_dump(os.path.join(DATA_DIR, "talos.seed1.txt"))
    perm = liedyn.interop.JointPermutation.from_names(model, names)
    assert not perm.is_identity()
    io = liedyn.interop
    data = liedyn.Data(model)
    # JointPermutation(): liedyn's order stated (perm=None is refused here: test_silent_traps.py).
    for lib, p in [(Library.MuJoCo, perm), (Library.Pinocchio, liedyn.interop.JointPermutation())]:
        x = io.state_from(lib, model, vecs["q"], vecs["v"], p)
        ddq = io.acceleration_from(lib, model, x, vecs["a"], p)
        tau = io.force_to(lib, model, x.H, liedyn.rnea(model, data, x, ddq), p)
        assert relative_error(tau, vecs["rnea"]) > 1e-3, lib


def test_mujoco_state_and_dynamics():
    """MuJoCo 4's own numbers for an MJCF model with a free base, a slide joint and joint refs
    (tests/data/mjcf/features_free.ref.txt): qpos, qvel, M, mj_inverse and mj_forward."""
    robot = liedyn.load_mjcf_robot_file(os.path.join(DATA_DIR, "mjcf", "features_free.xml"))
    model, io, MJ = robot.model, liedyn.interop, Library.MuJoCo
    nv = model.nv
    states: list[dict[str, np.ndarray]] = []
    with open(os.path.join(DATA_DIR, "mjcf", "features_free.ref.txt"), encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if w and w[0] == "state":
                states.append({})
            elif states and w:
                states[-1][w[0]] = np.array([float(t) for t in w[1:]])
    assert len(states) == 3
    data = liedyn.Data(model)
    for st in states:
        x = io.state_from_mujoco(model, robot.qpos0, st["qpos"], st["qvel"])
        qpos = io.mujoco_qpos(model, robot.qpos0, x)
        if st["qpos"][3] < 0:  # MuJoCo's quaternion may have w < 0, ours has w >= 0
            qpos[3:7] *= -1.0
        assert relative_error(qpos, st["qpos"]) < ROUND_TRIP_TOL
        assert relative_error(io.velocity_to(MJ, model, x), st["qvel"]) < ROUND_TRIP_TOL
        # MuJoCo's dynamics, observed to <= 3.5e-15 relative (two libraries' rounding on a small,
        # well-conditioned model; tests/test_mjcf.cpp allows 1e-10 on larger ones): 1e-12.
        M = io.matrix_to(MJ, model, x.H, liedyn.crba(model, data, x))
        assert relative_error(M, st["M"].reshape(nv, nv)) < 1e-12
        ddq = io.acceleration_from(MJ, model, x, st["qacc"])
        qfrc = io.force_to(MJ, model, x.H, liedyn.rnea(model, data, x, ddq))
        assert relative_error(qfrc, st["qfrc_inverse"]) < 1e-12
        tau = io.force_from(MJ, model, x.H, st["qfrc_applied"])
        qacc = io.acceleration_to(MJ, model, x, liedyn.aba(model, data, x, tau))
        assert relative_error(qacc, st["qacc_forward"]) < 1e-12


def test_mujoco_ball_joint_quaternion():
    """A ball joint's quaternion is w first in MuJoCo's qpos, w last in liedyn's s."""
    from test_quaternion_and_repr import BALL_MJCF
    model = liedyn.load_mjcf_string(BALL_MJCF)
    io = liedyn.interop
    qpos0 = np.array([1.0, 0.0, 0.0, 0.0])  # a ball joint's qpos0: the identity, w first
    ball = np.array([np.cos(0.3), 0.0, np.sin(0.3), 0.0])  # w x y z
    qpos = np.concatenate([[0.1, 0.2, 0.3], [1.0, 0.0, 0.0, 0.0], ball])
    x = io.state_from_mujoco(model, qpos0, qpos, np.zeros(model.nv))
    assert np.array_equal(x.s, np.roll(ball, -1))  # x y z w
    assert np.array_equal(io.mujoco_qpos(model, qpos0, x), qpos)
    assert np.array_equal(io.configuration_to(Library.MuJoCo, model, x)[7:], ball)
    # Drake's ball joint takes roll-pitch-yaw angles: refused, named.
    with pytest.raises(liedyn.InvalidArgument, match="joint 'ball' is spherical"):
        io.velocity_to(Library.Drake, model, x)


def test_arguments_are_checked(solo12):
    io = liedyn.interop
    P = Library.Pinocchio
    x = liedyn.random_state(solo12, 1)
    q = io.configuration_to(P, solo12, x)
    v = io.velocity_to(P, solo12, x)
    with pytest.raises(liedyn.InvalidArgument, match="q has size 18, expected 19"):
        io.state_from(P, solo12, q[:-1], v)
    with pytest.raises(liedyn.InvalidArgument, match="their velocity has size 17"):
        io.velocity_from(P, solo12, x.H, v[:-1])
    bad = q.copy()
    bad[8] = np.nan
    with pytest.raises(liedyn.InvalidArgument, match="q has a non-finite entry"):
        io.state_from(P, solo12, bad, v)
    with pytest.raises(liedyn.InvalidArgument, match="quaternion is zero"):
        io.configuration_from(P, solo12, np.concatenate([q[:3], np.zeros(4), q[7:]]))
    with pytest.raises(TypeError, match="complex"):
        io.force_to(P, solo12, x.H, v.astype(complex))
    with pytest.raises(ValueError, match=r"shape \(1, 18\)"):
        io.force_to(P, solo12, x.H, v.reshape(1, -1))
    with pytest.raises(liedyn.InvalidArgument, match="no configuration vector"):
        io.configuration_to(Library.iDynTree, solo12, x)
    with pytest.raises(liedyn.InvalidArgument, match="rows has size 17"):
        io.matrix_to(P, solo12, x.H, np.eye(17))
    y = liedyn.random_state(solo12, 1)
    y.nu[2] = np.inf
    with pytest.raises(liedyn.InvalidArgument, match="state.nu has a non-finite entry"):
        io.velocity_to(P, solo12, y)
    H = liedyn.SE3(np.eye(3), np.array([np.nan, 0.0, 0.0]))
    with pytest.raises(liedyn.InvalidArgument, match="H has a non-finite entry"):
        io.force_from(P, solo12, H, v)
    # A joint permutation: every name exactly once, and of this model's size.
    names = solo12.joint_names
    with pytest.raises(liedyn.InvalidArgument, match="FL_HAX"):
        io.JointPermutation.from_names(solo12, ["FL_HAX"] + names[1:])
    with pytest.raises(liedyn.InvalidArgument):
        io.JointPermutation.from_names(solo12, names[:-1])
    other = liedyn.figure4_model()
    perm = io.JointPermutation.from_names(other, other.joint_names)
    with pytest.raises(liedyn.InvalidArgument, match="permutation has 7 joints, the model 12"):
        io.velocity_to(P, solo12, x, perm)
    D = liedyn.eidamb_derivatives(solo12, liedyn.Data(solo12), x, np.zeros(18), Body)
    with pytest.raises(liedyn.InvalidArgument, match="D2 cols has size 11, expected 12"):
        io.inverse_dynamics_jacobians_to(P, solo12, x, np.zeros(18), np.zeros(18), D[0],
                                         D[1][:, 1:], D[2], D[3], np.eye(18))
    with pytest.raises(liedyn.InvalidArgument, match="A rows"):
        io.forward_dynamics_jacobians_to(P, solo12, x, np.zeros(18), np.zeros(18), np.eye(18),
                                         np.eye(18))


def test_joint_permutation_reorders(solo12):
    """Reversed names: Pinocchio's vectors come out in the reversed joint order."""
    io = liedyn.interop
    names = list(reversed(solo12.joint_names))
    perm = io.JointPermutation.from_names(solo12, names)
    assert perm.size == 12 and not perm.is_identity() and perm.theirs_of_ours(0) == 11
    assert io.JointPermutation().size == -1 and io.JointPermutation().is_identity()
    x = liedyn.random_state(solo12, 4)
    v = io.velocity_to(Library.Pinocchio, solo12, x, perm)
    assert np.array_equal(v[6:], x.r[::-1])
    assert np.array_equal(io.configuration_to(Library.Pinocchio, solo12, x, perm)[7:], x.s[::-1])
    assert "theirs_of_ours [11, 10" in repr(perm)
    with pytest.raises(IndexError):
        perm.theirs_of_ours(12)


def test_models_of_the_suite_cover_both_bases():
    """The round trips above run on a moving and a welded base (conftest.MODELS)."""
    bases = {MODELS[k]().has_moving_base for k in MODELS}
    assert bases == {True, False}
