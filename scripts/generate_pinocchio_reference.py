#!/usr/bin/env python3
"""Writes tests/data/pinocchio4/*.txt: Pinocchio 4.1 reference dumps (pin_ref format, version 2)
for five models with multi-DoF joints (spherical, free inside the tree, planar, universal).

Run from the repository root, with a Python that has Pinocchio 4.1 (`pip install pin==4.1.0`):

    python3 scripts/generate_pinocchio_reference.py [--out tests/data/pinocchio4]

The format, the models and the conventions are documented in tests/data/pinocchio4/README.md.
The script aborts (exit status 1) when one of its checks fails:
  * Pinocchio's derivatives against central differences of rnea / aba taken through
    pin.integrate (the tangent convention of every joint type), relative error > 1e-6;
  * the dump read back from its own text: the kinematics rebuilt from the placements, the joint
    types and axes and q (numpy, per joint type, independent of Pinocchio) against oMi and S, and
    the mass matrix rebuilt from S, oMi and the inertias (numpy CRBA) against crba, > 1e-12;
  * the group operations per joint type (integrate) against numpy formulas, > 1e-12;
  * the universal-jointed chain against the same chain built from pairs of revolute joints
    (rnea, crba, aba, nle), > 1e-11.
No timing is recorded: speed is measured side by side elsewhere (tests/data/README.pinocchio.md).
"""
import argparse
import datetime
import os
import sys

import numpy as np
import pinocchio as pin

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(REPO, "tests", "data")
FORMAT_VERSION = 2
SEEDS = (1, 2)

# Tolerances of the generator's own checks (see the module docstring).
FD_TOL = 1e-6  # central differences (steps in compute()): truncation and rounding ~1e-10
REBUILD_TOL = 1e-12  # the same numbers through another exact route: rounding only
TWIN_TOL = 1e-11  # two Pinocchio models of one mechanism: rounding of different operation orders


# ----------------------------------------------------------------------------------------------
# numpy Lie-group helpers, written from the formulas (independent of Pinocchio)


def hat(w):
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def exp_so3(w):
    t = np.linalg.norm(w)
    W = hat(w)
    if t < 1e-8:
        return np.eye(3) + W + 0.5 * W @ W
    return np.eye(3) + np.sin(t) / t * W + (1.0 - np.cos(t)) / t**2 * W @ W


def exp_se3(xi):
    """exp of the twist [v; w] (linear first) as a 4x4 homogeneous matrix."""
    v, w = xi[:3], xi[3:]
    t = np.linalg.norm(w)
    W = hat(w)
    if t < 1e-8:
        V = np.eye(3) + 0.5 * W + W @ W / 6.0
    else:
        V = np.eye(3) + (1.0 - np.cos(t)) / t**2 * W + (t - np.sin(t)) / t**3 * W @ W
    H = np.eye(4)
    H[:3, :3] = exp_so3(w)
    H[:3, 3] = V @ v
    return H


def exp_se2(xi):
    """exp of the planar twist (vx, vy, omega) as a 3x3 homogeneous matrix."""
    vx, vy, om = xi
    if abs(om) < 1e-8:
        V = np.array([[1.0, -om / 2], [om / 2, 1.0]])
    else:
        s, c = np.sin(om), np.cos(om)
        V = np.array([[s / om, -(1 - c) / om], [(1 - c) / om, s / om]])
    H = np.eye(3)
    H[:2, :2] = [[np.cos(om), -np.sin(om)], [np.sin(om), np.cos(om)]]
    H[:2, 2] = V @ [vx, vy]
    return H


def quat_xyzw_to_R(qv):
    x, y, z, w = qv / np.linalg.norm(qv)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def homogeneous(R, p):
    H = np.eye(4)
    H[:3, :3] = R
    H[:3, 3] = p
    return H


def adjoint(H):
    """6x6 motion transform of H for [linear; angular] twists."""
    R, p = H[:3, :3], H[:3, 3]
    X = np.zeros((6, 6))
    X[:3, :3] = R
    X[3:, 3:] = R
    X[:3, 3:] = hat(p) @ R
    return X


def spatial_inertia(m, c, Ic):
    """6x6 inertia about the frame origin, [linear; angular], from mass, CoM, inertia at CoM."""
    C = hat(c)
    I = np.zeros((6, 6))
    I[:3, :3] = m * np.eye(3)
    I[:3, 3:] = -m * C
    I[3:, :3] = m * C
    I[3:, 3:] = Ic - m * C @ C
    return I


AXIS_OF = {"X": np.array([1.0, 0, 0]), "Y": np.array([0, 1.0, 0]), "Z": np.array([0, 0, 1.0])}


def joint_axes(jmodel):
    """The axis data of a joint model that has some: revolute and prismatic axes, universal axes."""
    name = jmodel.shortname()
    if name in ("JointModelRX", "JointModelRY", "JointModelRZ", "JointModelPX", "JointModelPY",
                "JointModelPZ"):
        return [AXIS_OF[name[-1]]]
    if name in ("JointModelRevoluteUnaligned", "JointModelPrismaticUnaligned"):
        return [np.array(jmodel.extract().axis)]
    if name == "JointModelUniversal":
        j = jmodel.extract()
        return [np.array(j.axis1), np.array(j.axis2)]
    return []


