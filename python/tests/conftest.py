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
