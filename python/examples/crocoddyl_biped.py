#!/usr/bin/env python3
"""Talos legs walking, Crocoddyl's bipedal walking example on liedyn's dynamics from Python.

Crocoddyl's examples/bipedal_gaits_fwddyn.py, its first phase ("walking": SimpleBipedGaitProblem's
createWalkingProblem, step length 0.6 m, height 0.1 m, 30 ms nodes, 15 knots per step, 4 of double
support), built on liedyn.crocoddyl's models (docs/crocoddyl.md, "From Python"): rigid (6D)
contacts LOCAL_WORLD_ALIGNED with gains [0, 30], wrench cones under quadratic barriers, CoM and
swing-foot placement tracking, weighted state regularization, and 6D impacts with foot tracking.

The robot is example-robot-data's "talos_legs": the base and legs of its talos_reduced.urdf
(installed with Crocoddyl), cut from it here in memory, as its TalosLegsLoader cuts Pinocchio's
model (the links reached from the root through the leg joints and fixed joints). No cut file is
written: that URDF's licence (CC BY-NC-ND 3.0) allows no derivative. Crocoddyl's own solve of the
same problem runs beside it, in this process: its SimpleBipedGaitProblem on Pinocchio's model of
the same URDF text with the same armature (0.1 on the legs, the loader's, from the SRDF's rotor
parameters) and half-sitting posture. (The loader's own Pinocchio model counts each sole link's
0.01 kg twice, its leg_*_6 bodies weighing 1.6146 kg against the URDF's 1.59457 + 0.01: so both
sides are built from the URDF here.)
Both from x0 repeated and the problem's quasi-static controls, by SolverFDDP with the example's
stopping threshold 1e-7; the script checks
that the two solves agree (iterations +-1, cost, xs and us within 1e-6 relative) and exits with
status 1 otherwise.

    pip install 'liedyn[crocoddyl]'
    python3 python/examples/crocoddyl_biped.py [--step-knots 15] [--support-knots 4]
"""
import argparse
import os
import sys
import time
import xml.etree.ElementTree as ET

import crocoddyl
import numpy as np
import pinocchio
from crocoddyl.utils.biped import SimpleBipedGaitProblem
from example_robot_data.robots_loader import getModelPath

import liedyn
import liedyn.crocoddyl as lc

RIGHT, LEFT = "right_sole_link", "left_sole_link"
MU = 0.7
ARMATURE = 0.1


def link_of(joint, end):
    """The link named by a joint's <parent> or <child> element."""
    element = joint.find(end)
    assert element is not None, f"joint {joint.get('name')} has no <{end}>"
    return element.get("link", "")


def talos_legs_urdf():
    """The URDF text of talos_reduced.urdf's base and legs: the links reached from the root
    through leg joints (leg_*) and fixed joints, and the joints between them."""
    path = os.path.join(getModelPath("talos_data/robots/talos_reduced.urdf"), "talos_data/robots/talos_reduced.urdf")
    robot = ET.parse(path).getroot()
    children: dict[str, list[ET.Element]] = {}
    for joint in robot.findall("joint"):
        children.setdefault(link_of(joint, "parent"), []).append(joint)
    child_links = {link_of(j, "child") for j in robot.findall("joint")}
    (root,) = [link.get("name", "") for link in robot.findall("link") if link.get("name") not in child_links]
    kept, todo = {root}, [root]
    while todo:
        for joint in children.get(todo.pop(), []):
            if joint.get("type") == "fixed" or joint.get("name", "").startswith("leg_"):
                kept.add(link_of(joint, "child"))
                todo.append(link_of(joint, "child"))
    for element in list(robot):
        if element.tag not in ("link", "joint"):
            robot.remove(element)  # transmissions and plugins of the joints cut away
        elif (element.get("name") if element.tag == "link" else link_of(element, "child")) not in kept:
            robot.remove(element)
    return ET.tostring(robot, encoding="unicode")