def joint_transform(jtype, axes, qj):
    """The joint's transform (4x4, child in the joint frame) at its configuration qj, and its
    motion subspace S (6 x nv, child frame), from the documented conventions alone."""
    if jtype in ("JointModelRX", "JointModelRY", "JointModelRZ", "JointModelRevoluteUnaligned"):
        a = axes[0]
        S = np.concatenate([np.zeros(3), a])[:, None]
        return homogeneous(exp_so3(a * qj[0]), np.zeros(3)), S
    if jtype in ("JointModelPX", "JointModelPY", "JointModelPZ", "JointModelPrismaticUnaligned"):
        a = axes[0]
        S = np.concatenate([a, np.zeros(3)])[:, None]
        return homogeneous(np.eye(3), a * qj[0]), S
    if jtype == "JointModelSpherical":
        S = np.zeros((6, 3))
        S[3:, :] = np.eye(3)
        return homogeneous(quat_xyzw_to_R(qj), np.zeros(3)), S
    if jtype == "JointModelFreeFlyer":
        return homogeneous(quat_xyzw_to_R(qj[3:7]), qj[:3]), np.eye(6)
    if jtype == "JointModelPlanar":
        c, s = qj[2], qj[3]
        R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
        S = np.zeros((6, 3))
        S[0, 0] = S[1, 1] = S[5, 2] = 1.0
        return homogeneous(R, [qj[0], qj[1], 0.0]), S
    if jtype == "JointModelUniversal":
        a1, a2 = axes
        R2 = exp_so3(a2 * qj[1])
        S = np.zeros((6, 2))
        S[3:, 0] = R2.T @ a1
        S[3:, 1] = a2
        return homogeneous(exp_so3(a1 * qj[0]) @ R2, np.zeros(3)), S
    raise ValueError("no numpy twin for joint type " + jtype)


def integrate_joint(jtype, qj, dj):
    """q ⊕ δ per joint type, the right (body-frame) perturbation on the joint's group."""
    if jtype == "JointModelSpherical":
        R = quat_xyzw_to_R(qj) @ exp_so3(dj)
        return ("R", R)
    if jtype == "JointModelFreeFlyer":
        H = homogeneous(quat_xyzw_to_R(qj[3:7]), qj[:3]) @ exp_se3(dj)
        return ("H", H)
    if jtype == "JointModelPlanar":
        H = np.array([[qj[2], -qj[3], qj[0]], [qj[3], qj[2], qj[1]], [0, 0, 1.0]]) @ exp_se2(dj)
        return ("H2", H)
    return ("vec", qj + dj)


def config_as_matrix(kind, jtype, qj):
    if kind == "R":
        return quat_xyzw_to_R(qj)
    if kind == "H":
        return homogeneous(quat_xyzw_to_R(qj[3:7]), qj[:3])
    if kind == "H2":
        return np.array([[qj[2], -qj[3], qj[0]], [qj[3], qj[2], qj[1]], [0, 0, 1.0]])
    return qj


# ----------------------------------------------------------------------------------------------
# model construction


def rebuild(src, dst=None, attach_to=0, spherical=(), placement_of=None, drop_universe_frames=True):
    """Copies src's joints 1.. into dst (a new Model by default) below dst's joint attach_to.

    spherical: chains of src joint names (each joint the child of the previous); each chain
    becomes one JointModelSpherical at its first joint's frame, whose body carries the chain's
    bodies at their q = 0 relative placement (inertias combined exactly by appendBodyToJoint).
    placement_of: {src joint name: SE3} replaces that joint's placement in its (mapped) parent.
    Frames follow their joints; frames on src's universe are dropped when attach_to != 0 or
    drop_universe_frames (a fixed base keeps only what moves)."""
    dst = pin.Model() if dst is None else dst
    placement_of = placement_of or {}
    first_of, later = {}, {}
    for chain in spherical:
        ids = [src.getJointId(n) for n in chain]
        for a, b in zip(ids, ids[1:]):
            assert src.parents[b] == a, "a spherical chain must be a chain: " + " ".join(chain)
        first_of[ids[0]] = chain
        for b in ids[1:]:
            later[b] = ids[0]
    new_of = {0: attach_to}
    renamed = {}
    offset = {0: pin.SE3.Identity()}  # src joint frame in the frame of new_of[j], at q = 0
    for j in range(1, src.njoints):
        parent = src.parents[j]
        name = src.names[j]
        placement = offset[parent] * src.jointPlacements[j]
        if name in placement_of:
            placement = placement_of[name]
        if j in later:
            new_of[j] = new_of[parent]
            offset[j] = placement
            continue
        jm = src.joints[j]
        iq, nq, iv, nv = jm.idx_q, jm.nq, jm.idx_v, jm.nv
        if j in first_of:
            jm = pin.JointModelSpherical()
            nq, nv = 4, 3
            lo, hi = -np.ones(4), np.ones(4)  # quaternions: ignored by randomConfiguration
            eff, vel = 100.0 * np.ones(3), 10.0 * np.ones(3)
            jname = name.replace("_1_joint", "_spherical_joint").replace("_HAA", "_HIP")
        else:
            lo = src.lowerPositionLimit[iq : iq + nq].copy()
            hi = src.upperPositionLimit[iq : iq + nq].copy()
            if jm.shortname() == "JointModelFreeFlyer":  # the URDF root: no limits given
                lo, hi = -np.ones(7), np.ones(7)
            eff = src.effortLimit[iv : iv + nv].copy()
            vel = src.velocityLimit[iv : iv + nv].copy()
            jname = name
        new_of[j] = dst.addJoint(new_of[parent], jm, placement, jname, eff, vel, lo, hi)
        renamed[name] = jname
        offset[j] = pin.SE3.Identity()
    for j in range(1, src.njoints):
        dst.appendBodyToJoint(new_of[j], src.inertias[j], offset[j])
    # Frames, in src order; parent frames mapped (a dropped parent frame becomes dst's universe).
    kept = [f for f in range(1, src.nframes)
            if src.frames[f].parentJoint != 0 or (attach_to == 0 and not drop_universe_frames)]
    frame_of = {0: 0}
    frame_of.update({f: dst.nframes + k for k, f in enumerate(kept)})
    for f in kept:
        fr = src.frames[f]
        ftype = fr.type
        if ftype == pin.FrameType.JOINT and fr.parentJoint in later:
            ftype = pin.FrameType.OP_FRAME  # the joint merged into a spherical joint
        fname = renamed.get(fr.name, fr.name) if fr.type == pin.FrameType.JOINT else fr.name
        nf = pin.Frame(fname, new_of[fr.parentJoint], frame_of.get(fr.parentFrame, 0),
                       offset[fr.parentJoint] * fr.placement, ftype)
        assert dst.addFrame(nf, False) == frame_of[f]
    return dst


