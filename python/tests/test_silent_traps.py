"""The inputs that gave wrong answers without a word to a user coming from Pinocchio, each now a
clear error or a right answer: new arrays read by numpy 2 (the module refuses a numpy its
pybind11 cannot read; scripts/check-numpy-pairs.sh builds that pairing), a Pinocchio vector
converted without its joint permutation, writes through State.H, and matrices that are not
rotations."""
import os

import numpy as np
import pytest

import liedyn
from liedyn.interop import JointPermutation, Library
from conftest import DATA_DIR, SOLO12
from test_interop import TALOS, read_dump


# --- new arrays: right strides and values under whichever numpy imports the module -------------

def test_new_arrays_have_their_own_entries(solo12):
    """The trap: built with pybind11 < 2.12 and run under numpy 2, every new array had stride 0
    (all entries equal to the first). Such a module now refuses to import (numpy_compat.hpp); an
    imported module's new arrays are checked against out= (which writes a caller's array)."""
    m, d = solo12, liedyn.Data(solo12)
    x = liedyn.random_state(m, 3)
    g = liedyn.gravity_force(m, d, x)
    assert g.strides == (8,)
    out = np.empty(m.nv)
    liedyn.gravity_force(m, d, x, out=out)
    np.testing.assert_array_equal(g, out)
    assert len(set(g.tolist())) > 1  # the stride-0 array had one value 18 times
    M = liedyn.crba(m, d, x)
    assert M.strides in ((8, 8 * m.nv), (8 * m.nv, 8))
    np.testing.assert_array_equal(M, M.T)  # symmetric, whole (no upper triangle only)


def test_module_records_a_pybind11_that_reads_this_numpy():
    major = int(np.__version__.split(".")[0])
    pb_major, pb_minor = (int(v) for v in liedyn._liedyn._pybind11_version.split(".")[:2])
    assert major < 2 or (pb_major, pb_minor) >= (2, 12)


# --- joint permutations: never silently the identity for Pinocchio ---------------------------

@pytest.mark.parametrize("urdf, dump, options", [
    (SOLO12, "solo12.seed1.txt", None),
    (TALOS, "talos.seed1.txt", None),
    (os.path.join(DATA_DIR, "planar_floating.urdf"),
     os.path.join("pinocchio4", "urdf_planar_floating.seed1.txt"), liedyn.UrdfOptions(weld_base=True)),
])
def test_pinocchio_urdf_joint_order_is_pinocchios(urdf, dump, options):
    """The order a perm=None call checks is the order Pinocchio 4.1 itself listed in the dumps."""
    model = liedyn.load_urdf_file(urdf, options) if options else liedyn.load_urdf_file(urdf)
    _, _, names = read_dump(os.path.join(DATA_DIR, dump))
    assert liedyn.interop.pinocchio_urdf_joint_order(model) == names


def test_a_pinocchio_vector_without_its_permutation_is_refused():
    """The trap: on Talos, configuration_to(Pinocchio, model, x) without perm fed to pin.aba was
    off by 208 %. Now every converter refuses perm=None for Pinocchio where the orders differ,
    naming the first joint that differs."""
    model = liedyn.load_urdf_file(TALOS)
    vecs, _, names = read_dump(os.path.join(DATA_DIR, "talos.seed1.txt"))
    x = liedyn.random_state(model, 1)
    io = liedyn.interop
    first = "its joint 1 is 'leg_left_1_joint', liedyn's is 'torso_1_joint'"
    calls = [
        lambda p: io.configuration_to(Library.Pinocchio, model, x, p),
        lambda p: io.state_from(Library.Pinocchio, model, vecs["q"], vecs["v"], p),
        lambda p: io.velocity_to(Library.Pinocchio, model, x, p),
        lambda p: io.force_to(Library.Pinocchio, model, x.H, np.zeros(model.nv), p),
        lambda p: io.matrix_to(Library.Pinocchio, model, x.H, np.eye(model.nv), p),
    ]
    perm = JointPermutation.from_names(model, names)
    for call in calls:
        with pytest.raises(liedyn.InvalidArgument, match=first):
            call(None)
        call(perm)  # the permutation given: accepted
        call(JointPermutation())  # the identity stated: accepted (the caller's word)
    # Other libraries keep their orders' own rules (MuJoCo follows the model file's order).
    io.configuration_to(Library.MuJoCo, model, x)


def test_no_permutation_is_needed_where_the_orders_agree(solo12):
    x = liedyn.random_state(solo12, 2)
    q = liedyn.interop.configuration_to(Library.Pinocchio, solo12, x)
    assert q.shape == (7 + 12,)


# --- State.H: a value, not a view that drops writes ---------------------------------------

