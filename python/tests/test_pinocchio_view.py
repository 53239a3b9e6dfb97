"""liedyn.interop.PinocchioView: the kernels called with Pinocchio's (q, v, a | tau) and answering
in them, checked against Pinocchio's own numbers (the dumps of test_interop.py: Solo-12 and Talos
from Pinocchio 3.7, a tree with planar and free joints from Pinocchio 4.1) and against the
converters it replaces."""
import os

import numpy as np
import pytest

import liedyn
from liedyn.interop import JointPermutation, Library, PinocchioView
from conftest import DATA_DIR, relative_error
from test_interop import PINOCCHIO_TOL, pinocchio_case, read_dump  # noqa: F401  (a fixture)


def test_kernels_in_pinocchios_coordinates_equal_pinocchio(pinocchio_case):  # noqa: F811
    name, model, vecs, mats, perm = pinocchio_case
    view = PinocchioView(model, perm)
    assert (view.nq, view.nv) == (vecs["q"].size, vecs["v"].size)
    data = liedyn.Data(model)
    q, v = vecs["q"], vecs["v"]
    # The same tolerance as test_interop.py's comparisons of the same dumps (reason there).
    assert relative_error(view.rnea(data, q, v, vecs["a"]), vecs["rnea"]) < PINOCCHIO_TOL, name
    assert relative_error(view.aba(data, q, v, vecs["tau"]), vecs["aba"]) < PINOCCHIO_TOL, name
    a, ddq_dq, ddq_dv, ddq_dtau = view.aba_derivatives(data, q, v, vecs["tau"])
    assert relative_error(a, vecs["aba"]) < PINOCCHIO_TOL, name
    assert relative_error(ddq_dq, mats["dddq_dq"]) < PINOCCHIO_TOL, name
    assert relative_error(ddq_dv, mats["dddq_dv"]) < PINOCCHIO_TOL, name
    assert relative_error(ddq_dtau, mats["Minv"]) < PINOCCHIO_TOL, name
    # out= writes the caller's array and returns it.
    out = np.empty(view.nv)
    assert view.aba(data, q, v, vecs["tau"], out=out) is out
    assert relative_error(out, vecs["aba"]) < PINOCCHIO_TOL, name


def test_view_equals_the_converters_bit_for_bit(pinocchio_case):  # noqa: F811
    """The view's conversion is the converters' (index maps, no arithmetic): equal results."""
    name, model, vecs, _, perm = pinocchio_case
    io, P = liedyn.interop, Library.Pinocchio
    view = PinocchioView(model, perm)
    q, v = vecs["q"], vecs["v"]
    x = io.state_from(P, model, q, v, perm)
    y = view.state(q, v)
    assert np.array_equal(y.s, x.s) and np.array_equal(y.r, x.r) and np.array_equal(y.nu, x.nu)
    assert np.array_equal(y.H.matrix(), x.H.matrix())
    assert np.array_equal(view.configuration(x), io.configuration_to(P, model, x, perm))
    d1, d2 = liedyn.Data(model), liedyn.Data(model)
    tau = io.force_from(P, model, x.H, vecs["tau"], perm)
    expected = io.acceleration_to(P, model, x, liedyn.aba(model, d1, x, tau), perm)
    assert np.array_equal(view.aba(d2, q, v, vecs["tau"]), expected), name


def test_batch_rows_from_pinocchio_arrays(pinocchio_case):  # noqa: F811
    name, model, vecs, _, perm = pinocchio_case
    view = PinocchioView(model, perm)
    xs = [liedyn.random_state(model, k) for k in range(5)]
    Q = np.stack([view.configuration(x) for x in xs])
    V = np.stack([liedyn.interop.velocity_to(Library.Pinocchio, model, x, perm) for x in xs])
    rows = view.batch_states(Q, V)
    ys = liedyn.batch_state_list(model, rows)
    for x, y in zip(xs, ys):
        # A quaternion through a rotation matrix and back: a few ulps.
        assert relative_error(y.H.matrix(), x.H.matrix()) < 1e-15, name
        assert np.array_equal(y.s, x.s) and np.array_equal(y.r, x.r), name
    Q[2, 3:7] *= 1.5 if model.has_moving_base else 1.0
    if model.has_moving_base:
        with pytest.raises(liedyn.InvalidArgument, match="row 2: .*not a unit quaternion"):
            view.batch_states(Q, V)
    with pytest.raises(liedyn.InvalidArgument, match="Q must be"):
        view.batch_states(Q[:, 1:], V)


def test_the_view_needs_the_joint_order_stated():
    model = liedyn.load_urdf_file(os.path.join(DATA_DIR, "talos.urdf"))
    with pytest.raises(liedyn.InvalidArgument, match="give Pinocchio's joint order"):
        PinocchioView(model, None)
    view = PinocchioView(model, JointPermutation())  # stated: the orders agree
    assert view.nq == 7 + model.num_joints  # Talos: 1-DoF joints
    with pytest.raises(liedyn.InvalidArgument, match="PinocchioView.aba: q has size 3"):
        view.aba(liedyn.Data(model), np.zeros(3), np.zeros(view.nv), np.zeros(view.nv))


def test_from_pinocchio_reads_the_names_of_a_pinocchio_model():
    """A stand-in with Pinocchio's `names`: universe, the free flyer, the joints in its order."""
    model = liedyn.load_urdf_file(os.path.join(DATA_DIR, "talos.urdf"))
    vecs, _, names = read_dump(os.path.join(DATA_DIR, "talos.seed1.txt"))

    class PinModel:
        pass

    pin_model = PinModel()
    pin_model.names = ["universe", "root_joint"] + names  # type: ignore[attr-defined]
    view = PinocchioView.from_pinocchio(model, pin_model)
    data = liedyn.Data(model)
    assert relative_error(view.aba(data, vecs["q"], vecs["v"], vecs["tau"]), vecs["aba"]) < PINOCCHIO_TOL
