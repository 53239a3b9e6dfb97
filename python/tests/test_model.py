"""Model, ModelBuilder, the URDF loader with every UrdfOptions field, SE3, State and its Lie-group
operations."""
import math
import pickle

import numpy as np
import pytest

import liedyn
from conftest import SOLO12

SOLO_JOINTS = ["FL_HAA", "FL_HFE", "FL_KFE", "FR_HAA", "FR_HFE", "FR_KFE",
               "HL_HAA", "HL_HFE", "HL_KFE", "HR_HAA", "HR_HFE", "HR_KFE"]


def test_solo12_sizes_names_frames(solo12):
    m = solo12
    assert (m.num_joints, m.num_bodies, m.nv, m.offset, m.tangent_size) == (12, 13, 18, 6, 36)
    assert m.has_moving_base and m.base_type == liedyn.BaseType.Moving
    assert m.joint_names == SOLO_JOINTS
    assert m.body_names[0] == "base_link" and m.body_name(0) == "base_link"
    assert m.parents[0] == -1 and all(m.parents[i] < i for i in range(1, m.num_bodies))
    for i in range(1, m.num_bodies):
        assert m.joint_name(i) == SOLO_JOINTS[i - 1]
        assert m.joint_id(SOLO_JOINTS[i - 1]) == i
        assert m.v_index(i) == 5 + i
        assert m.joint(i).name == SOLO_JOINTS[i - 1]
        assert m.joint(i).type == liedyn.JointType.Revolute
        assert abs(np.linalg.norm(m.joint(i).axis) - 1.0) < 1e-15  # unit axis, up to one rounding
        assert i in m.children(m.parents[i])
        assert m.subtree_end(i) > i
        assert m.depth(i) == m.depth(m.parents[i]) + 1
    assert m.max_depth == 3 and m.total_depth == 4 * (1 + 2 + 3)
    assert [m.dof_parent(d) for d in range(6)] == [-1, 0, 1, 2, 3, 4]
    assert m.dof_subtree_end(0) == 18
    for lookup in (m.joint_id, m.body_id, m.frame_id):
        with pytest.raises(KeyError, match="no .* named 'nope'"):
            lookup("nope")
    assert len(m.frames) >= m.num_bodies
    for f in range(m.num_bodies):
        assert m.frame(f).name == m.body_name(f) and m.frame(f).body == f
    # Links behind fixed joints are kept as frames of their moving parent.
    merged = m.frames[m.num_bodies:]
    assert merged and all(0 <= fr.body < m.num_bodies for fr in merged)
    assert m.frame_id(merged[0].name) == m.num_bodies
    np.testing.assert_array_equal(m.gravity, [0.0, 0.0, -9.81])
    assert m.singular_joints == [] and m.mimic_relations == []
    m.require_invertible_mass_matrix("test")  # no singular joint: no exception
    assert m.total_mass == pytest.approx(sum(m.inertia(i).mass for i in range(m.num_bodies)), rel=1e-15)
    assert "12 joints" in repr(m)


def test_urdf_string_equals_file_and_options(solo12):
    xml = open(SOLO12).read()
    m = liedyn.load_urdf_string(xml)
    d1, d2 = liedyn.Data(solo12), liedyn.Data(m)
    x = liedyn.random_state(m, 3)
    np.testing.assert_array_equal(liedyn.crba(solo12, d1, x), liedyn.crba(m, d2, x))

    pose = liedyn.SE3.exp(np.array([0.1, -0.2, 0.3, 0.4, 0.5, -0.6]))
    opt = liedyn.UrdfOptions(weld_base=True, welded_base_pose=pose, gravity=np.array([0.0, -9.0, 0.0]))
    w = liedyn.load_urdf_file(SOLO12, opt)
    assert not w.has_moving_base and w.base_type == liedyn.BaseType.Welded and w.nv == 12 and w.offset == 0
    np.testing.assert_array_equal(w.welded_base_pose.matrix(), pose.matrix())
    np.testing.assert_array_equal(w.gravity, [0.0, -9.0, 0.0])
    # The attributes are writable too.
    opt2 = liedyn.UrdfOptions()
    assert opt2.weld_base is False
    opt2.weld_base = True
    opt2.gravity = np.array([0.0, 0.0, -1.0])
    opt2.welded_base_pose = pose
    w2 = liedyn.load_urdf_string(xml, opt2)
    np.testing.assert_array_equal(w2.gravity, [0.0, 0.0, -1.0])
    np.testing.assert_array_equal(w2.welded_base_pose.matrix(), pose.matrix())
    # Welded state starts at the welded pose.
    np.testing.assert_array_equal(liedyn.neutral(w).H.matrix(), pose.matrix())


