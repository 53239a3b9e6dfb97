#!/usr/bin/env python3
"""Crocoddyl's example problems from Python on both backends (docs/crocoddyl.md, "From Python";
BENCHMARKS.md, "Inside Crocoddyl"): liedyn.crocoddyl's models against Crocoddyl's
Pinocchio-backed ones on the same problem and solver, in one interpreter.

  arm     the arm manipulation problem (bench/bench_crocoddyl.cpp's `arm`: the Talos left arm, 250
          Euler nodes of 1 ms, gripper placement, state and control costs, armature 0.1 but on
          the gripper)
  walk    ANYmal walking (python/examples/crocoddyl_walk.py against Crocoddyl's
          SimpleQuadrupedalGaitProblem on example-robot-data's ANYmal: 108 nodes, point contacts,
          friction cones, impacts)
  biped   Talos legs walking (python/examples/crocoddyl_biped.py, both sides: 39 nodes, rigid
          contacts, wrench cones, impacts)

Timed per call, on each side's FDDP solution (or, with --at-guess, as bench/bench_crocoddyl.cpp
does: at x0 on every node and zero controls): ShootingProblem.calc, .calcDiff, both, and one
FDDP iteration (solve with maxiter=1 from that trajectory); with 1 and 2 threads
(problem.nthreads). The two backends alternate, --rounds times; medians and (min, max) are
printed, and each liedyn/Crocoddyl ratio is the median of the rounds' ratios.

    PYTHONPATH=build/release/python python3 python/bench/crocoddyl_problems.py \
        --data tests/data --rounds 15
"""
import argparse
import os
import statistics
import sys
import time

import crocoddyl
import numpy as np
import pinocchio

import liedyn
import liedyn.crocoddyl as lc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import crocoddyl_biped  # noqa: E402  (the examples build the walking problems)
import crocoddyl_walk  # noqa: E402

HORIZON, DT = 250, 1e-3
WEIGHTS = (1.0, 1e-4, 1e-4)  # gripper pose, state, control (Crocoddyl's example)
TARGET = np.array([0.0, 0.0, 0.4])
X0_PIN = np.array([0.173046, 1.0, -0.52366, 0.0, 0.0, 0.1, -0.005] + [0.0] * 7)


def arm_pinocchio(data_dir):
    model = pinocchio.buildModelFromUrdf(os.path.join(data_dir, "talos_left_arm.urdf"))
    state = crocoddyl.StateMultibody(model)
    armature = np.full(model.nv, 0.1)
    armature[-1] = 0.0
    frame = model.getFrameId("gripper_left_joint")
    placement = crocoddyl.ResidualModelFramePlacement(state, frame, pinocchio.SE3(np.eye(3), TARGET))

    def node(terminal):
        costs = crocoddyl.CostModelSum(state)
        costs.addCost("gripperPose", crocoddyl.CostModelResidual(state, placement), WEIGHTS[0])
        if not terminal:
            costs.addCost("xReg", crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelState(state)), WEIGHTS[1])
            costs.addCost("uReg", crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelControl(state)), WEIGHTS[2])
        dam = crocoddyl.DifferentialActionModelFreeFwdDynamics(state, crocoddyl.ActuationModelFull(state), costs)
        dam.armature = armature
        return crocoddyl.IntegratedActionModelEuler(dam, 0.0 if terminal else DT)

    return crocoddyl.ShootingProblem(X0_PIN, [node(False)] * HORIZON, node(True)), X0_PIN


def arm_liedyn(data_dir):
    options = liedyn.UrdfOptions()
    options.weld_base = True
    bare = liedyn.load_urdf_file(os.path.join(data_dir, "talos_left_arm.urdf"), options)
    # A chain: liedyn's joint order is Pinocchio's (the bridge's test checks the permutation).
    armature = np.full(bare.nv, 0.1)
    armature[-1] = 0.0
    model = liedyn.with_armature(bare, armature)
    state = lc.StateLiedyn(model)
    nu = model.nv
    placement = lc.ResidualModelFramePlacementLiedyn(
        state, "gripper_left_motor_double_link", pinocchio.SE3(np.eye(3), TARGET), nu)

    def node(terminal):
        costs = crocoddyl.CostModelSum(state, nu)
        costs.addCost("gripperPose", crocoddyl.CostModelResidual(state, placement), WEIGHTS[0])
        if not terminal:
            costs.addCost("xReg", crocoddyl.CostModelResidual(state, lc.ResidualModelStateLiedyn(state, nu)), WEIGHTS[1])
            costs.addCost("uReg", crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelControl(state, nu)), WEIGHTS[2])
        dam = lc.DifferentialActionModelFreeFwdDynamicsLiedyn(state, lc.Actuation.Full, costs)
        return crocoddyl.IntegratedActionModelEuler(dam, 0.0 if terminal else DT)

    return crocoddyl.ShootingProblem(X0_PIN, [node(False)] * HORIZON, node(True)), X0_PIN