def add_body(model, joint, name, inertia, placement=pin.SE3.Identity()):
    model.appendBodyToJoint(joint, inertia, placement)
    model.addFrame(pin.Frame(name, joint, 0, placement, pin.FrameType.BODY), False)


def rotation(rx, ry, rz):
    return exp_so3(np.array([rx, ry, rz]))


def talos_arm():
    """Talos' left arm, arm_left_1..7, every other joint locked at the neutral configuration
    (the gripper lumped into arm_left_7's body); fixed base at the torso's neutral pose."""
    talos = pin.buildModelFromUrdf(os.path.join(DATA, "talos.urdf"))
    arm = {"arm_left_%d_joint" % k for k in range(1, 8)}
    lock = [j for j in range(1, talos.njoints) if talos.names[j] not in arm]
    reduced = pin.buildReducedModel(talos, lock, pin.neutral(talos))
    # Pinocchio 4.1's buildReducedModel makes a locked joint's frame its own parent frame; give it
    # the parent frame it has in the full model.
    for f in range(reduced.nframes):
        if reduced.frames[f].parentFrame == f and f > 0:
            full = talos.frames[talos.getFrameId(reduced.frames[f].name)]
            frame = reduced.frames[f]
            frame.parentFrame = reduced.getFrameId(talos.frames[full.parentFrame].name)
            reduced.frames[f] = frame
            assert reduced.frames[f].parentFrame != f
    return talos, reduced


def model_solo12():
    src = pin.buildModelFromUrdf(os.path.join(DATA, "solo12.urdf"), pin.JointModelFreeFlyer())
    chains = [(leg + "_HAA", leg + "_HFE") for leg in ("FL", "FR", "HL", "HR")]
    m = rebuild(src, spherical=chains, drop_universe_frames=False)
    m.name = "solo12_spherical_hips"
    return m


def model_talos():
    src = pin.buildModelFromUrdf(os.path.join(DATA, "talos.urdf"), pin.JointModelFreeFlyer())
    chains = [tuple("%s_%s_%d_joint" % (limb, side, k) for k in (1, 2, 3))
              for limb in ("leg", "arm") for side in ("left", "right")]
    m = rebuild(src, spherical=chains, drop_universe_frames=False)
    m.name = "talos_spherical_shoulders_hips"
    return m


BOX_MASS, BOX_SIZE = 0.8, (0.1, 0.15, 0.2)
BOX_JOINT_PLACEMENT = pin.SE3(rotation(0.3, -0.2, 0.5), np.array([0.02, -0.03, -0.25]))


def model_arm_free_box():
    _, reduced = talos_arm()
    m = rebuild(reduced)
    ee = m.getJointId("arm_left_7_joint")
    # A free joint below the end effector: translation limits only matter to randomConfiguration.
    lo = np.array([-0.3, -0.3, -0.3, -1, -1, -1, -1.0])
    box = m.addJoint(ee, pin.JointModelFreeFlyer(), BOX_JOINT_PLACEMENT, "box_joint",
                     100.0 * np.ones(6), 10.0 * np.ones(6), lo, -lo)
    add_body(m, box, "box", pin.Inertia.FromBox(BOX_MASS, *BOX_SIZE))
    m.name = "talos_left_arm_free_box"
    return m


