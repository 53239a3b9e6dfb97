"""Pickling and copying: a Model, State, SE3, SpatialInertia, ConstraintSpec and the option
types survive pickle (what multiprocessing and Ray use to ship them) exactly."""
import copy
import os
import pickle

import numpy as np
import pytest

import liedyn
from conftest import DATA_DIR, MODELS


def models():
    found = dict(MODELS)
    found["cassie"] = lambda: liedyn.load_mjcf_robot_file(
            os.path.join(DATA_DIR, "mjcf", "cassie.xml")).model
    found["planar_floating"] = lambda: liedyn.load_urdf_file(
        os.path.join(DATA_DIR, "planar_floating.urdf"))
    # Diagnostics (lenient inertias), mimic relations and fixed links kept as frames.
    found["imperfect"] = lambda: liedyn.load_urdf_file(
        os.path.join(DATA_DIR, "imperfect_inertias.urdf"))
    found["talos"] = lambda: liedyn.load_urdf_file(os.path.join(DATA_DIR, "talos.urdf"))
    found["solo12_locked"] = lambda: liedyn.lock_joints(
        liedyn.load_urdf_file(os.path.join(DATA_DIR, "solo12.urdf")), ["FL_KFE"], [0.3])
    return found


MODELS_TO_PICKLE = models()


@pytest.fixture(params=sorted(MODELS_TO_PICKLE))
def original(request):
    return MODELS_TO_PICKLE[request.param]()


def test_a_pickled_model_is_the_same_model(original):
    m = original
    u = pickle.loads(pickle.dumps(m))
    assert isinstance(u, liedyn.Model) and u is not m
    for attr in ("nv", "num_bodies", "base_type", "parents", "body_names", "frame_names",
                 "total_mass"):
        assert getattr(u, attr) == getattr(m, attr), attr
    assert [(j.name, j.type) for j in map(m.joint, range(1, m.num_bodies))] == \
        [(j.name, j.type) for j in map(u.joint, range(1, u.num_bodies))]
    assert [(r.joint, r.leader, r.multiplier, r.offset) for r in m.mimic_relations] == \
        [(r.joint, r.leader, r.multiplier, r.offset) for r in u.mimic_relations]
    assert liedyn.model_diagnostics(u) == liedyn.model_diagnostics(m)
    assert u.singular_joints == m.singular_joints
    for f in range(len(m.frame_names)):
        assert m.frames[f].body == u.frames[f].body
        assert np.array_equal(m.frames[f].placement.matrix(), u.frames[f].placement.matrix())
    # Every number of the model takes part in these: equal bit for bit.
    dm, du = liedyn.Data(m), liedyn.Data(u)
    for seed in (1, 2):
        x = liedyn.random_state(m, seed)
        tau = np.random.default_rng(seed).uniform(-1.0, 1.0, m.nv)
        assert np.array_equal(liedyn.rnea(m, dm, x, tau), liedyn.rnea(u, du, x, tau))
        assert np.array_equal(liedyn.crba(m, dm, x), liedyn.crba(u, du, x))
        assert np.array_equal(liedyn.centroidal_momentum(m, dm, x),
                              liedyn.centroidal_momentum(u, du, x))
        for f in range(0, len(m.frame_names), 5):
            assert np.array_equal(liedyn.frame_jacobian(m, dm, x, f),
                                  liedyn.frame_jacobian(u, du, x, f))
        if not m.singular_joints:
            for a, b in zip(liedyn.linearize(m, dm, x, tau), liedyn.linearize(u, du, x, tau)):
                assert np.array_equal(a, b)
    # A Data belongs to its Model object: the unpickled model needs its own.
    with pytest.raises(liedyn.InvalidArgument):
        liedyn.crba(u, dm, liedyn.random_state(u, 1))


def test_a_model_copy_is_the_model_itself(solo12):
    # Immutable, so a copy may be the object itself (as for a tuple), and its Data serves it.
    assert copy.copy(solo12) is solo12 and copy.deepcopy(solo12) is solo12


