#!/usr/bin/env python3
"""ANYmal walking, Crocoddyl's quadrupedal walking example on liedyn's dynamics from Python.

Crocoddyl's examples/quadrupedal_gaits.py ("walking": SimpleQuadrupedalGaitProblem's
createWalkingProblem) built on liedyn.crocoddyl's models (docs/crocoddyl.md, "From Python"):
108 nodes of 10 ms, four footsteps of 25 swing nodes each followed by the landing foot's impact,
double supports between them; point contacts LOCAL_WORLD_ALIGNED with gains [0, 50], friction
cones under quadratic barriers, CoM and swing-foot tracking, weighted state regularization and
state bounds. Solved by Crocoddyl's SolverFDDP from x0 repeated and the problem's quasi-static
controls, as the example does.

With the reference of Crocoddyl's own Pinocchio-backed solve of the same problem
(tests/data/crocoddyl/anymal_walk_fddp.txt, scripts/generate_crocoddyl_reference.py), it checks
that both solves agree: iterations equal (+-1), cost, xs and us within 1e-6 relative; it exits
with status 1 otherwise.

    pip install 'liedyn[crocoddyl]'
    python3 python/examples/crocoddyl_walk.py [--data tests/data]
"""
import argparse
import os
import sys
import time

import crocoddyl
import numpy as np
import pinocchio

import liedyn
import liedyn.crocoddyl as lc

HERE = os.path.dirname(os.path.abspath(__file__))
FEET = ["LF_FOOT", "RF_FOOT", "LH_FOOT", "RH_FOOT"]
MU = 0.7


def read_reference(path):
    """scripts/generate_crocoddyl_reference.py's format: `vec name n values`, `mat name r c
    values`, `joint i name type`, other lines `key words...`."""
    words, vecs, mats, joints = {}, {}, {}, []
    with open(path) as f:
        for line in f:
            t = line.split()
            if not t or t[0].startswith("#"):
                continue
            if t[0] == "vec":
                vecs[t[1]] = np.array([float(v) for v in t[3:]])
            elif t[0] == "mat":
                rows, cols = int(t[2]), int(t[3])
                mats[t[1]] = np.array([float(v) for v in t[4:]]).reshape(rows, cols)
            elif t[0] == "joint":
                joints.append(t[2])
            else:
                words[t[0]] = t[1:]
    return words, vecs, mats, joints