def model_planar_base_arm():
    talos, reduced = talos_arm()
    m = pin.Model()
    lo = np.array([-2.0, -2.0, -1.0, -1.0])
    base = m.addJoint(0, pin.JointModelPlanar(), pin.SE3.Identity(), "base_planar_joint",
                      100.0 * np.ones(3), 10.0 * np.ones(3), lo, -lo)
    add_body(m, base, "base_link",
             pin.Inertia.FromBox(20.0, 0.6, 0.4, 0.2), pin.SE3(np.eye(3), np.array([0, 0, 0.1])))
    # The arm mounted on the base: its shoulder where Talos' torso would carry it, 0.35 m up.
    mount = pin.SE3(np.eye(3), np.array([0.1, 0.0, 0.35]))
    shoulder = mount * talos.jointPlacements[talos.getJointId("arm_left_1_joint")]
    rebuild(reduced, dst=m, attach_to=base, placement_of={"arm_left_1_joint": shoulder})
    m.name = "planar_base_talos_left_arm"
    return m


UNIVERSAL_AXES = [  # unit axes, (axis1, axis2) per joint; the last three pairs not orthogonal
    ((1, 0, 0), (0, 1, 0)),
    ((0, 0, 1), (1, 0, 0)),
    ((1, 0, 0), (0.6, 0.8, 0)),
    ((0, 1, 0), (0.0, 0.6, 0.8)),
    ((0.48, 0.6, 0.64), (0.0, 0.8, -0.6)),
]


def universal_chain(twin=False):
    """A 5-link chain hanging from a fixed base, each link on a universal joint (twin: the same
    mechanism from two RevoluteUnaligned joints per universal, a massless link between them)."""
    m = pin.Model()
    parent = 0
    for k, (a1, a2) in enumerate(UNIVERSAL_AXES):
        a1, a2 = np.array(a1, float), np.array(a2, float)
        a1, a2 = a1 / np.linalg.norm(a1), a2 / np.linalg.norm(a2)
        placement = (pin.SE3(rotation(0.1 * k, -0.2, 0.3), np.array([0.05, 0.02, -0.3]))
                     if k else pin.SE3(rotation(0.2, 0.1, 0.0), np.array([0.0, 0.0, 1.5])))
        lo, hi = -np.pi * np.ones(2), np.pi * np.ones(2)
        name = "universal_%d_joint" % (k + 1)
        if twin:
            j1 = m.addJoint(parent, pin.JointModelRevoluteUnaligned(a1), placement, name + "_a",
                            np.ones(1), np.ones(1), lo[:1], hi[:1])
            parent = m.addJoint(j1, pin.JointModelRevoluteUnaligned(a2), pin.SE3.Identity(),
                                name + "_b", np.ones(1), np.ones(1), lo[:1], hi[:1])
        else:
            parent = m.addJoint(parent, pin.JointModelUniversal(a1, a2), placement, name,
                                50.0 * np.ones(2), 10.0 * np.ones(2), lo, hi)
            m.addFrame(pin.Frame(name, parent, 0, pin.SE3.Identity(), pin.FrameType.JOINT), False)
        mass = 1.0 - 0.1 * k
        inertia = pin.Inertia(mass, np.array([0.01 * k, -0.02, -0.15]),
                              np.diag([0.02, 0.025, 0.004]) * mass + 0.001 * np.ones((3, 3)))
        m.appendBodyToJoint(parent, inertia, pin.SE3.Identity())
        if not twin:
            m.addFrame(pin.Frame("link_%d" % (k + 1), parent, 0, pin.SE3.Identity(),
                                 pin.FrameType.BODY), False)
    m.name = "universal_chain_5"
    return m


def model_urdf_planar_floating():
    m = pin.buildModelFromUrdf(os.path.join(DATA, "planar_floating.urdf"))
    # URDF gives the planar and floating joints no limits: positions drawn in [-1, 1] (the
    # quaternion's and the planar (cos, sin) entries are ignored by randomConfiguration).
    for name in ("lowerPositionLimit", "upperPositionLimit"):
        lim = getattr(m, name).copy()
        lim[~np.isfinite(lim)] = -1.0 if name.startswith("lower") else 1.0
        setattr(m, name, lim)
    # Their velocity and effort limits are infinite: written as the largest double, as in the
    # other dumps (the reader parses decimal numbers only).
    for name in ("velocityLimit", "effortLimit"):
        lim = getattr(m, name).copy()
        lim[~np.isfinite(lim)] = np.finfo(float).max
        setattr(m, name, lim)
    return m


