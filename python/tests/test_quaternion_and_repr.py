"""SE3 from and to a quaternion plus translation, and the repr of State, Data, Joint and SE3."""
import numpy as np
import pytest

import liedyn


def rotation_z(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def test_from_quaternion_orders():
    # A rotation by 0.8 rad about z: (x, y, z, w) = (0, 0, sin 0.4, cos 0.4).
    xyzw = np.array([0.0, 0.0, np.sin(0.4), np.cos(0.4)])
    p = np.array([0.1, -0.2, 0.3])
    H = liedyn.SE3.from_quaternion(xyzw, p)  # the default order is xyzw, w last
    # The rotation matrix from a unit quaternion is exact up to a few ulps.
    assert np.abs(H.rotation - rotation_z(0.8)).max() < 1e-15
    assert np.array_equal(H.translation, p)
    wxyz = np.roll(xyzw, 1)
    assert np.array_equal(liedyn.SE3.from_quaternion(wxyz, p, order="wxyz").matrix(), H.matrix())
    # Reading w first as w last is another rotation: the order matters and is not guessed.
    assert np.abs(liedyn.SE3.from_quaternion(wxyz, p).rotation - H.rotation).max() > 0.1


def test_quaternion_round_trip_and_sign():
    rng = np.random.default_rng(3)
    for _ in range(20):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        H = liedyn.SE3.from_quaternion(q, rng.normal(size=3))
        back = H.quaternion()
        assert back[3] >= 0.0  # w >= 0: the one of q and -q (the same rotation) it returns
        # Quaternion -> matrix -> quaternion: a few ulps (Shepperd's method divides by the largest
        # of the four components, at least 1/2).
        assert np.abs(back - (q if q[3] >= 0 else -q)).max() < 1e-15
        assert np.array_equal(H.quaternion(order="wxyz"), np.roll(back, 1))
    # Not normalized: refused (test_silent_traps.py), or scaled to unit length when asked.
    H = liedyn.SE3.from_quaternion([0.0, 0.0, 2 * np.sin(0.4), 2 * np.cos(0.4)], [0, 0, 0],
                                   normalize=True)
    assert np.abs(H.rotation - rotation_z(0.8)).max() < 1e-15


def test_quaternion_agrees_with_scipy():
    Rotation = pytest.importorskip("scipy.spatial.transform").Rotation
    x = liedyn.random_state(liedyn.figure4_model(), 9)
    q = x.H.quaternion()
    # scipy's as_quat is (x, y, z, w) too: the same rotation up to the sign of q.
    # np.array: SE3's arrays are read-only views, which scipy < 1.11 (Debian 12's 1.10) refuses.
    r = Rotation.from_matrix(np.array(x.H.rotation)).as_quat()
    assert np.abs(np.abs(r @ q) - 1.0) < 1e-15
    assert np.abs(Rotation.from_quat(q).as_matrix() - x.H.rotation).max() < 1e-15


def test_from_quaternion_refuses():
    p = np.zeros(3)
    with pytest.raises(liedyn.InvalidArgument, match="order must be 'xyzw' or 'wxyz'"):
        liedyn.SE3.from_quaternion([0, 0, 0, 1], p, order="w_last")
    with pytest.raises(liedyn.InvalidArgument, match="order must be"):
        liedyn.SE3().quaternion(order="XYZW")
    with pytest.raises(liedyn.InvalidArgument, match="quaternion is zero"):
        liedyn.SE3.from_quaternion(np.zeros(4), p)
    with pytest.raises(liedyn.InvalidArgument, match="non-finite"):
        liedyn.SE3.from_quaternion([0, 0, np.nan, 1], p)
    with pytest.raises(liedyn.InvalidArgument, match="quaternion has size 3"):
        liedyn.SE3.from_quaternion([0, 0, 1], p)
    with pytest.raises(TypeError, match="complex"):
        liedyn.SE3.from_quaternion(np.array([0, 0, 0, 1], dtype=complex), p)
    with pytest.raises(TypeError):  # order is keyword-only: a positional string is no order
        liedyn.SE3.from_quaternion([0, 0, 0, 1], p, "wxyz")  # type: ignore[call-arg]  # on purpose


def test_repr_of_state_data_joint(solo12):
    x = liedyn.random_state(solo12, 2)
    r = repr(x)
    assert r.startswith("State(H=SE3(R=[") and ", s=[" in r and ", nu=[" in r and ", r=[" in r
    # Every entry is printed, to 6 significant digits.
    assert f"{x.s[0]:.6g}" in r and f"{x.r[-1]:.6g}" in r and f"{x.nu[3]:.6g}" in r
    assert repr(liedyn.Data(solo12)) == "<liedyn.Data for a model of 13 bodies, nv = 18>"
    j = solo12.joint(solo12.joint_id("FL_KFE"))
    assert repr(j).startswith("<liedyn.Joint 'FL_KFE': revolute, axis [")
    assert f"limits [{j.lower:.6g}, {j.upper:.6g}]" in repr(j) and repr(j).endswith("nq 1, nv 1>")
    fig4 = liedyn.figure4_model()
    helical = [fig4.joint(i) for i in range(1, 8) if fig4.joint(i).type == liedyn.JointType.Helical]
    assert helical and all(f"pitch {j.pitch:.6g}" in repr(j) for j in helical)


def test_repr_of_multi_dof_joints():
    import os

    from conftest import DATA_DIR
    model = liedyn.load_urdf_file(os.path.join(DATA_DIR, "planar_floating.urdf"),
                                  liedyn.UrdfOptions(weld_base=True))
    types = {model.joint(i).type for i in range(1, model.num_joints + 1)}
    assert {liedyn.JointType.Planar, liedyn.JointType.Free} <= types
    for i in range(1, model.num_joints + 1):
        j = model.joint(i)
        if j.type == liedyn.JointType.Free:
            assert ": free, " in repr(j) and "axis" not in repr(j) and "nq 7, nv 6>" in repr(j)
        if j.type == liedyn.JointType.Planar:
            assert ": planar, " in repr(j) and "nq 4, nv 3>" in repr(j)


BALL_MJCF = """<mujoco><worldbody><body name="torso"><freejoint/>
  <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
  <body name="pendulum" pos="0 0 -0.5"><joint name="ball" type="ball"/>
    <inertial pos="0 0 -0.2" mass="0.5" diaginertia="0.01 0.01 0.01"/></body>
</body></worldbody></mujoco>"""


def test_joint_types_and_a_ball_joint():
    # The seven joint types of C++ (liedyn::JointType), with their names.
    assert list(liedyn.JointType.__members__) == ["Revolute", "Prismatic", "Helical", "Spherical",
                                                  "Free", "Planar", "Universal"]
    model = liedyn.load_mjcf_string(BALL_MJCF)
    j = model.joint(1)
    assert j.type == liedyn.JointType.Spherical
    assert repr(j) == "<liedyn.Joint 'ball': spherical, nq 4, nv 3>"