def test_writes_through_state_H_raise_instead_of_vanishing(solo12):
    """The trap: x.H.translation[2] += 0.1 changed a copy; now the arrays are read-only."""
    x = liedyn.random_state(solo12, 4)
    with pytest.raises(ValueError, match="read-only"):
        x.H.translation[2] += 0.1
    with pytest.raises(ValueError, match="read-only"):
        x.H.rotation[0, 0] = 1.0
    with pytest.raises(AttributeError, match="immutable value; build a new one"):
        x.H.translation = np.zeros(3)
    with pytest.raises(AttributeError, match="immutable value"):
        x.H.rotation = np.eye(3)
    # The way to move the base: assign a new SE3.
    p = x.H.translation + np.array([0.0, 0.0, 0.1])
    x.H = liedyn.SE3(x.H.rotation, p)
    np.testing.assert_array_equal(x.H.translation, p)


def test_a_kept_pose_is_a_copy(solo12):
    """The trap: H0 = x.H aliased the state, so x.H = ... overwrote the kept "initial pose"."""
    x = liedyn.random_state(solo12, 5)
    H0 = x.H
    kept = H0.matrix().copy()
    x.H = liedyn.SE3.exp(np.array([1.0, 2.0, 3.0, 0.1, 0.2, 0.3]))
    np.testing.assert_array_equal(H0.matrix(), kept)
    assert not np.array_equal(x.H.matrix(), kept)


# --- rotations checked wherever one enters --------------------------------------------------

def sheared():
    S = np.eye(3)
    S[0, 1] = 0.3
    return S


@pytest.mark.parametrize("R, why", [
    (2 * np.eye(3), "differs from the identity by 3"),
    (sheared(), "differs from the identity by 0.3"),
    (np.diag([1.0, 1.0, -1.0]), "determinant is not positive"),
    (np.full((3, 3), np.nan), "determinant is not positive"),
])
def test_a_matrix_that_is_no_rotation_is_refused(R, why):
    """The trap: SE3(2 * I, p) or a sheared R were accepted, and aba was then off by 4."""
    p = np.zeros(3)
    with pytest.raises(liedyn.InvalidArgument, match=f"SE3: R is not a rotation matrix.*{why}"):
        liedyn.SE3(R, p)
    H = np.eye(4)
    H[:3, :3] = R
    with pytest.raises(liedyn.InvalidArgument, match="the rotation block of H is not a rotation"):
        liedyn.SE3.from_matrix(H)


def test_rotations_within_the_tolerance_pass_and_projection_is_explicit():
    R = liedyn.SE3.exp(np.array([0, 0, 0, 0.3, -0.2, 0.5])).rotation
    # float32 data: about 1e-7 off, inside liedyn.rotation_tolerance (1e-6).
    R32 = R.astype(np.float32).astype(np.float64)
    np.testing.assert_array_equal(liedyn.SE3(R32, np.zeros(3)).rotation, R32)
    # project=True: the nearest rotation (R's own for a scaled copy: polar decomposition).
    G = liedyn.SE3(1.5 * R, np.zeros(3), project=True).rotation
    assert np.abs(G - R).max() < 1e-15  # one SVD of a well-conditioned 3x3: a few ulps
    with pytest.raises(liedyn.InvalidArgument, match="cannot be projected"):
        liedyn.SE3(-R, np.zeros(3), project=True)
    H = np.eye(4)
    H[3, 0] = 1.0
    with pytest.raises(liedyn.InvalidArgument, match=r"last row of H must be \[0, 0, 0, 1\]"):
        liedyn.SE3.from_matrix(H)


def test_a_batch_row_whose_R_is_no_rotation_is_refused(solo12):
    m = solo12
    xs = [liedyn.random_state(m, k) for k in range(3)]
    rows = liedyn.batch_states(m, xs)
    rows[1, 0:9] *= 2.0  # row 1's R scaled
    ws = liedyn.BatchWorkspace(m, 1)
    with pytest.raises(liedyn.InvalidArgument, match=r"state 1: .*the base rotation R is not a rotation"):
        liedyn.batch_aba(m, ws, rows, np.zeros((3, m.nv)))
    with pytest.raises(liedyn.InvalidArgument, match="the base rotation R is not a rotation"):
        liedyn.batch_state_list(m, rows)


def test_quaternions_have_one_policy(solo12):
    """The trap: interop.state_from normalized a quaternion of norm 1.7 while the CLI refused it.
    Now a quaternion must be of unit norm within rotation_tolerance wherever it enters."""
    x = liedyn.random_state(solo12, 6)
    q = liedyn.interop.configuration_to(Library.Pinocchio, solo12, x)
    v = liedyn.interop.velocity_to(Library.Pinocchio, solo12, x)
    q[3:7] *= 1.7
    with pytest.raises(liedyn.InvalidArgument, match="the base quaternion is not a unit quaternion: its norm is 1.7"):
        liedyn.interop.state_from(Library.Pinocchio, solo12, q, v)
    xyzw = np.array([0.0, 0.0, np.sin(0.4), np.cos(0.4)])
    with pytest.raises(liedyn.InvalidArgument, match="not a unit quaternion"):
        liedyn.SE3.from_quaternion(2 * xyzw, np.zeros(3))
    H = liedyn.SE3.from_quaternion(2 * xyzw, np.zeros(3), normalize=True)
    # Quaternion -> rotation matrix -> quaternion: a few ulps.
    np.testing.assert_allclose(H.quaternion(), xyzw, rtol=0, atol=1e-15)
    assert liedyn.rotation_tolerance == 1e-6