MODELS = [
    ("solo12_spherical", model_solo12,
     "solo12.urdf, free-flyer root; each leg's HAA and HFE joints replaced by one spherical "
     "joint at the HAA joint's frame, the HAA and HFE links' inertias combined at their q = 0 "
     "relative placement; KFE revolute."),
    ("talos_spherical", model_talos,
     "talos.urdf, free-flyer root; arm_{left,right}_{1,2,3} -> one spherical joint at "
     "arm_*_1's frame, leg_{left,right}_{1,2,3} -> one spherical joint at leg_*_1's frame "
     "(links' inertias combined at q = 0); every other joint as in the URDF, grippers included."),
    ("arm_free_box", model_arm_free_box,
     "Talos' left arm (arm_left_1..7 from talos.urdf; every other joint locked at neutral, the "
     "gripper lumped into arm_left_7), fixed base at the torso's neutral pose; a free-flyer joint "
     "box_joint inside the tree, child of arm_left_7, carrying a box of 0.8 kg, "
     "0.1 x 0.15 x 0.2 m centred on its frame."),
    ("planar_base_arm", model_planar_base_arm,
     "JointModelPlanar at the root of a fixed-base model (plane = the world's xy-plane), base "
     "box 20 kg 0.6 x 0.4 x 0.2 m centred 0.1 m above the joint, carrying the arm of "
     "arm_free_box (without the box) mounted 0.1 m forward, 0.35 m up."),
    ("urdf_planar_floating", model_urdf_planar_floating,
     "planar_floating.urdf as Pinocchio's URDF loader builds it (fixed base): a planar joint "
     "(axis z) at the root link, two revolute joints, a floating joint inside the "
     "tree, a fixed link merged into the floating joint's body."),
    ("universal_chain", universal_chain,
     "a 5-link chain on a fixed base, each link on a JointModelUniversal; joints 3-5 have "
     "non-orthogonal unit axes."),
]


# ----------------------------------------------------------------------------------------------
# the dump


def fmt(x):
    return "%.17g" % x


def row(values):
    return " ".join(fmt(x) for x in np.asarray(values).ravel())


def se3_fields(M):
    return row(M.rotation) + " " + row(M.translation)


def symmetrised(A):
    U = np.triu(A)
    return U + np.triu(A, 1).T


def rel(a, b):
    return np.abs(np.asarray(a) - np.asarray(b)).max() / max(1.0, np.abs(b).max())


def random_state(model, seed):
    pin.seed(seed)
    q = pin.randomConfiguration(model)
    rng = np.random.default_rng(seed)
    v, a, tau = (rng.uniform(-1.0, 1.0, model.nv) for _ in range(3))
    dq = rng.uniform(-1.0, 1.0, model.nv)
    return q, v, a, tau, dq


def central_difference(f, x0, nv, step, plus):
    cols = []
    for k in range(nv):
        e = np.zeros(nv)
        e[k] = step
        cols.append((f(plus(x0, e)) - f(plus(x0, -e))) / (2 * step))
    return np.column_stack(cols)


class Failure(Exception):
    pass


def require(name, err, tol, checks):
    checks.append("check %s %.3e (tol %.0e)" % (name, err, tol))
    print("  %-52s %.3e" % (name, err))
    if not err <= tol:
        raise Failure("%s: %.3e > %.0e" % (name, err, tol))