class BipedGait:
    """SimpleBipedGaitProblem's nodes (walking) on liedyn.crocoddyl, in liedyn's coordinates."""

    def __init__(self, state, x_default):
        self.state, self.x_default = state, x_default
        self.nv, self.nu = state.nv, state.nv - 6

    def state_cost(self, weights, nu):
        return crocoddyl.CostModelResidual(
            self.state, crocoddyl.ActivationModelWeightedQuad(weights ** 2),
            lc.ResidualModelStateLiedyn(self.state, self.x_default, nu))

    def swing_node(self, dt, support, com_task=None, swing=()):
        state, nu, nv = self.state, self.nu, self.nv
        contacts = [lc.ContactLiedyn.rigid(f, pinocchio.LOCAL_WORLD_ALIGNED, np.array([0.0, 30.0])) for f in support]
        costs = crocoddyl.CostModelSum(state, nu)
        if com_task is not None:
            costs.addCost("comTrack", crocoddyl.CostModelResidual(
                state, lc.ResidualModelCoMPositionLiedyn(state, com_task, nu)), 1e6)
        for foot in support:
            cone = crocoddyl.WrenchCone(np.eye(3), MU, np.array([0.1, 0.05]))
            costs.addCost(foot + "_wrenchCone", crocoddyl.CostModelResidual(
                state, crocoddyl.ActivationModelQuadraticBarrier(crocoddyl.ActivationBounds(cone.lb, cone.ub)),
                lc.ResidualModelContactWrenchConeLiedyn(state, foot, cone, nu)), 1e1)
        for foot, placement in swing:
            costs.addCost(foot + "_footTrack", crocoddyl.CostModelResidual(
                state, lc.ResidualModelFramePlacementLiedyn(state, foot, placement, nu)), 1e6)
        weights = np.array([0.0] * 3 + [500.0] * 3 + [0.01] * (nv - 6) + [10.0] * nv)
        costs.addCost("stateReg", self.state_cost(weights, nu), 1e1)
        costs.addCost("ctrlReg", crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelControl(state, nu)), 1e-1)
        dam = lc.DifferentialActionModelContactFwdDynamicsLiedyn(state, lc.Actuation.FloatingBase, contacts, costs)
        return crocoddyl.IntegratedActionModelEuler(dam, dt)

    def impulse_node(self, support, swing):
        state, nv = self.state, self.nv
        costs = crocoddyl.CostModelSum(state, 0)
        for foot, placement in swing:
            costs.addCost(foot + "_footTrack", crocoddyl.CostModelResidual(
                state, lc.ResidualModelFramePlacementLiedyn(state, foot, placement, 0)), 1e8)
        weights = np.array([1.0] * 6 + [0.1] * (nv - 6) + [10.0] * nv)
        costs.addCost("stateReg", self.state_cost(weights, 0), 1e1)
        impulses = [lc.ContactLiedyn.rigid(f, pinocchio.LOCAL_WORLD_ALIGNED) for f in support]
        return lc.ActionModelImpulseFwdDynamicsLiedyn(state, impulses, costs)

    def footstep(self, com, foot_position, length, height, dt, knots, support, swing):
        """createFootstepModels with one swing foot: the swing nodes, then its impact."""
        share = 1.0 / (len(support) + 1)
        half = knots / 2
        nodes, task = [], []
        for k in range(knots):
            if k < half:
                dp = np.array([length * (k + 1) / knots, 0.0, height * k / half])
            elif k == half:
                dp = np.array([length * (k + 1) / knots, 0.0, height])
            else:
                dp = np.array([length * (k + 1) / knots, 0.0, height * (1 - float(k - half) / half)])
            task = [(swing, pinocchio.SE3(np.eye(3), foot_position + dp))]
            com_task = np.array([length * (k + 1) / knots, 0.0, 0.0]) * share + com
            nodes.append(self.swing_node(dt, support, com_task, task))
        nodes.append(self.impulse_node([swing], task))
        com += [length * share, 0.0, 0.0]
        foot_position += [length, 0.0, 0.0]
        return nodes


def walking_problem(model, state, x0, s0, length, height, dt, knots, support_knots):
    """createWalkingProblem on liedyn (its first call: the right foot's step is half a stride);
    s0 is x0 as a liedyn State."""
    gait = BipedGait(state, x0)
    data = liedyn.Data(model)
    right = np.array(liedyn.frame_pose(model, data, s0, RIGHT).translation)
    left = np.array(liedyn.frame_pose(model, data, s0, LEFT).translation)
    com = (right + left) / 2
    com[2] = liedyn.center_of_mass(model, data, s0, liedyn.ComFrame.Inertial)[2]
    double_support = [gait.swing_node(dt, [RIGHT, LEFT]) for _ in range(support_knots)]
    nodes = double_support + gait.footstep(com, right, 0.5 * length, height, dt, knots, [LEFT], RIGHT)
    nodes += double_support + gait.footstep(com, left, length, height, dt, knots, [RIGHT], LEFT)
    return crocoddyl.ShootingProblem(x0, nodes[:-1], nodes[-1])