def walk_pinocchio(data_dir):
    import example_robot_data
    from crocoddyl.utils.quadruped import SimpleQuadrupedalGaitProblem

    anymal = example_robot_data.load("anymal").model
    x0 = np.concatenate([anymal.referenceConfigurations["standing"].copy(), np.zeros(anymal.nv)])
    gait = SimpleQuadrupedalGaitProblem(anymal, "LF_FOOT", "RF_FOOT", "LH_FOOT", "RH_FOOT")
    return gait.createWalkingProblem(x0, 0.25, 0.15, 1e-2, 25, 2), x0


def walk_liedyn(data_dir):
    problem, _, x0, _, _, _, _ = crocoddyl_walk.walking_problem(data_dir)
    return problem, x0


def biped_both(data_dir):
    ours, x0, theirs, x0_pin, _, _ = crocoddyl_biped.both_problems(15, 4)
    return (ours, x0), (theirs, x0_pin)


# name: (liedyn's problem and x0, Crocoddyl's, FDDP's initial regularization or None)
PROBLEMS = {
    "arm": (lambda d: arm_liedyn(d), lambda d: arm_pinocchio(d), None),
    "walk": (walk_liedyn, walk_pinocchio, 0.1),
    "biped": (lambda d: biped_both(d)[0], lambda d: biped_both(d)[1], None),
}


class Side:
    """A problem solved once from x0 and the quasi-static controls; its timed operations on
    that solution's trajectory."""

    def __init__(self, problem, x0, nthreads, regularization, at_guess):
        problem.nthreads = nthreads
        solver = crocoddyl.SolverFDDP(problem)
        xs0 = [x0] * (problem.T + 1)
        us0 = problem.quasiStatic([x0] * problem.T)
        if regularization is None:
            solver.solve(xs0, us0, 100, False)
        else:
            solver.solve(xs0, us0, 100, False, regularization)
        self.problem, self.solver = problem, solver
        self.xs, self.us = list(solver.xs), list(solver.us)
        if at_guess:
            self.xs = xs0
            self.us = [np.zeros(m.nu) for m in problem.runningModels]

    def operations(self):
        p, xs, us = self.problem, self.xs, self.us
        return {
            "calc": lambda: p.calc(xs, us),
            "calcDiff": lambda: p.calcDiff(xs, us),
            "calc + calcDiff": lambda: (p.calc(xs, us), p.calcDiff(xs, us)),
            "FDDP iteration": lambda: self.solver.solve(xs, us, 1, False),
        }


def time_call(f, calls):
    t0 = time.perf_counter()
    for _ in range(calls):
        f()
    return (time.perf_counter() - t0) / calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data"))
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=20, help="calls per timing")
    parser.add_argument("--problems", default=",".join(PROBLEMS))
    parser.add_argument("--at-guess", action="store_true",
                        help="time at x0 on every node and zero controls (bench_crocoddyl.cpp's point)")
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args()
    print(f"liedyn {liedyn.__version__}, Crocoddyl {crocoddyl.__version__}, Pinocchio "
          f"{pinocchio.__version__}; {args.rounds} rounds of {args.calls} calls, medians (min, max) "
          f"in microseconds")
    for name in args.problems.split(","):
        build_ours, build_theirs, regularization = PROBLEMS[name]
        for nthreads in (int(t) for t in args.threads.split(",")):
            ours = Side(*build_ours(args.data), nthreads, regularization, args.at_guess)
            theirs = Side(*build_theirs(args.data), nthreads, regularization, args.at_guess)
            print(f"{name}: {ours.problem.T} nodes, FDDP iterations {ours.solver.iter} (liedyn), "
                  f"{theirs.solver.iter} (Crocoddyl), costs {ours.solver.cost:.9g}, {theirs.solver.cost:.9g}")
            assert abs(ours.solver.cost - theirs.solver.cost) <= 1e-6 * abs(theirs.solver.cost)
            for op in ours.operations():
                f_ours, f_theirs = ours.operations()[op], theirs.operations()[op]
                t_ours, t_theirs = [], []
                for r in range(args.rounds):
                    pair = [(f_ours, t_ours), (f_theirs, t_theirs)]
                    for f, out in pair if r % 2 == 0 else reversed(pair):
                        out.append(time_call(f, args.calls) * 1e6)
                ratios = [a / b for a, b in zip(t_ours, t_theirs)]
                print(f"  threads {nthreads}  {op:16s} liedyn {statistics.median(t_ours):9.1f} "
                      f"({min(t_ours):.1f}, {max(t_ours):.1f})  Crocoddyl+Pinocchio "
                      f"{statistics.median(t_theirs):9.1f} ({min(t_theirs):.1f}, {max(t_theirs):.1f})  "
                      f"ratio {statistics.median(ratios):.3f} ({min(ratios):.3f}, {max(ratios):.3f})")


if __name__ == "__main__":
    main()