def compute(model, seed, checks, derivative_twin=None):
    """Every recorded quantity at the seed's state. derivative_twin: a model of the same
    mechanism with the same q and v whose derivatives are recorded instead of model's (the
    universal chain: Pinocchio 4.1's derivatives of JointModelUniversal are wrong, see README)."""
    data = model.createData()
    q, v, a, tau, dq = random_state(model, seed)
    out = {"q": q, "v": v, "a": a, "tau": tau, "dq": dq}
    out["q_neutral"] = pin.neutral(model)
    out["q_plus_dq"] = pin.integrate(model, q, dq)
    out["difference_neutral_q"] = pin.difference(model, out["q_neutral"], q)

    pin.forwardKinematics(model, data, q, v, a)
    out["oMi"] = [data.oMi[i].copy() for i in range(model.njoints)]
    out["vJ"] = [data.v[i].vector.copy() for i in range(model.njoints)]
    out["aJ"] = [data.a[i].vector.copy() for i in range(model.njoints)]
    pin.computeJointJacobians(model, data, q)
    S = {}
    for i in range(1, model.njoints):
        J = pin.getJointJacobian(model, data, i, pin.ReferenceFrame.LOCAL)
        iv, nv = model.idx_vs[i], model.nvs[i]
        S[i] = J[:, iv : iv + nv].copy()
    out["S"] = S

    out["rnea"] = pin.rnea(model, data, q, v, a).copy()
    out["crba"] = symmetrised(pin.crba(model, data, q))
    out["aba"] = pin.aba(model, data, q, v, tau).copy()
    out["Minv"] = symmetrised(pin.computeMinverse(model, data, q))
    out["nle"] = pin.nonLinearEffects(model, data, q, v).copy()
    out["gravity_torque"] = pin.computeGeneralizedGravity(model, data, q).copy()
    dmodel = model if derivative_twin is None else derivative_twin
    ddata = dmodel.createData()
    dtau_dq, dtau_dv, dtau_da = pin.computeRNEADerivatives(dmodel, ddata, q, v, a)
    out["dtau_dq"], out["dtau_dv"] = dtau_dq.copy(), dtau_dv.copy()
    dtau_da = symmetrised(dtau_da)
    dddq_dq, dddq_dv, dddq_dtau = pin.computeABADerivatives(dmodel, ddata, q, v, tau)
    out["dddq_dq"], out["dddq_dv"] = dddq_dq.copy(), dddq_dv.copy()
    dddq_dtau = symmetrised(dddq_dtau)
    aba_ddq = ddata.ddq.copy()
    if derivative_twin is not None:
        # Pinocchio's own derivatives of model, recorded as errors only (not used).
        own = pin.computeRNEADerivatives(model, data, q, v, a)
        checks.append("check not_used:pinocchio_own_dtau_dq-dtau_dq %.3e" % rel(own[0], dtau_dq))
        checks.append("check not_used:pinocchio_own_dtau_dv-dtau_dv %.3e" % rel(own[1], dtau_dv))
        own = pin.computeABADerivatives(model, data, q, v, tau)
        checks.append("check not_used:pinocchio_own_dddq_dq-dddq_dq %.3e" % rel(own[0], dddq_dq))
        checks.append("check not_used:pinocchio_own_dddq_dv-dddq_dv %.3e" % rel(own[1], dddq_dv))
        print("  Pinocchio's own universal-joint derivatives, not used: " + "; ".join(
            c.split()[1] + " " + c.split()[2] for c in checks[-4:]))

    # Pinocchio's own consistency.
    M, Minv = out["crba"], out["Minv"]
    scale = max(1.0, np.abs(tau).max())
    checks.append("check rnea(q,v,aba(q,v,tau))-tau %.3e (scale %.3e)" % (
        np.abs(pin.rnea(model, data, q, v, out["aba"]) - tau).max() / scale, scale))
    checks.append("check M*ddq+nle-tau %.3e" % (
        np.abs(M @ out["aba"] + out["nle"] - tau).max() / scale))
    checks.append("check M*Minv-I %.3e" % np.abs(M @ Minv - np.eye(model.nv)).max())
    checks.append("check dtau_da-crba %.3e (scale %.3e)" % (rel(dtau_da, M), np.abs(M).max()))
    checks.append("check dddq_dtau-Minv %.3e (scale %.3e)" % (rel(dddq_dtau, Minv),
                                                              np.abs(Minv).max()))
    checks.append("check aba_derivs.ddq-aba %.3e" % rel(aba_ddq, out["aba"]))

    # The tangent convention: central differences through pin.integrate.
    # Steps: 1e-5 in q (truncation ~1e-10, rounding ~1e-11 relative); 1e-3 in v, where rnea and
    # aba are quadratic, so the central difference has no truncation error and a large step
    # keeps the rounding of aba's large outputs (Talos' light grippers) small.
    plus = lambda x, e: pin.integrate(model, x, e)
    add = lambda x, e: x + e
    hq, hv = 1e-5, 1e-3
    fd = central_difference(lambda x: pin.rnea(model, data, x, v, a), q, model.nv, hq, plus)
    require("fd_integrate(rnea)/dq-dtau_dq", rel(fd, out["dtau_dq"]), FD_TOL, checks)
    fd = central_difference(lambda x: pin.rnea(model, data, q, x, a), v, model.nv, hv, add)
    require("fd(rnea)/dv-dtau_dv", rel(fd, out["dtau_dv"]), FD_TOL, checks)
    fd = central_difference(lambda x: pin.aba(model, data, x, v, tau), q, model.nv, hq, plus)
    require("fd_integrate(aba)/dq-dddq_dq", rel(fd, out["dddq_dq"]), FD_TOL, checks)
    fd = central_difference(lambda x: pin.aba(model, data, q, x, tau), v, model.nv, hv, add)
    require("fd(aba)/dv-dddq_dv", rel(fd, out["dddq_dv"]), FD_TOL, checks)

    # The group operation per joint: pin.integrate against q ⊕ δ written from the formulas.
    qp = out["q_plus_dq"]
    worst = 0.0
    for i in range(1, model.njoints):
        jt = model.joints[i].shortname()
        iq, nq, iv, nv = model.idx_qs[i], model.nqs[i], model.idx_vs[i], model.nvs[i]
        kind, expected = integrate_joint(jt, q[iq : iq + nq], dq[iv : iv + nv])
        worst = max(worst, rel(config_as_matrix(kind, jt, qp[iq : iq + nq]), expected))
    require("integrate(q,dq)-numpy_right_perturbation", worst, REBUILD_TOL, checks)
    return out