def solve(problem, x0):
    us0 = problem.quasiStatic([x0] * problem.T)
    solver = crocoddyl.SolverFDDP(problem)
    solver.th_stop = 1e-7  # as Crocoddyl's example
    t0 = time.perf_counter()
    converged = solver.solve([x0] * (problem.T + 1), us0, 100, False)
    return solver, converged, time.perf_counter() - t0


def both_problems(step_knots, support_knots):
    """The walking problem on liedyn and on Crocoddyl's SimpleBipedGaitProblem (Pinocchio), from
    the same URDF text, armature and posture: (ours, x0, theirs, x0_pin, state, joint names)."""
    urdf = talos_legs_urdf()
    length, height, dt = 0.6, 0.1, 0.03
    pin_model = pinocchio.buildModelFromXML(urdf, pinocchio.JointModelFreeFlyer())
    pin_model.armature = np.array([0.0] * 6 + [ARMATURE] * (pin_model.nv - 6))
    srdf = os.path.join(getModelPath("talos_data/srdf/talos.srdf"), "talos_data/srdf/talos.srdf")
    pinocchio.loadReferenceConfigurations(pin_model, srdf, False)  # "half_sitting", as the loader
    q0 = pin_model.referenceConfigurations["half_sitting"].copy()
    x0_pin = np.concatenate([q0, np.zeros(pin_model.nv)])
    theirs = SimpleBipedGaitProblem(pin_model, RIGHT, LEFT).createWalkingProblem(
        x0_pin, length, height, dt, step_knots, support_knots)

    names = list(pin_model.names)[2:]
    bare = liedyn.load_urdf_string(urdf)
    model = liedyn.with_armature(bare, np.full(bare.nv - 6, ARMATURE))
    state = lc.StateLiedyn(model)
    x0 = state.from_pinocchio(x0_pin, names)
    s0 = liedyn.interop.state_from(liedyn.interop.Library.Pinocchio, model, q0, x0_pin[pin_model.nq:],
                                   liedyn.interop.JointPermutation.from_names(model, names))
    ours = walking_problem(model, state, x0, s0, length, height, dt, step_knots, support_knots)
    return ours, x0, theirs, x0_pin, state, names


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step-knots", type=int, default=15)
    parser.add_argument("--support-knots", type=int, default=4)
    args = parser.parse_args()
    ours, x0, theirs, x0_pin, state, names = both_problems(args.step_knots, args.support_knots)
    their_solver, their_converged, their_seconds = solve(theirs, x0_pin)
    solver, converged, seconds = solve(ours, x0)

    for who, s, ok, sec in (("liedyn", solver, converged, seconds),
                            ("Crocoddyl (Pinocchio)", their_solver, their_converged, their_seconds)):
        print(f"Talos legs walking, {who}: {ours.T} nodes, FDDP {'converged' if ok else 'stopped'} in "
              f"{s.iter} iterations, cost {s.cost:.9g}, {1e3 * sec / max(1, s.iter):.1f} ms per iteration")
    xs = np.array([state.to_pinocchio(x, names) for x in solver.xs])
    their_xs = np.array(their_solver.xs)
    flip = np.sum(xs[:, 3:7] * their_xs[:, 3:7], axis=1) < 0.0  # q and -q: the same base rotation
    xs[flip, 3:7] *= -1.0
    P = state.tangent_permutation(names)[6: state.nv, 6: state.nv]
    pairs = [(P @ u, v) for u, v in zip(solver.us, their_solver.us) if len(v)]
    us, their_us = np.concatenate([a for a, _ in pairs]), np.concatenate([b for _, b in pairs])
    errors = {
        "cost": abs(solver.cost - their_solver.cost) / abs(their_solver.cost),
        "xs": float(np.max(np.abs(xs - their_xs)) / max(1.0, np.max(np.abs(their_xs)))),
        "us": float(np.max(np.abs(us - their_us)) / max(1.0, np.max(np.abs(their_us)))),
    }
    print(f"difference: iterations {solver.iter - their_solver.iter}, "
          + ", ".join(f"{k} {v:.2e}" for k, v in errors.items()) + " (relative)")
    agree = (converged == their_converged and abs(solver.iter - their_solver.iter) <= 1
             and all(v < 1e-6 for v in errors.values()))
    print("the two solves agree (iterations +-1, cost, xs, us within 1e-6)" if agree else "THE SOLVES DIFFER")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