# --- smaller traps ---------------------------------------------------------------------------

def test_a_reloaded_model_names_the_real_cause(solo12):
    d = liedyn.Data(solo12)
    again = liedyn.load_urdf_file(SOLO12)
    with pytest.raises(liedyn.InvalidArgument, match="another Model object of the same sizes .a model "
                       "loaded or built again is a new model"):
        liedyn.crba(again, d, liedyn.random_state(again, 1))


def test_out_of_another_dtype_is_named_by_its_dtype(solo12):
    d = liedyn.Data(solo12)
    x = liedyn.random_state(solo12, 1)
    with pytest.raises(TypeError, match="must be a numpy array of float64, got an array of dtype float32"):
        liedyn.gravity_force(solo12, d, x, out=np.zeros(solo12.nv, dtype=np.float32))


def test_lambda_has_a_name_one_can_type(solo12):
    feet = [liedyn.ConstraintSpec.point_contact(f) for f in ("FL_FOOT", "FR_FOOT")]
    cset = liedyn.ConstraintSet(solo12, feet)
    cdata = liedyn.ConstraintData(solo12, cset)
    d = liedyn.Data(solo12)
    x = liedyn.random_state(solo12, 2)
    liedyn.constrained_forward_dynamics(solo12, d, cset, cdata, x, np.zeros(solo12.nv))
    np.testing.assert_array_equal(cdata.lambda_, getattr(cdata, "lambda"))
    assert cdata.lambda_.shape == (6,)


def test_options_and_specs_say_what_they_hold():
    o = liedyn.LinearizationOptions(representation=liedyn.TwistRepresentation.Mixed)
    assert repr(o) == ("LinearizationOptions(representation=TwistRepresentation.Mixed, "
                       "minv=MinvMethod.Automatic, dense_up_to_nv=256)")
    c = liedyn.ConstraintSpec.point_contact("FL_FOOT")
    assert repr(c) == "<liedyn.ConstraintSpec point contact of 'FL_FOOT', sense TwistRepresentation.Body>"
    k = liedyn.ConstraintSpec.coupling("a", "b", 2.0)
    assert repr(k) == "<liedyn.ConstraintSpec coupling 'a' = 2.0 * 'b' + 0.0>"


def test_frames_by_name_everywhere(solo12):
    """frame_pose took names; frame_jacobian, frame_velocity, frame_acceleration_bias and
    batch_frame_placements took only ids (a name gave pybind11's "incompatible function
    arguments" wall). Now every one takes either, and a wrong name a KeyError naming the closest."""
    m, d = solo12, liedyn.Data(solo12)
    x = liedyn.random_state(m, 8)
    f = m.frame_id("FL_FOOT")
    for rep in (liedyn.TwistRepresentation.Body, liedyn.TwistRepresentation.Mixed):
        np.testing.assert_array_equal(liedyn.frame_jacobian(m, d, x, "FL_FOOT", rep),
                                      liedyn.frame_jacobian(m, d, x, f, rep))
        np.testing.assert_array_equal(liedyn.frame_velocity(m, d, x, "FL_FOOT", rep),
                                      liedyn.frame_velocity(m, d, x, f, rep))
        np.testing.assert_array_equal(liedyn.frame_acceleration_bias(m, d, x, "FL_FOOT", rep),
                                      liedyn.frame_acceleration_bias(m, d, x, f, rep))
    ws = liedyn.BatchWorkspace(m, 1)
    rows = liedyn.batch_states(m, [x])
    R1, p1 = liedyn.batch_frame_placements(m, ws, rows, ["FL_FOOT", "HR_FOOT"])
    R2, p2 = liedyn.batch_frame_placements(m, ws, rows, [f, m.frame_id("HR_FOOT")])
    np.testing.assert_array_equal(R1, R2)
    np.testing.assert_array_equal(p1, p2)
    with pytest.raises(KeyError, match="no frame named 'FL_FOT'; closest: 'FL_FOOT'"):
        liedyn.frame_jacobian(m, d, x, "FL_FOT")
    with pytest.raises(KeyError, match="no frame named 'FL_FOT'"):
        liedyn.batch_frame_placements(m, ws, rows, ["FL_FOT"])