class Gait:
    """SimpleQuadrupedalGaitProblem's nodes on liedyn.crocoddyl, in liedyn's coordinates."""

    def __init__(self, state, x_default, lower, upper):
        self.state, self.x_default, self.lower, self.upper = state, x_default, lower, upper
        self.nv = state.nv
        self.nu = state.nv - 6

    def weighted_state(self, weights, nu):
        return crocoddyl.CostModelResidual(
            self.state, crocoddyl.ActivationModelWeightedQuad(weights ** 2),
            lc.ResidualModelStateLiedyn(self.state, self.x_default, nu))

    def swing_node(self, dt, support, com_task, swing):
        """A node on the `support` feet tracking the CoM (if given) and the swing feet."""
        state, nu, nv = self.state, self.nu, self.nv
        contacts = [lc.ContactLiedyn.point(f, np.zeros(3), pinocchio.LOCAL_WORLD_ALIGNED, np.array([0.0, 50.0]))
                    for f in support]
        costs = crocoddyl.CostModelSum(state, nu)
        if com_task is not None:
            costs.addCost("comTrack", crocoddyl.CostModelResidual(
                state, lc.ResidualModelCoMPositionLiedyn(state, com_task, nu)), 1e6)
        for foot in support:
            cone = crocoddyl.FrictionCone(np.eye(3), MU, 4, False)
            costs.addCost(foot + "_frictionCone", crocoddyl.CostModelResidual(
                state, crocoddyl.ActivationModelQuadraticBarrier(crocoddyl.ActivationBounds(cone.lb, cone.ub)),
                lc.ResidualModelContactFrictionConeLiedyn(state, foot, cone, nu)), 1e1)
        for foot, target in swing:
            costs.addCost(foot + "_footTrack", crocoddyl.CostModelResidual(
                state, lc.ResidualModelFrameTranslationLiedyn(state, foot, target, nu)), 1e6)
        weights = np.concatenate([np.zeros(3), np.full(3, 500.0), np.full(nv - 6, 0.01),
                                  np.full(6, 10.0), np.ones(nv - 6)])
        costs.addCost("stateReg", self.weighted_state(weights, nu), 1e1)
        costs.addCost("ctrlReg", crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelControl(state, nu)), 1e-1)
        costs.addCost("stateBounds", crocoddyl.CostModelResidual(
            state, crocoddyl.ActivationModelQuadraticBarrier(crocoddyl.ActivationBounds(self.lower, self.upper)),
            lc.ResidualModelStateLiedyn(state, state.zero(), nu)), 1e3)
        dam = lc.DifferentialActionModelContactFwdDynamicsLiedyn(state, lc.Actuation.FloatingBase, contacts, costs)
        return crocoddyl.IntegratedActionModelEuler(dam, dt)

    def impulse_node(self, landing):
        """The impact of the feet that land, tracking their targets."""
        state, nv = self.state, self.nv
        costs = crocoddyl.CostModelSum(state, 0)
        for foot, target in landing:
            costs.addCost(foot + "_footTrack", crocoddyl.CostModelResidual(
                state, lc.ResidualModelFrameTranslationLiedyn(state, foot, target, 0)), 1e7)
        weights = np.concatenate([np.ones(6), np.full(nv - 6, 10.0), np.full(nv, 10.0)])
        costs.addCost("stateReg", self.weighted_state(weights, 0), 1e1)
        impulses = [lc.ContactLiedyn.point(f, np.zeros(3), pinocchio.LOCAL_WORLD_ALIGNED) for f, _ in landing]
        return lc.ActionModelImpulseFwdDynamicsLiedyn(state, impulses, costs)

    def footstep(self, com, foot, length, height, dt, knots, support, swing):
        """`knots` swing nodes of `swing` from `foot`, the CoM from `com` moved on by its share,
        then the impact; returns the nodes and the CoM and foot after the step."""
        share = 1.0 / (len(support) + 1)
        half = knots / 2.0
        nodes, task = [], []
        for k in range(knots):
            x = length * (k + 1) / knots
            z = height * k / half if k < half else height if k == half else height * (1.0 - (k - half) / half)
            task = [(swing, foot + np.array([x, 0.0, z]))]
            nodes.append(self.swing_node(dt, support, np.array([x, 0.0, 0.0]) * share + com, task))
        nodes.append(self.impulse_node(task))
        return nodes, com + np.array([length * share, 0.0, 0.0]), foot + np.array([length, 0.0, 0.0])


