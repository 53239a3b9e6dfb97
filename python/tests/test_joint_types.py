"""Trees with every joint type, built from Python (JointSpec.spherical, free, planar, universal):
their sizes, and the kernels agreeing with each other on them (the C++ suite checks them against
Pinocchio 4.1)."""
import numpy as np

import liedyn


def every_joint_type():
    """A moving base carrying a spherical shoulder, a universal elbow, a free object held at
    the hand, and a planar cart with a revolute pendulum and a prismatic slider."""
    I = liedyn.SpatialInertia.from_mass_com_inertia(
        1.2, np.array([0.05, -0.02, 0.1]), np.diag([0.02, 0.03, 0.025]))
    b = liedyn.ModelBuilder(liedyn.BaseType.Moving, "base", I)
    X = liedyn.SE3.exp(np.array([0.1, 0.0, 0.2, 0.3, -0.2, 0.1]))
    b.add_body("base", "upper", liedyn.JointSpec.spherical("shoulder", X), I)
    b.add_body("upper", "lower", liedyn.JointSpec.universal(
        "elbow", np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.6, 0.8]), X), I)
    b.add_body("lower", "box", liedyn.JointSpec.free("held", X), I)
    b.add_body("base", "cart", liedyn.JointSpec.planar("cart_plane", X), I)
    b.add_body("cart", "pole", liedyn.JointSpec.revolute("pole_hinge", np.array([0.0, 1.0, 0.0]),
                                                         X), I)
    b.add_body("pole", "slider", liedyn.JointSpec.prismatic("slide", np.array([0.0, 0.0, 1.0]),
                                                            X), I)
    return b.build()


def test_sizes_and_types():
    m = every_joint_type()
    types = [m.joint(i).type for i in range(1, m.num_bodies)]
    assert types == [liedyn.JointType.Spherical, liedyn.JointType.Universal,
                     liedyn.JointType.Free, liedyn.JointType.Planar, liedyn.JointType.Revolute,
                     liedyn.JointType.Prismatic]
    x = liedyn.neutral(m)
    assert x.s.size == 4 + 2 + 7 + 4 + 1 + 1  # quaternion, 2 angles, pose, SE(2), 1, 1
    assert m.nv == 6 + 3 + 2 + 6 + 3 + 1 + 1
    # The identities of the groups: quaternions (x, y, z, w), the planar turn (cos, sin).
    assert np.array_equal(x.s[:4], [0.0, 0.0, 0.0, 1.0])
    assert np.array_equal(x.s[13:17], [0.0, 0.0, 1.0, 0.0])


def test_the_kernels_agree_on_every_joint_type():
    m = every_joint_type()
    d = liedyn.Data(m)
    for seed in (1, 2, 3):
        x = liedyn.random_state(m, seed)
        tau = np.random.default_rng(seed).uniform(-1.0, 1.0, m.nv)
        # Two recursions, one the other's inverse: round-off times cond(M) (about 1e3 here).
        ddq = liedyn.aba(m, d, x, tau)
        assert np.abs(liedyn.rnea(m, d, x, ddq) - tau).max() <= 1e-12 * np.abs(tau).max()
        # crba against M column by column from inverse dynamics: the same sums in another order.
        M = liedyn.crba(m, d, x)
        assert np.array_equal(M, M.T)
        assert np.abs(M - liedyn.mass_matrix_from_inverse_dynamics(m, d, x)).max() \
            <= 1e-13 * np.abs(M).max()
        assert np.abs(liedyn.immamb(m, d, x) @ M - np.eye(m.nv)).max() <= 1e-11


def test_a_massless_base_above_free_and_spherical_children_is_named():
    # Nothing but point forces and free motion reach a massless base through these joints: its
    # articulated inertia is singular, and the error says it is the base's.
    b = liedyn.ModelBuilder()
    I = liedyn.SpatialInertia.from_mass_com_inertia(1.0, np.zeros(3), np.eye(3) * 0.01)
    b.add_body("base", "ball", liedyn.JointSpec.spherical("ball_joint"), I)
    b.add_body("base", "object", liedyn.JointSpec.free("loose"), I)
    m = b.build()
    assert m.singular_joints == [0]
    try:
        liedyn.aba(m, liedyn.Data(m), liedyn.neutral(m), np.zeros(m.nv))
    except liedyn.ModelError as e:
        assert "move no inertia along their motion: the floating base" in str(e)
    else:
        raise AssertionError("aba on a singular model did not raise")
