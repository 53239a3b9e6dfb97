"""Shared fixtures of liedyn's pytest suite (run by CTest as python.pytest, with PYTHONPATH set to
the build's python/ directory)."""
import os

import numpy as np
import pytest

import liedyn

DATA_DIR = os.environ.get(
    "LIEDYN_TEST_DATA_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data"))
SOLO12 = os.path.join(DATA_DIR, "solo12.urdf")


@pytest.fixture(scope="session")
def solo12():
    return liedyn.load_urdf_file(SOLO12)


def welded_random():
    opt = liedyn.RandomModelOptions()
    opt.moving_base = False
    opt.branching = 2
    return liedyn.random_model(6, 3, opt)


# Moving base with aligned axes (solo12), every joint type on a branched tree (figure 4), and a
# welded base (no D1/D3 columns, no base rows).
MODELS = {
    "solo12": lambda: liedyn.load_urdf_file(SOLO12),
    "figure4": liedyn.figure4_model,
    "welded": welded_random,
}


@pytest.fixture(params=sorted(MODELS))
def model(request):
    return MODELS[request.param]()


REPRESENTATIONS = [liedyn.TwistRepresentation.Body, liedyn.TwistRepresentation.Inertial,
                   liedyn.TwistRepresentation.Mixed]


def random_vector(n, seed):
    return np.random.default_rng(seed).uniform(-1.0, 1.0, n)


# --- constrained dynamics (test_constrained_linearization.py, test_constraint_derivatives.py) ---

FEET = ["FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"]
FD_STEP = 1e-6  # central-difference step on every tangent coordinate (all of order 1 here)


@pytest.fixture
def solo():
    """solo12, a Data and a random state."""
    m = liedyn.load_urdf_file(SOLO12)
    return m, liedyn.Data(m), liedyn.random_state(m, 3)


def four_feet(m, sense=liedyn.TwistRepresentation.Body, Kd=0.0):
    """solo12's four feet as point contacts in `sense`, velocity gain Kd."""
    specs = [liedyn.ConstraintSpec.point_contact(f, sense) for f in FEET]
    for s in specs:
        s.Kd = Kd
    return liedyn.ConstraintSet(m, specs)


def central_fd(m, x, f, h=FD_STEP):
    """Columns (f(x (+) h e_k) - f(x (-) h e_k)) / 2h, e_k the tangent coordinates (eta, ds, dnu, dr)
    of integrate: the body twist nu is what integrate perturbs and holds, i.e. the Body columns."""
    n = liedyn.tangent_size(m)
    cols = []
    for k in range(n):
        e = np.zeros(n)
        e[k] = h
        cols.append((f(liedyn.integrate(m, x, e)) - f(liedyn.integrate(m, x, -e))) / (2 * h))
    return np.column_stack(cols)


def relative_error(analytic, fd):
    """max |analytic − fd| over the largest entry of analytic."""
    return np.abs(analytic - fd).max() / np.abs(analytic).max()
