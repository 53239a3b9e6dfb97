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


def pose_from_fresh_data(m, x, frame):
    """^A H_F at x by forward_kinematics on a Data no other call has touched (the same pose as
    frame_pose's to rounding: frame_pose computes the frame's support chain alone)."""
    d = liedyn.Data(m)
    liedyn.forward_kinematics(m, d, x)
    fr = m.frame(frame)
    return (d.H_world[fr.body] * fr.placement).matrix()


def test_frame_pose_is_computed_at_the_given_state(solo12):
    m = solo12
    d = liedyn.Data(m)
    x1, x2 = liedyn.random_state(m, 5), liedyn.random_state(m, 6)
    f = m.frame_id("FL_FOOT")
    # data.H_world holds x1's poses, then aba runs at x2: the pose asked for is x1's all the same.
    liedyn.forward_kinematics(m, d, x1)
    liedyn.aba(m, d, x2, np.zeros(m.nv))
    np.testing.assert_allclose(liedyn.frame_pose(m, d, x1, f).matrix(), pose_from_fresh_data(m, x1, f), rtol=0, atol=1e-14)
    np.testing.assert_allclose(liedyn.frame_pose(m, d, x2, "FL_FOOT").matrix(), pose_from_fresh_data(m, x2, f), rtol=0, atol=1e-14)
    fr = m.frame(f)
    np.testing.assert_allclose(liedyn.frame_pose(m, liedyn.Data(m), x1, fr.body, fr.placement).matrix(),
                               pose_from_fresh_data(m, x1, f), rtol=0, atol=1e-14)
    assert np.abs(pose_from_fresh_data(m, x1, f) - pose_from_fresh_data(m, x2, f)).max() > 0.1
    # The calls without a state would read whichever poses data holds: refused, the fix named.
    with pytest.raises(liedyn.InvalidArgument, match=r"liedyn: frame_pose: pass the state: frame_pose\(model, data, x, frame\)"):
        liedyn.frame_pose(m, d, f)
    with pytest.raises(liedyn.InvalidArgument, match="pass the state"):
        liedyn.frame_pose(m, d, "FL_FOOT")
    with pytest.raises(liedyn.InvalidArgument, match="pass the state"):
        liedyn.frame_pose(m, d, fr.body, fr.placement)
    with pytest.raises(KeyError, match=r"liedyn: frame_pose: no frame named 'FL_FOT'; closest: 'FL_FOOT'"):
        liedyn.frame_pose(m, d, x1, "FL_FOT")
    with pytest.raises(liedyn.InvalidArgument, match=r"frame_pose: frame index 999 out of range"):
        liedyn.frame_pose(m, d, x1, 999)
    with pytest.raises(liedyn.InvalidArgument, match=r"frame_pose: body index -1 out of range"):
        liedyn.frame_pose(m, d, x1, -1, liedyn.SE3())


def test_forward_velocity_computes_the_poses_it_uses(solo12):
    m = solo12
    d, fresh = liedyn.Data(m), liedyn.Data(m)
    x1, x2 = liedyn.random_state(m, 5), liedyn.random_state(m, 6)
    liedyn.forward_poses(m, d, x1)
    liedyn.forward_velocity(m, d, x2)  # C++'s forward_velocity would use x1's H_parent
    liedyn.forward_kinematics(m, fresh, x2)
    np.testing.assert_array_equal(d.v, fresh.v)


def test_factorizations_of_a_fresh_data_raise(solo12):
    m = solo12
    fresh = liedyn.Data(m)
    with pytest.raises(liedyn.InvalidArgument,
                       match=r"liedyn: ltdl_factorize: data.M is not positive definite \(pivot 17\): compute it first \(crba\)"):
        liedyn.ltdl_factorize(m, fresh)
    fresh = liedyn.Data(m)
    # Solves with factors no call computed: division by the zero pivots, or zeros from AZA.
    with pytest.raises(liedyn.InvalidArgument,
                       match=r"ltdl_solve: data.ltdl holds no factorization \(pivot 0 is not positive\): run ltdl_factorize first"):
        liedyn.ltdl_solve(m, fresh, np.ones(m.nv))
    with pytest.raises(liedyn.InvalidArgument, match=r"ltdl_inverse: data.ltdl holds no factorization"):
        liedyn.ltdl_inverse(m, fresh)
    with pytest.raises(liedyn.InvalidArgument, match=r"aza_solve: data holds no factorization: run aza_factorize first"):
        liedyn.aza_solve(m, fresh, np.eye(m.nv))
    # In order, each works.
    x = liedyn.random_state(m, 8)
    M = liedyn.crba(m, fresh, x)
    liedyn.ltdl_factorize(m, fresh)
    y = np.linspace(-1.0, 1.0, m.nv)
    np.testing.assert_allclose(M @ liedyn.ltdl_solve(m, fresh, y), y, rtol=0, atol=1e-10)
    np.testing.assert_allclose(liedyn.ltdl_inverse(m, fresh) @ M, np.eye(m.nv), rtol=0, atol=1e-10)
    liedyn.aza_factorize(m, fresh, x.s)
    np.testing.assert_allclose(liedyn.aza_solve(m, fresh, M), np.eye(m.nv), rtol=0, atol=1e-10)