def test_a_corrupted_model_pickle_is_refused(solo12):
    state = liedyn._liedyn._model_state(solo12)
    with pytest.raises(liedyn.InvalidArgument, match="not a pickled liedyn Model"):
        liedyn._liedyn._model_from_state(state[:5])
    bad = list(state)
    bad[6] = [list(b) for b in state[6]]
    bad[6][0][2] = list(bad[6][0][2])
    bad[6][0][2][1] = 42  # no such joint type
    with pytest.raises(liedyn.InvalidArgument, match="joint type 42"):
        liedyn._liedyn._model_from_state(tuple(bad))
    bad = list(state)
    bad[6] = [("x", 7, state[6][0][2], state[6][0][3])] + list(state[6][1:])  # parent not yet
    with pytest.raises(liedyn.ModelError):
        liedyn._liedyn._model_from_state(tuple(bad))


def test_states_and_value_types_round_trip_exactly(solo12):
    x = liedyn.random_state(solo12, 4)
    for y in (pickle.loads(pickle.dumps(x)), copy.copy(x), copy.deepcopy(x)):
        assert np.array_equal(y.H.matrix(), x.H.matrix())
        assert np.array_equal(y.s, x.s) and np.array_equal(y.nu, x.nu)
        assert np.array_equal(y.r, x.r)
    H = liedyn.SE3.exp(np.array([0.1, -0.2, 0.3, 0.4, -0.5, 0.6]))
    assert np.array_equal(pickle.loads(pickle.dumps(H)).matrix(), H.matrix())
    inertia = solo12.inertia(3)
    assert np.array_equal(pickle.loads(pickle.dumps(inertia)).matrix(), inertia.matrix())


def test_option_types_round_trip(solo12):
    opt = liedyn.LinearizationOptions(liedyn.TwistRepresentation.Mixed, liedyn.MinvMethod.Sweeps,
                                      7)
    back = pickle.loads(pickle.dumps(opt))
    assert (back.representation, back.minv, back.dense_up_to_nv) == \
        (liedyn.TwistRepresentation.Mixed, liedyn.MinvMethod.Sweeps, 7)
    u = liedyn.UrdfOptions()
    u.weld_base = True
    u.gravity = np.array([0.0, 1.0, -3.0])
    u.inertia = liedyn.InertiaPolicy.balance
    back = pickle.loads(pickle.dumps(u))
    assert back.weld_base and back.inertia == liedyn.InertiaPolicy.balance
    assert np.array_equal(back.gravity, u.gravity)
    mj = liedyn.MjcfOptions()
    mj.unsupported = liedyn.UnsupportedElements.skip
    assert pickle.loads(pickle.dumps(mj)).unsupported == liedyn.UnsupportedElements.skip


def test_constraint_specs_round_trip_with_every_field(solo12):
    m = solo12
    contact = liedyn.ConstraintSpec.point_contact("FL_FOOT", liedyn.TwistRepresentation.Mixed)
    contact.Kd = 3.0
    loop = liedyn.ConstraintSpec.loop(liedyn.ConstraintType.RevoluteLoop, "HL_FOOT", "HR_FOOT",
                                      liedyn.TwistRepresentation.Body, np.array([0.0, 1.0, 0.0]))
    specs = [contact, loop]
    back = pickle.loads(pickle.dumps(specs))
    x = liedyn.random_state(m, 2)
    sets = [liedyn.ConstraintSet(m, s) for s in (specs, back)]
    J = []
    for cs in sets:
        cd = liedyn.ConstraintData(m, cs)
        liedyn.constraint_kinematics(m, liedyn.Data(m), cs, cd, x)
        J.append(np.array(cd.J))
        assert cs.describe(1) == sets[0].describe(1)
    assert np.array_equal(J[0], J[1])


def test_a_data_is_not_pickled_but_says_what_to_do(solo12):
    with pytest.raises(TypeError, match=r"liedyn.Data\(model\) on the far side"):
        pickle.dumps(liedyn.Data(solo12))
    with pytest.raises(TypeError, match="on the far side"):
        pickle.dumps(liedyn.BatchWorkspace(solo12))