MIMIC_URDF = """<robot name="r">
  <link name="base"><inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="a"><inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <joint name="ja" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="2" effort="3" velocity="4"/></joint>
  <joint name="jb" type="continuous"><parent link="a"/><child link="b"/><origin xyz="0 0 1"/><axis xyz="0 1 0"/>
    <mimic joint="ja" multiplier="2" offset="0.5"/></joint>
</robot>"""


def test_urdf_mimic_limits():
    m = liedyn.load_urdf_string(MIMIC_URDF)
    j = m.joint(1)
    assert (j.lower, j.upper, j.effort_limit, j.velocity_limit) == (-1.0, 2.0, 3.0, 4.0)
    assert math.isinf(m.joint(2).lower)
    np.testing.assert_array_equal(m.joint(2).placement.translation, [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(m.joint(2).screw, [0, 0, 0, 0, 1, 0])
    (rel,) = m.mimic_relations
    assert (rel.joint, rel.leader, rel.multiplier, rel.offset) == (2, 1, 2.0, 0.5)


def test_bad_urdf_raises_model_error_with_message(tmp_path):
    with pytest.raises(liedyn.ModelError, match=r"^liedyn: URDF: .*nonexistent\.urdf"):
        liedyn.load_urdf_file(str(tmp_path / "nonexistent.urdf"))
    bad = MIMIC_URDF.replace('type="continuous"', 'type="ball"')
    with pytest.raises(liedyn.ModelError, match=r"liedyn: URDF: line \d+: joint 'jb': unknown joint type 'ball'"):
        liedyn.load_urdf_string(bad)
    p = tmp_path / "bad.urdf"
    p.write_text(bad)
    with pytest.raises(liedyn.ModelError, match="bad.urdf"):
        liedyn.load_urdf_file(str(p))
    # ModelError is a ValueError (it derives from std::invalid_argument in C++).
    assert issubclass(liedyn.ModelError, ValueError)


def test_with_armature_adds_rotor_inertia_to_the_mass_matrix(solo12):
    """A URDF has no armature; with_armature(model, a) adds a_j to M's joint diagonal (liedyn's
    joint order), nothing else; the model itself is unchanged (immutable)."""
    armature = np.linspace(0.01, 0.12, solo12.nv - 6)
    geared = liedyn.with_armature(solo12, armature)
    x = liedyn.random_state(solo12, 4)
    M = np.array(liedyn.crba(solo12, liedyn.Data(solo12), x))
    M_geared = np.array(liedyn.crba(geared, liedyn.Data(geared), x))
    expected = M + np.diag(np.concatenate([np.zeros(6), armature]))
    assert np.max(np.abs(M_geared - expected)) < 1e-13 * np.max(np.abs(M))  # one added term
    assert [geared.joint(i).armature for i in range(1, geared.num_joints + 1)] == list(armature)
    assert all(solo12.joint(i).armature == 0.0 for i in range(1, solo12.num_joints + 1))
    with pytest.raises(liedyn.InvalidArgument, match="with_armature"):
        liedyn.with_armature(solo12, np.zeros(5))
    with pytest.raises(liedyn.ModelError):
        liedyn.with_armature(solo12, -armature)


def test_builder_every_method():
    I = liedyn.SpatialInertia.from_mass_com_inertia(1.5, np.array([0.1, 0.0, 0.0]), np.diag([0.1, 0.2, 0.25]))
    b = liedyn.ModelBuilder(liedyn.BaseType.Moving, "trunk", I)
    b.set_base_inertia(liedyn.SpatialInertia.from_mass_com_inertia(3.0, np.zeros(3), np.eye(3)))
    b.set_inertia_check(liedyn.InertiaCheck.PositiveDefinite)
    b.set_gravity(np.array([0.0, 0.0, -1.62]))
    b.set_welded_base_pose(liedyn.SE3())
    X = liedyn.SE3(np.eye(3), np.array([0.0, 0.0, 0.5]))
    j1 = liedyn.JointSpec.revolute("hip", np.array([0.0, 0.0, 2.0]), X).with_limits(-1.0, 1.0).with_armature(0.01)
    i1 = b.add_body("trunk", "thigh", j1, I)
    b.add_body(i1, "slider", liedyn.JointSpec.prismatic("slide", np.array([1.0, 0, 0])), I)
    b.add_body("thigh", "screw", liedyn.JointSpec.helical("screwj", np.array([0, 1.0, 0]), 0.1), I)
    b.add_fixed_body("slider", "tool", X, I)
    b.add_frame("tip", "tool", X)
    b.add_mimic("slide", "hip", 2.0, 0.1)
    m = b.build()
    assert m.num_joints == 3 and m.body_name(0) == "trunk"
    np.testing.assert_array_equal(m.gravity, [0.0, 0.0, -1.62])
    hip = m.joint(m.joint_id("hip"))
    np.testing.assert_array_equal(hip.axis, [0.0, 0.0, 1.0])  # normalized
    assert (hip.lower, hip.upper, hip.armature) == (-1.0, 1.0, 0.01)
    assert m.joint(m.joint_id("screwj")).type == liedyn.JointType.Helical
    assert m.joint(m.joint_id("screwj")).pitch == 0.1
    assert m.frame_id("tool") >= 0 and m.frame_id("tip") >= 0
    assert m.frame(m.frame_id("tip")).body == m.body_id("slider")
    assert len(m.mimic_relations) == 1
    # The merged fixed body's mass is on its parent.
    assert m.total_mass == pytest.approx(3.0 + 4 * 1.5, rel=1e-15)
    # Errors from the builder: ModelError with the C++ message.
    with pytest.raises(liedyn.ModelError, match="liedyn: duplicate joint name 'hip'"):
        b.add_body("trunk", "other", liedyn.JointSpec.revolute("hip", np.array([1.0, 0, 0])), I)
    with pytest.raises(liedyn.ModelError, match="zero axis"):
        b.add_body("trunk", "other2", liedyn.JointSpec.revolute("z", np.zeros(3)), I)


def test_singular_joints_diagnostics():
    b = liedyn.ModelBuilder()
    b.set_base_inertia(liedyn.SpatialInertia.from_mass_com_inertia(1.0, np.zeros(3), np.eye(3)))
    b.add_body("base", "ghost", liedyn.JointSpec.revolute("ghost_joint", np.array([0, 0, 1.0])),
               liedyn.SpatialInertia())
    m = b.build()
    assert m.singular_joints == [1]
    with pytest.raises(liedyn.ModelError, match="ghost_joint"):
        m.require_invertible_mass_matrix("who")
    d = liedyn.Data(m)
    with pytest.raises(liedyn.ModelError, match="singular"):
        liedyn.aba(m, d, liedyn.neutral(m), np.zeros(m.nv))


def test_se3_and_inertia():
    xi = np.array([0.3, -0.1, 0.2, 0.5, -0.4, 0.3])
    H = liedyn.SE3.exp(xi)
    np.testing.assert_allclose(H.log(), xi, rtol=0, atol=1e-15)  # log(exp) round trip, a few roundings
    np.testing.assert_allclose((H * H.inverse()).matrix(), np.eye(4), rtol=0, atol=1e-15)
    G = liedyn.SE3.from_matrix(H.matrix())
    np.testing.assert_array_equal(G.rotation, H.rotation)
    np.testing.assert_array_equal(G.translation, H.translation)
    p = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(H.act_point(p), H.rotation @ p + H.translation, rtol=0, atol=1e-15)
    v = np.arange(6.0)
    np.testing.assert_allclose(H.act_motion(v), H.velocity_transform() @ v, rtol=0, atol=1e-14)
    np.testing.assert_allclose(H.act_force(v), H.wrench_transform() @ v, rtol=0, atol=1e-14)
    assert H.right_jacobian(xi).shape == (6, 6)
    # An SE3 is an immutable value (test_silent_traps.py): a new one replaces it.
    H = liedyn.SE3(H.rotation, np.zeros(3))
    np.testing.assert_array_equal(H.translation, np.zeros(3))
    I = liedyn.SpatialInertia.from_mass_com_inertia(2.0, np.array([0.0, 0.1, 0.0]), np.eye(3))
    assert I.mass == 2.0
    np.testing.assert_allclose(I.com, [0.0, 0.1, 0.0], rtol=0, atol=1e-16)
    J = liedyn.SpatialInertia.from_matrix(I.matrix())
    np.testing.assert_array_equal(J.matrix(), I.matrix())
    K = liedyn.SpatialInertia.from_moments(I.mass, I.mass * I.com, I.matrix()[3:, 3:])
    np.testing.assert_allclose(K.matrix(), I.matrix(), rtol=0, atol=1e-15)


def test_state_views_and_operations(solo12):
    m = solo12
    x = liedyn.State(m)
    assert x.s.shape == (12,) and x.r.shape == (12,) and x.nu.shape == (6,)
    x.s[2] = 0.5          # a writable view of the State's own buffer
    assert x.s[2] == 0.5
    x.r = np.ones(12)     # same-size assignment
    np.testing.assert_array_equal(x.r, np.ones(12))
    with pytest.raises(ValueError, match="liedyn: State.s: s has size 3, expected 12"):
        x.s = np.zeros(3)
    x.H = liedyn.SE3.exp(np.array([0, 0, 0, 0, 0, 0.5]))
    x.nu[:] = np.arange(6.0)
    np.testing.assert_array_equal(x.velocity(m), np.concatenate([np.arange(6.0), np.ones(12)]))
    for rep in (liedyn.TwistRepresentation.Inertial, liedyn.TwistRepresentation.Mixed):
        t = x.base_twist(rep)
        np.testing.assert_array_equal(t, liedyn.base_twist_from_body(x.H, x.nu, rep))
        y = x.copy()
        y.set_base_twist(t, rep)
        np.testing.assert_allclose(y.nu, x.nu, rtol=0, atol=1e-14)  # a rotation and back
        np.testing.assert_allclose(liedyn.base_twist_to_body(x.H, t, rep), x.nu, rtol=0, atol=1e-14)
        acc = np.array([0.1, 0.2, 0.3, -0.1, 0.0, 0.4])
        a = liedyn.base_acceleration_from_body(x.H, x.nu, acc, rep)
        np.testing.assert_allclose(liedyn.base_acceleration_to_body(x.H, x.nu, a, rep), acc, rtol=0, atol=1e-14)
    # integrate / difference and their Jacobians
    dx = np.linspace(-0.3, 0.3, m.tangent_size)
    y = liedyn.integrate(m, x, dx)
    np.testing.assert_allclose(liedyn.difference(m, x, y), dx, rtol=0, atol=1e-14)
    Jx, Jdx = liedyn.integrate_jacobians(m, dx)
    assert Jx.shape == Jdx.shape == (36, 36)
    np.testing.assert_allclose(Jdx[:6, :6], liedyn.SE3.right_jacobian(dx[:6]), rtol=0, atol=0)
    Kx, Ky = liedyn.difference_jacobians(m, x, y)
    np.testing.assert_array_equal(Kx[6:, 6:], -np.eye(30))
    np.testing.assert_array_equal(Ky[6:, 6:], np.eye(30))
    with pytest.raises(ValueError, match="liedyn: integrate: dx has size 3, expected 36"):
        liedyn.integrate(m, x, np.zeros(3))
    # random_state is the C++ generator's: reproducible
    x1, x2 = liedyn.random_state(m, 11), liedyn.random_state(m, 11)
    np.testing.assert_array_equal(x1.s, x2.s)
    assert liedyn.tangent_size(m) == 36
    z = liedyn.State(liedyn.SE3(), np.zeros(2), np.zeros(6), np.zeros(2))
    assert z.s.shape == (2,)
    with pytest.raises(ValueError):
        liedyn.State(liedyn.SE3(), np.zeros(2), np.zeros(6), np.zeros(3))


def test_random_models_of_every_joint_type():
    opt = liedyn.RandomModelOptions()
    assert not opt.every_joint_type and not opt.unrotated_placements
    opt.every_joint_type, opt.unrotated_placements = True, True
    m = liedyn.random_model(21, 5, opt)
    types = {m.joint(i).type for i in range(1, m.num_bodies)}
    assert types == {liedyn.JointType.Revolute, liedyn.JointType.Prismatic, liedyn.JointType.Helical,
                     liedyn.JointType.Spherical, liedyn.JointType.Free, liedyn.JointType.Planar,
                     liedyn.JointType.Universal}, types
    assert m.nv > 6 + 21
    # The options travel with the model's recipe (pickle) and give the same tree again.
    again = pickle.loads(pickle.dumps(opt))
    assert again.every_joint_type and again.unrotated_placements
    assert [m.joint(i).type for i in range(1, 22)] == \
        [liedyn.random_model(21, 5, again).joint(i).type for i in range(1, 22)]
    # Placements are pure translations.
    for i in range(1, 22):
        np.testing.assert_array_equal(m.joint(i).placement.rotation, np.eye(3))


def test_small_types_and_options():
    opt = liedyn.RandomModelOptions()
    opt.branching, opt.moving_base, opt.axis_aligned = 3, True, True
    opt.revolute_only, opt.armature, opt.gravity_off = True, 0.05, True
    m = liedyn.random_model(5, 2, opt)
    assert m.num_joints == 5 and m.has_moving_base
    np.testing.assert_array_equal(m.gravity, np.zeros(3))
    assert all(m.joint(i).type == liedyn.JointType.Revolute and m.joint(i).armature == 0.05 for i in range(1, 6))
    # The same generator seed gives the same model (C++'s std::mt19937).
    np.testing.assert_array_equal(liedyn.random_model(5, 2, opt).joint(3).axis, m.joint(3).axis)
    assert isinstance(m.joint(1), liedyn.Joint) and isinstance(m.frames[0], liedyn.Frame)
    # Joint.transform(q) is the H_parent the kinematics compute, bit for bit.
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 4)
    liedyn.forward_poses(m, d, x)
    for i in range(1, m.num_bodies):
        np.testing.assert_array_equal(m.joint(i).transform(x.s[i - 1]).matrix(), d.H_parent[i].matrix())
    # H_base (^0 H_i), written by aza_factorize, is the world pose seen from the base (a few
    # roundings apart: two products of the same transforms in another order).
    liedyn.aza_factorize(m, d, x.s)
    Hw, Hb = d.H_world, d.H_base
    for i in range(m.num_bodies):
        np.testing.assert_allclose((Hw[0].inverse() * Hw[i]).matrix(), Hb[i].matrix(), rtol=0, atol=1e-14)
    rel = liedyn.load_urdf_string(MIMIC_URDF).mimic_relations[0]
    assert isinstance(rel, liedyn.MimicRelation)
    pr = liedyn.JointSpec.prismatic("p", np.array([0, 0, 1.0]))
    assert pr.type == liedyn.JointType.Prismatic and pr.name == "p"
    pr.lower, pr.upper, pr.velocity_limit, pr.effort_limit, pr.pitch = -1.0, 1.0, 2.0, 3.0, 0.0
    pr.axis, pr.armature, pr.placement = np.array([1.0, 0, 0]), 0.1, liedyn.SE3()
    b = liedyn.ModelBuilder(liedyn.BaseType.Welded)
    b.set_inertia_check(liedyn.InertiaCheck.Physical)
    b.add_body(0, "slider", pr, liedyn.SpatialInertia.from_mass_com_inertia(1.0, np.zeros(3), np.eye(3)))
    w = b.build()
    j = w.joint(1)
    assert (j.lower, j.upper, j.velocity_limit, j.effort_limit, j.armature) == (-1.0, 1.0, 2.0, 3.0, 0.1)
    lo = liedyn.LinearizationOptions()
    assert lo.representation == liedyn.TwistRepresentation.Body and lo.minv == liedyn.MinvMethod.Automatic
    assert lo.dense_up_to_nv == 256
    lo.minv, lo.dense_up_to_nv = liedyn.MinvMethod.Dense, 10
    assert (lo.minv, lo.dense_up_to_nv) == (liedyn.MinvMethod.Dense, 10)
    # numdiff blocks: Pose and Twist are 6 columns each for a moving base.
    f4 = liedyn.figure4_model()
    y = liedyn.random_state(f4, 2)
    for block in (liedyn.numdiff.StateBlock.Pose, liedyn.numdiff.StateBlock.Twist):
        assert liedyn.numdiff.state_jacobian_block(f4, lambda z: z.s.copy(), y, block).shape == (7, 6)
    assert liedyn._testing.checks_enabled()
    assert "SE3(R=" in repr(liedyn.SE3()) and liedyn.SE3().copy().matrix().shape == (4, 4)
