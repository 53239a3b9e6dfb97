#!/usr/bin/env python3
"""Crocoddyl's arm manipulation problem from Python on both backends (docs/crocoddyl.md, "From
Python"; BENCHMARKS.md, "Inside Crocoddyl"): liedyn.crocoddyl's models against Crocoddyl's
Pinocchio-backed ones, the same problem (bench/bench_crocoddyl.cpp's `arm`: the Talos left arm,
250 Euler nodes of 1 ms, gripper placement, state and control costs, armature 0.1 but on the
gripper), the same solver, in one interpreter.

Timed per call, on the FDDP solution's trajectory: ShootingProblem.calc, .calcDiff, both, and
one FDDP iteration (solve with maxiter=1 from that trajectory); with --threads 1 and 2
(problem.nthreads). The two backends alternate, --rounds times; medians and (min, max) are
printed, and each liedyn/Crocoddyl ratio is the median of the rounds' ratios.

    PYTHONPATH=build/release/python python3 python/bench/crocoddyl_problems.py \\
        --data tests/data --rounds 15
"""
import argparse
import os
import statistics
import time

import crocoddyl
import numpy as np
import pinocchio

import liedyn
import liedyn.crocoddyl as lc

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


class Side:
    """A problem solved once; its timed operations on that solution's trajectory."""

    def __init__(self, problem, x0, nthreads):
        problem.nthreads = nthreads
        solver = crocoddyl.SolverFDDP(problem)
        solver.solve([x0] * (HORIZON + 1), [np.zeros(problem.runningModels[0].nu)] * HORIZON, 100, False)
        self.problem, self.solver = problem, solver
        self.xs, self.us = list(solver.xs), list(solver.us)

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
    args = parser.parse_args()
    print(f"arm manipulation, {HORIZON} nodes; liedyn {liedyn.__version__}, Crocoddyl "
          f"{crocoddyl.__version__}, Pinocchio {pinocchio.__version__}; {args.rounds} rounds of "
          f"{args.calls} calls, medians (min, max) in microseconds")
    for nthreads in (1, 2):
        ours = Side(*arm_liedyn(args.data), nthreads)
        theirs = Side(*arm_pinocchio(args.data), nthreads)
        assert abs(ours.solver.cost - theirs.solver.cost) <= 1e-6 * abs(theirs.solver.cost)
        for name in ours.operations():
            f_ours, f_theirs = ours.operations()[name], theirs.operations()[name]
            t_ours, t_theirs = [], []
            for r in range(args.rounds):
                pair = [(f_ours, t_ours), (f_theirs, t_theirs)]
                for f, out in pair if r % 2 == 0 else reversed(pair):
                    out.append(time_call(f, args.calls) * 1e6)
            ratios = [a / b for a, b in zip(t_ours, t_theirs)]
            print(f"  threads {nthreads}  {name:16s} liedyn {statistics.median(t_ours):9.1f} "
                  f"({min(t_ours):.1f}, {max(t_ours):.1f})  Crocoddyl+Pinocchio "
                  f"{statistics.median(t_theirs):9.1f} ({min(t_theirs):.1f}, {max(t_theirs):.1f})  "
                  f"ratio {statistics.median(ratios):.3f} ({min(ratios):.3f}, {max(ratios):.3f})")


if __name__ == "__main__":
    main()
