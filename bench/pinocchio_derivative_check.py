#!/usr/bin/env python3
"""Pinocchio's constrained forward dynamics derivative dq̈/dq against its own central differences.

    pinocchio_derivative_check.py [--seeds N]

Why liedyn_bench_pinocchio does not set the constrained derivatives side by side for
talos_spherical under rigid LOCAL_WORLD_ALIGNED contacts: there Pinocchio's analytic ∂q̈/∂q
disagrees with central differences of its own constraintDynamics taken through pin.integrate,
while under LOCAL contacts it agrees to the differences' own error (talos with revolute joints
only agrees with liedyn in both senses: the benchmark's check). Needs Pinocchio's Python bindings (`pip install pin`); the model is
scripts/generate_pinocchio_reference.py's talos_spherical. Prints, per contact sense and seed,
max |analytic − differences| / max(1, max |differences|).
"""
import argparse
import os
import sys

import numpy as np
import pinocchio as pin

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import generate_pinocchio_reference as reference  # noqa: E402

STEP = 1e-6  # error O(h²) + O(ε/h) of q̈ up to 1e5 (the light gripper links): ~1e-7 relative


def constrained_ddq(model, contacts, q, v, tau):
    data = model.createData()
    datas = pin.StdVec_RigidConstraintData([c.createData() for c in contacts])
    pin.initConstraintDynamics(model, data, contacts, datas)
    settings = pin.ProximalSettings(1e-12, 0.0, 1)  # μ = 0: the exact KKT solution
    ddq = pin.constraintDynamics(model, data, q, v, tau, contacts, datas, settings).copy()
    return ddq, data, datas, settings


def check(model, sense, seed):
    contacts = []
    for name in ("left_sole_link", "right_sole_link"):
        frame = model.frames[model.getFrameId(name)]
        contacts.append(pin.RigidConstraintModel(pin.ContactType.CONTACT_6D, model, frame.parentJoint,
                                                 frame.placement, sense))
    contacts = pin.StdVec_RigidConstraintModel(contacts)
    rng = np.random.default_rng(seed)
    q = pin.randomConfiguration(model)
    v, tau = rng.standard_normal(model.nv), rng.standard_normal(model.nv)
    _, data, datas, settings = constrained_ddq(model, contacts, q, v, tau)
    pin.computeConstraintDynamicsDerivatives(model, data, contacts, datas, settings)
    differences = np.zeros((model.nv, model.nv))
    for k in range(model.nv):
        dq = np.zeros(model.nv)
        dq[k] = STEP
        plus = constrained_ddq(model, contacts, pin.integrate(model, q, dq), v, tau)[0]
        minus = constrained_ddq(model, contacts, pin.integrate(model, q, -dq), v, tau)[0]
        differences[:, k] = (plus - minus) / (2 * STEP)
    return np.abs(data.ddq_dq - differences).max() / max(1.0, np.abs(differences).max())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=2)
    args = ap.parse_args()
    pin.seed(0)
    model = dict((stem, build) for stem, build, _ in reference.MODELS)["talos_spherical"]()
    for sense in (pin.LOCAL, pin.LOCAL_WORLD_ALIGNED):
        for seed in range(args.seeds):
            print("talos_spherical, 2 rigid soles, %s, seed %d: %.2e" % (sense, seed, check(model, sense, seed)))


if __name__ == "__main__":
    main()