def dump_text(model, seed, description, command, out, checks):
    L = []
    L.append("# pin_ref dump, format version %d (see README.md beside this file)" % FORMAT_VERSION)
    L.append("meta format_version %d" % FORMAT_VERSION)
    L.append("meta pinocchio_version %s" % pin.__version__)
    L.append("meta eigen_version not_recorded_by_the_pin_wheel")
    L.append("meta numpy_version %s" % np.__version__)
    L.append("meta generator %s" % command)
    L.append("meta date %s" % datetime.date.today().isoformat())
    L.append("meta model_name %s" % model.name)
    L.append("meta description %s" % description)
    L.append("meta freeflyer %d" % int(model.njoints > 1 and
                                       model.joints[1].shortname() == "JointModelFreeFlyer"))
    L.append("meta seed %d" % seed)
    L.append("meta conventions spatial_vectors=[linear;angular] quaternion=[qx,qy,qz,qw] "
             "derivatives_wrt_q=tangent_via_integrate(q,dq)=right_perturbation "
             "crba_aba_convention=LOCAL")
    L.append("nq %d" % model.nq)
    L.append("nv %d" % model.nv)
    L.append("njoints %d" % model.njoints)
    L.append("nbodies %d" % model.nbodies)
    L.append("nframes %d" % model.nframes)
    L.append("gravity " + row(model.gravity.vector))
    for i in range(model.njoints):
        jm = model.joints[i]
        if i == 0:
            L.append("joint 0 universe universe 0 -1 0 -1 0")
            continue
        L.append("joint %d %s %s %d %d %d %d %d" % (i, model.names[i], jm.shortname(),
                                                   model.parents[i], jm.idx_q, jm.nq, jm.idx_v,
                                                   jm.nv))
    for i in range(1, model.njoints):
        for k, ax in enumerate(joint_axes(model.joints[i])):
            L.append("axis %d %d %s" % (i, k + 1, row(ax)))
    for i in range(model.njoints):
        L.append("placement %d %s" % (i, se3_fields(model.jointPlacements[i])))
    for i in range(model.njoints):
        I = model.inertias[i]
        L.append("inertia %d %s %s %s" % (i, fmt(I.mass), row(I.lever), row(I.inertia)))
    for name in ("lowerPositionLimit", "upperPositionLimit"):
        vec = getattr(model, name)
        L.append("vec %s %d %s" % (name, len(vec), row(vec)))
    for name in ("velocityLimit", "effortLimit", "armature"):
        vec = getattr(model, name)
        L.append("vec %s %d %s" % (name, len(vec), row(vec)))
    for f in range(model.nframes):
        fr = model.frames[f]
        L.append("frame %d %s %s %d %d %s" % (f, fr.name, str(fr.type), fr.parentJoint,
                                            fr.parentFrame, se3_fields(fr.placement)))
    for name in ("q", "v", "a", "tau", "q_neutral", "dq", "q_plus_dq", "difference_neutral_q"):
        L.append("vec %s %d %s" % (name, len(out[name]), row(out[name])))
    for i in range(model.njoints):
        L.append("oMi %d %s" % (i, se3_fields(out["oMi"][i])))
    for i in range(1, model.njoints):
        L.append("S %d %d %s" % (i, model.nvs[i], row(out["S"][i])))
    for i in range(1, model.njoints):
        L.append("vJ %d %s" % (i, row(out["vJ"][i])))
    for i in range(1, model.njoints):
        L.append("aJ %d %s" % (i, row(out["aJ"][i])))

    def mat(name):
        A = out[name]
        L.append("mat %s %d %d" % (name, A.shape[0], A.shape[1]))
        L.extend(row(r) for r in A)

    L.append("vec rnea %d %s" % (model.nv, row(out["rnea"])))
    mat("crba")
    L.append("vec aba %d %s" % (model.nv, row(out["aba"])))
    mat("Minv")
    L.append("vec nle %d %s" % (model.nv, row(out["nle"])))
    L.append("vec gravity_torque %d %s" % (model.nv, row(out["gravity_torque"])))
    for name in ("dtau_dq", "dtau_dv", "dddq_dq", "dddq_dv"):
        mat(name)
    return L


# ----------------------------------------------------------------------------------------------
# the self-check: the dump's text alone rebuilds the kinematics and the mass matrix


def parse(lines):
    d = {"joint": {}, "axis": {}, "placement": {}, "inertia": {}, "oMi": {}, "S": {}, "vec": {},
         "mat": {}}
    it = iter(lines)
    for line in it:
        t = line.split()
        if not t or t[0] == "#":
            continue
        k = t[0]
        if k == "joint":
            d["joint"][int(t[1])] = (t[2], t[3], int(t[4]), int(t[5]), int(t[6]), int(t[7]),
                                     int(t[8]))
        elif k == "axis":
            d["axis"].setdefault(int(t[1]), []).append(np.array([float(x) for x in t[3:6]]))
        elif k in ("placement", "oMi"):
            x = [float(v) for v in t[2:14]]
            d[k][int(t[1])] = homogeneous(np.array(x[:9]).reshape(3, 3), x[9:])
        elif k == "inertia":
            x = [float(v) for v in t[2:15]]
            d["inertia"][int(t[1])] = spatial_inertia(x[0], np.array(x[1:4]),
                                                      np.array(x[4:13]).reshape(3, 3))
        elif k == "S":
            nv = int(t[2])
            d["S"][int(t[1])] = np.array([float(v) for v in t[3:]]).reshape(6, nv)
        elif k == "vec":
            d["vec"][t[1]] = np.array([float(v) for v in t[3:]])
        elif k == "mat":
            r, c = int(t[2]), int(t[3])
            d["mat"][t[1]] = np.array([[float(v) for v in next(it).split()] for _ in range(r)])
    return d