def walking_problem(data_dir):
    words, vecs, mats, joints = read_reference(os.path.join(data_dir, "crocoddyl", "anymal_walk_fddp.txt"))
    model = liedyn.load_urdf_file(os.path.join(data_dir, "anymal.urdf"))
    state = lc.StateLiedyn(model)
    x0 = state.from_pinocchio(vecs["x0"], joints)
    T = state.tangent_permutation(joints)  # dx_pin = T dx: bounds (NaN on the base) moved, not multiplied
    ours_of_theirs = np.argmax(T, axis=0)
    gait = Gait(state, x0, vecs["state_lb"][ours_of_theirs], vecs["state_ub"][ours_of_theirs])
    length, height, dt, step_knots, support_knots = vecs["walk"]
    step_knots, support_knots = int(step_knots), int(support_knots)

    # createWalkingProblem: the feet where x0 puts them, the CoM between them at x0's height.
    data = liedyn.Data(model)
    s0 = liedyn.interop.state_from(liedyn.interop.Library.Pinocchio, model, vecs["x0"][: model.nv + 1],
                                   vecs["x0"][model.nv + 1:], liedyn.interop.JointPermutation.from_names(model, joints))
    feet = {f: np.array(liedyn.frame_pose(model, data, s0, f).translation) for f in FEET}
    com = (feet["RF_FOOT"] + feet["RH_FOOT"] + feet["LF_FOOT"] + feet["LH_FOOT"]) / 4.0
    com[2] = liedyn.center_of_mass(model, data, s0, liedyn.ComFrame.Inertial)[2]

    def others(swing):
        return [f for f in FEET if f != swing]

    double_support = [gait.swing_node(dt, FEET, None, []) for _ in range(support_knots)]
    nodes = list(double_support)
    for foot, stride in (("RH_FOOT", 0.5), ("RF_FOOT", 0.5), (None, 0.0), ("LH_FOOT", 1.0), ("LF_FOOT", 1.0)):
        if foot is None:
            nodes += double_support
            continue
        step, com, feet[foot] = gait.footstep(com, feet[foot], stride * length, height, dt, step_knots,
                                              others(foot), foot)
        nodes += step
    problem = crocoddyl.ShootingProblem(x0, nodes, double_support[0])
    return problem, state, x0, joints, words, vecs, mats


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(HERE, "..", "..", "tests", "data"))
    parser.add_argument("--threads", type=int, default=1, help="ShootingProblem.nthreads")
    args = parser.parse_args()
    problem, state, x0, joints, words, vecs, mats = walking_problem(args.data)
    problem.nthreads = args.threads
    horizon = problem.T
    us0 = problem.quasiStatic([x0] * horizon)
    solver = crocoddyl.SolverFDDP(problem)
    t0 = time.perf_counter()
    converged = solver.solve([x0] * (horizon + 1), us0, 100, False, 0.1)
    seconds = time.perf_counter() - t0
    print(f"ANYmal walking on liedyn: {horizon} nodes, FDDP {'converged' if converged else 'stopped'} "
          f"in {solver.iter} iterations, cost {solver.cost:.9g}, {1e3 * seconds / max(1, solver.iter):.1f} ms "
          f"per iteration ({args.threads} thread(s))")

    # Against Crocoddyl's Pinocchio-backed solve of the same problem.
    their_iterations, their_cost = int(words["fddp_iterations"][0]), vecs["fddp_cost"][0]
    xs = np.array([state.to_pinocchio(x, joints) for x in solver.xs])
    their_xs = mats["xs"]
    flip = np.sum(xs[:, 3:7] * their_xs[:, 3:7], axis=1) < 0.0  # q and -q: the same base rotation
    xs[flip, 3:7] *= -1.0
    P = state.tangent_permutation(joints)[6: state.nv, 6: state.nv]
    e_us, us_scale = 0.0, 0.0
    for k, u in enumerate(solver.us):
        theirs = vecs.get(f"us.{k}", np.zeros(0))
        if theirs.size:
            e_us = max(e_us, float(np.max(np.abs(P @ u - theirs))))
            us_scale = max(us_scale, float(np.max(np.abs(theirs))))
    errors = {
        "iterations (ours - theirs)": solver.iter - their_iterations,
        "cost": abs(solver.cost - their_cost) / abs(their_cost),
        "xs": float(np.max(np.abs(xs - their_xs)) / max(1.0, np.max(np.abs(their_xs)))),
        "us": e_us / max(1.0, us_scale),
    }
    print("against Crocoddyl's Pinocchio-backed solve: " + ", ".join(f"{k} {v:.2e}" if k != "iterations (ours - theirs)"
                                                                     else f"{k} {v}" for k, v in errors.items()))
    agree = (converged == (words["fddp_converged"][0] == "1") and abs(errors["iterations (ours - theirs)"]) <= 1
             and errors["cost"] < 1e-6 and errors["xs"] < 1e-6 and errors["us"] < 1e-6)
    print("the two solves agree (iterations +-1, cost, xs, us within 1e-6)" if agree else "THE SOLVES DIFFER")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
