"""No silent surprises: an unknown name, a non-finite or complex input, a scalar or a (1, n) array
where a vector is expected, a Data of another model: each gives a clear, typed error instead of
a wrong answer or pybind11's generic "incompatible function arguments"."""
import numpy as np
import pytest

import liedyn
from conftest import SOLO12


def test_unknown_names_raise_key_error_with_the_closest_names(solo12):
    m = solo12
    with pytest.raises(KeyError, match=r"liedyn: Model.frame_id: no frame named 'FL_FOT'; closest: 'FL_FOOT'"):
        m.frame_id("FL_FOT")
    with pytest.raises(KeyError, match=r"liedyn: Model.joint_id: no joint named 'FL_KNEE'"):
        m.joint_id("FL_KNEE")
    with pytest.raises(KeyError, match=r"no joint named 'FL_KFF'; closest: 'FL_KFE', "):
        m.joint_id("FL_KFF")
    with pytest.raises(KeyError, match=r"no body named 'base'; closest: 'base_link'"):
        m.body_id("base")
    with pytest.raises(KeyError, match=r"no frame named 'zzz' \(nothing close among its \d+\)"):
        m.frame_id("zzz")
    # Known names still map to their indices, consistent with the name lists.
    assert m.frame_names[m.frame_id("FL_FOOT")] == "FL_FOOT"
    assert m.frame(m.frame_id("FL_FOOT")).name == "FL_FOOT"
    assert m.body_names[m.body_id("base_link")] == "base_link"


def test_non_finite_inputs_are_refused_at_the_boundary(solo12):
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 1)
    tau = np.zeros(m.nv)
    bad = x.copy()
    s = bad.s.copy()
    s[3] = np.nan
    bad.s = s
    with pytest.raises(liedyn.InvalidArgument, match=r"liedyn: aba: state.s has a non-finite entry"):
        liedyn.aba(m, d, bad, tau)
    # The constrained dynamics blamed a "rank deficient" Jacobian for a NaN in the state.
    cs = liedyn.ConstraintSet(m, [liedyn.ConstraintSpec.point_contact("FL_FOOT")])
    with pytest.raises(liedyn.InvalidArgument, match="constrained_forward_dynamics: state.s has a non-finite"):
        liedyn.constrained_forward_dynamics(m, d, cs, liedyn.ConstraintData(m, cs), bad, tau)
    tau_inf = tau.copy()
    tau_inf[0] = np.inf
    with pytest.raises(liedyn.InvalidArgument, match=r"liedyn: aba: tau has a non-finite entry"):
        liedyn.aba(m, d, x, tau_inf)
    with pytest.raises(ValueError, match=r"liedyn: rnea: ddq has a non-finite entry"):
        liedyn.rnea(m, d, x, np.full(m.nv, np.nan))
    # The switch: off, the kernels run on whatever they get (no check's cost), on again after.
    assert liedyn.finite_checks_enabled()
    liedyn.set_finite_checks(False)
    try:
        assert not liedyn.finite_checks_enabled()
        assert np.isnan(liedyn.aba(m, d, x, np.full(m.nv, np.nan))).all()
    finally:
        liedyn.set_finite_checks(True)
    with pytest.raises(liedyn.InvalidArgument):
        liedyn.aba(m, d, x, tau_inf)


def test_complex_and_non_numeric_arrays_are_refused(solo12):
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 2)
    with pytest.raises(TypeError, match=r"liedyn: expected a 1-D array of float64, got a complex array \(complex128\)"):
        liedyn.aba(m, d, x, np.zeros(m.nv) + 1j)
    with pytest.raises(TypeError, match="got an array of dtype <U3"):
        liedyn.aba(m, d, x, np.array(["abc"] * m.nv))
    with pytest.raises(TypeError, match="got an array of dtype bool"):
        liedyn.rnea(m, d, x, np.zeros(m.nv, dtype=bool))
    with pytest.raises(TypeError, match=r"liedyn: expected a 2-D array of float64, got a complex array"):
        liedyn.linearize_actuated(m, d, x, np.zeros((m.nv, 2), dtype=complex), np.zeros(2))
    # Integer arrays and lists are numbers: converted as before.
    want = liedyn.rnea(m, d, x, np.ones(m.nv))
    np.testing.assert_array_equal(liedyn.rnea(m, d, x, np.ones(m.nv, dtype=int)), want)
    np.testing.assert_array_equal(liedyn.rnea(m, d, x, [1.0] * m.nv), want)


def test_wrong_shapes_and_scalars_get_a_clear_error(solo12):
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 3)
    with pytest.raises(ValueError, match=r"liedyn: expected a 1-D array of float64, got an array of shape \(1, 18\)"):
        liedyn.aba(m, d, x, np.zeros((1, m.nv)))
    with pytest.raises(TypeError, match=r"liedyn: expected a 1-D array of float64, got the scalar 0.5"):
        liedyn.aba(m, d, x, 0.5)
    with pytest.raises(TypeError, match=r"got the scalar 3"):
        liedyn.crba(m, d, 3)  # neither a State (first overload) nor joint positions
    with pytest.raises(ValueError, match=r"expected a 2-D array of float64, got an array of shape \(18,\)"):
        liedyn.linearize_actuated(m, d, x, np.zeros(m.nv), np.zeros(1))


def test_data_of_another_model_raises_invalid_argument(solo12):
    m = solo12
    x = liedyn.random_state(m, 4)
    other = liedyn.figure4_model()
    with pytest.raises(liedyn.InvalidArgument, match=r"liedyn: crba: data was made for a model with 8 bodies"):
        liedyn.crba(m, liedyn.Data(other), x)
    # The same sizes but another Model object: refused too, the Python way to fix it named.
    twin = liedyn.load_urdf_file(SOLO12)
    with pytest.raises(liedyn.InvalidArgument, match=r"another Model object.*liedyn.Data\(model\)"):
        liedyn.aba(m, liedyn.Data(twin), x, np.zeros(m.nv))
    assert issubclass(liedyn.InvalidArgument, ValueError)
