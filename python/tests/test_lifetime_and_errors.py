"""Views of Data's fields: read-only, alive after the Data is gone, overwritten by the next kernel;
several Data on one Model; wrong sizes and wrong Data raise with the C++ message."""
import gc
import weakref

import numpy as np
import pytest

import liedyn


def test_data_fields_are_read_only_views_results_are_copies(solo12):
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 1)
    tau = liedyn.rnea(m, d, x, np.zeros(m.nv))
    view = d.tau
    assert not view.flags.writeable and view.base is d
    with pytest.raises(ValueError):
        view[0] = 1.0
    np.testing.assert_array_equal(tau, view)
    assert not np.shares_memory(tau, view)
    # The next kernel writing data.tau changes what the view shows, not the earlier result.
    kept = tau.copy()
    G = liedyn.gravity_force(m, d, x)
    np.testing.assert_array_equal(view, G)
    np.testing.assert_array_equal(tau, kept)
    assert not np.array_equal(kept, G)
    M = liedyn.crba(m, d, x)
    assert M.shape == (18, 18) and M.flags.f_contiguous and M.flags.writeable
    assert d.M.flags.f_contiguous and not d.M.flags.writeable
    for name in ("tau", "h", "ddq", "M", "Minv", "ltdl", "F", "D1", "D2", "D3", "D4", "A", "B"):
        assert not getattr(d, name).flags.writeable, name


def test_views_outlive_the_data_object(solo12):
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 2)
    liedyn.rnea(m, d, x, np.ones(m.nv))
    liedyn.linearize(m, d, x, np.zeros(m.nv))
    liedyn.eidamb_derivatives(m, d, x, np.zeros(m.nv))
    views = [d.tau, d.A, d.B, d.D1, d.D2, d.D3, d.D4]
    expected = [np.array(a) for a in views]
    ref = weakref.ref(d)
    del d
    gc.collect()
    assert ref() is not None  # the views hold the Data
    for got, want in zip(views, expected):
        np.testing.assert_array_equal(got, want)  # readable, unchanged, no crash
    del views, got
    gc.collect()
    assert ref() is None  # and release it with the last view


def test_state_views_keep_the_state_alive(solo12):
    x = liedyn.random_state(solo12, 3)
    s, H = x.s, x.H
    want_s, want_H = np.array(s), H.matrix()
    ref = weakref.ref(x)
    del x
    gc.collect()
    assert ref() is not None
    np.testing.assert_array_equal(s, want_s)
    np.testing.assert_array_equal(H.matrix(), want_H)


def test_model_shared_by_several_data(solo12):
    m = solo12
    datas = [liedyn.Data(m) for _ in range(3)]
    xs = [liedyn.random_state(m, k) for k in range(3)]
    outs = [liedyn.rnea(m, d, x, np.zeros(m.nv)) for d, x in zip(datas, xs)]
    for d, x, out in zip(datas, xs, outs):
        fresh = liedyn.Data(m)
        np.testing.assert_array_equal(out, liedyn.rnea(m, fresh, x, np.zeros(m.nv)))
    del m  # the fixture keeps the Model, but the Data never referred to it: still usable
    gc.collect()
    np.testing.assert_array_equal(outs[0], np.array(outs[0]))


def test_wrong_sizes_raise_with_the_cpp_message(solo12):
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 1)
    bad = np.zeros(5)
    cases = [
        (lambda: liedyn.rnea(m, d, x, bad), "liedyn: rnea: ddq has size 5, expected 18"),
        (lambda: liedyn.eidamb(m, d, x, bad), "liedyn: eidamb: ddq has size 5, expected 18"),
        (lambda: liedyn.aba(m, d, x, bad), "liedyn: aba: tau has size 5, expected 18"),
        (lambda: liedyn.crba(m, d, bad), "liedyn: crba: s has size 5, expected 12"),
        (lambda: liedyn.immamb(m, d, bad), "liedyn: immamb: s has size 5, expected 12"),
        (lambda: liedyn.eidamb_derivatives(m, d, x, bad), "liedyn: eidamb_derivatives: ddq has size 5, expected 18"),
        (lambda: liedyn.linearize(m, d, x, bad), "liedyn: linearize: tau has size 5, expected 18"),
        (lambda: liedyn.linearize_discrete(m, d, x, bad, 0.01), "liedyn: linearize_discrete: tau has size 5, expected 18"),
        (lambda: liedyn.semi_implicit_euler_step(m, d, x, bad, 0.01),
         "liedyn: semi_implicit_euler_step: tau has size 5, expected 18"),
        (lambda: liedyn.linearize_actuated(m, d, x, np.zeros((18, 2)), np.zeros(3)),
         "liedyn: linearize_actuated: actuation has size 18 x 2, expected 18 x 3"),
        (lambda: liedyn.aza_factorize(m, d, bad), "liedyn: aza_factorize: s has size 5, expected 12"),
        (lambda: liedyn.ltdl_solve(m, d, bad), "liedyn: ltdl_solve: y has size 5, expected 18"),
        (lambda: liedyn.forward_dynamics_llt(m, d, x, bad), "liedyn: forward_dynamics_llt: tau has size 5, expected 18"),
    ]
    for call, msg in cases:
        with pytest.raises(ValueError) as err:
            call()
        assert str(err.value) == msg
    liedyn.aza_factorize(m, d, x.s)
    with pytest.raises(ValueError, match="liedyn: aza_solve"):
        liedyn.aza_solve(m, d, np.zeros((5, 2)))
    # A state of another model: the library's check_state message.
    other = liedyn.figure4_model()
    y = liedyn.random_state(other, 1)
    with pytest.raises(ValueError, match="liedyn: rnea: state.s has size 7, expected 12"):
        liedyn.rnea(m, d, y, np.zeros(m.nv))
    with pytest.raises(ValueError, match="liedyn: forward_kinematics: state.s has size 7, expected 12"):
        liedyn.forward_kinematics(m, d, y)
    # A Data made for another model would be indexed out of bounds: refused.
    with pytest.raises(ValueError, match="liedyn: crba: data was made for a model with 8 bodies and nv = 13"):
        liedyn.crba(m, liedyn.Data(other), x)
    # Indices: the kernels' own checks raise liedyn.InvalidArgument (a ValueError), those of
    # the Python containers IndexError.
    with pytest.raises(liedyn.InvalidArgument, match="body index 99 out of range"):
        liedyn.body_jacobian(m, d, x, 99)
    with pytest.raises(ValueError, match="frame"):
        liedyn.frame_jacobian(m, d, x, 10 ** 6)
    with pytest.raises(IndexError, match=r"liedyn: Model.joint: joint 0 out of range \[1, 12\]"):
        m.joint(0)
    with pytest.raises(IndexError):
        m.parents[99]
    with pytest.raises(IndexError):
        m.children(13)
    # A numpy array of the wrong dtype or shape is a TypeError from pybind11 (not a crash).
    with pytest.raises(TypeError):
        liedyn.rnea(m, d, x, "not an array")