def self_check(lines, checks):
    d = parse(lines)
    q = d["vec"]["q"]
    nv = max(j[5] + j[6] for j in d["joint"].values())
    joints = sorted(i for i in d["joint"] if i > 0)
    # Kinematics from placements, joint types, axes and q alone.
    oMi = {0: np.eye(4)}
    S = {}
    pose_err = s_err = 0.0
    for i in joints:
        _, jtype, parent, iq, nq, iv, jnv = d["joint"][i]
        T, S[i] = joint_transform(jtype, d["axis"].get(i, []), q[iq : iq + nq])
        oMi[i] = oMi[parent] @ d["placement"][i] @ T
        pose_err = max(pose_err, np.abs(oMi[i] - d["oMi"][i]).max())
        s_err = max(s_err, np.abs(S[i] - d["S"][i]).max())
    require("rebuilt_oMi(placement,type,axis,q)-oMi", pose_err, REBUILD_TOL, checks)
    require("rebuilt_S(type,axis,q)-S", s_err, REBUILD_TOL, checks)
    # Mass matrix: sum over bodies of J_i^T I_i J_i, J_i in body i's frame, from the dumped S, oMi
    # and inertias.
    M = np.zeros((nv, nv))
    for i in joints:
        J = np.zeros((6, nv))
        iMo = np.linalg.inv(d["oMi"][i])
        j = i
        while j > 0:
            _, _, parent, _, _, iv, jnv = d["joint"][j]
            J[:, iv : iv + jnv] = adjoint(iMo @ d["oMi"][j]) @ d["S"][j]
            j = parent
        M += J.T @ d["inertia"][i] @ J
    require("numpy_crba(S,oMi,inertia)-crba", rel(M, d["mat"]["crba"]), REBUILD_TOL, checks)


def twin_check(model, seed, checks):
    """The universal chain against the same mechanism from revolute pairs."""
    twin = universal_chain(twin=True)
    q, v, a, tau, _ = random_state(model, seed)
    d1, d2 = model.createData(), twin.createData()
    worst = max(
        rel(pin.rnea(twin, d2, q, v, a), pin.rnea(model, d1, q, v, a)),
        rel(symmetrised(pin.crba(twin, d2, q)), symmetrised(pin.crba(model, d1, q))),
        rel(pin.aba(twin, d2, q, v, tau), pin.aba(model, d1, q, v, tau)),
        rel(pin.nonLinearEffects(twin, d2, q, v), pin.nonLinearEffects(model, d1, q, v)),
    )
    require("universal_vs_revolute_pairs(rnea,crba,aba,nle)", worst, TWIN_TOL, checks)
    # The universal joint's bias c = dS/dt v = [0; -v1 v2 (a2 x R2(q2)^T a1)] (README), against
    # Pinocchio's joint acceleration at zero joint acceleration below a fixed base.
    worst = 0.0
    for k, (a1, a2) in enumerate(UNIVERSAL_AXES):
        a1, a2 = np.array(a1, float), np.array(a2, float)
        one = pin.Model()
        j = one.addJoint(0, pin.JointModelUniversal(a1, a2), pin.SE3.Identity(), "u")
        one.appendBodyToJoint(j, pin.Inertia.FromBox(1.0, 0.1, 0.2, 0.3), pin.SE3.Identity())
        d = one.createData()
        qj, vj = q[2 * k : 2 * k + 2], v[2 * k : 2 * k + 2]
        pin.forwardKinematics(one, d, qj, vj, np.zeros(2))
        c = -vj[0] * vj[1] * np.cross(a2, exp_so3(a2 * qj[1]).T @ a1)
        worst = max(worst, rel(np.concatenate([np.zeros(3), c]), d.a[1].vector))
    require("universal_bias_formula-pinocchio_cJ", worst, REBUILD_TOL, checks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(DATA, "pinocchio4"))
    parser.add_argument("--only", help="write this model's dumps alone (a file stem)")
    args = parser.parse_args()
    if not pin.__version__.startswith("4.1"):
        sys.exit("generate_pinocchio_reference: needs Pinocchio 4.1, found " + pin.__version__)
    os.makedirs(args.out, exist_ok=True)
    command = "python3 scripts/generate_pinocchio_reference.py"
    try:
        for stem, build, description in MODELS:
            if args.only and stem != args.only:
                continue
            model = build()
            kinds = {}
            for i in range(1, model.njoints):
                kinds[model.joints[i].shortname()] = kinds.get(model.joints[i].shortname(), 0) + 1
            print("%s: nq %d nv %d joints %s" % (stem, model.nq, model.nv, kinds))
            for seed in SEEDS:
                print(" seed %d" % seed)
                checks = []
                twin = universal_chain(twin=True) if stem == "universal_chain" else None
                out = compute(model, seed, checks, derivative_twin=twin)
                if twin is not None:
                    twin_check(model, seed, checks)
                lines = dump_text(model, seed, description, command, out, checks)
                self_check(lines, checks)
                lines += checks + ["end"]
                path = os.path.join(args.out, "%s.seed%d.txt" % (stem, seed))
                with open(path, "w") as f:
                    f.write("\n".join(lines) + "\n")
                size = os.path.getsize(path)
                print("  wrote %s (%d bytes)" % (os.path.relpath(path, REPO), size))
    except Failure as e:
        sys.exit("generate_pinocchio_reference: check failed: %s" % e)


if __name__ == "__main__":
    main()
