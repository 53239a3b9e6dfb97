#!/usr/bin/env python3
"""Writes tests/data/crocoddyl/{solo12,talos,solo12_armature}.txt, the contact files (CONTACTS,
generate_contact) and the residual files (RESIDUALS, generate_residuals): Crocoddyl 3.2 reference values for the liedyn-Crocoddyl bridge
(include/liedyn/crocoddyl/, tests/crocoddyl/test_crocoddyl_{bridge,contact}.cpp).

Run from the repository root, with the pip packages of docs/crocoddyl.md installed:

    python3 scripts/generate_crocoddyl_reference.py [--out tests/data/crocoddyl] [--samples 10]

For each robot (tests/data/solo12.urdf, tests/data/talos.urdf, free-flyer root, <mimic> ignored)
and each of `--samples` random (x, u), the file holds:
  * Crocoddyl's Pinocchio-backed DifferentialActionModelFreeFwdDynamics with
    ActuationModelFloatingBase and a CostModelSum of a state residual (ResidualModelState, weight
    W_STATE, reference xref) and a control residual (ResidualModelControl, weight W_CONTROL,
    reference uref), both with the default quadratic activation: calc's xout and cost, calcDiff's
    Fx, Fu, Lx, Lu, Lxx, Lxu, Luu, and quasiStatic's u at x (`quasi_static_u.k`; the contact
    files too);
  * StateMultibody's diff(x, x1), integrate(x, dx), Jdiff(x, x1) (first, second),
    Jintegrate(x, dx) (first, second) and JintegrateTransport(x, dx, Jin) (first, second) for a
    second random state x1, a random tangent dx and a random Jin (ndx × 3).
solo12_armature.txt holds the action model's records alone, with the joints' armature set
(`vec armature`, Pinocchio's velocity order, 0 on the base): Crocoddyl then takes another route,
M + diag(armature) factorized, and RNEA derivatives for Fx.
Everything is in Pinocchio's coordinates and joint order (the `joint` records list Pinocchio's
joints); the C++ test converts with the documented map (docs/crocoddyl.md).

The residual files (solo12_residuals, talos_residuals) hold, for random (x, u), r and Rx of
Crocoddyl's frame placement, rotation, translation and velocity (three senses) residuals of a
few frames and of its CoM position residual; `residual LABEL KIND FRAME SENSE` ("-": none)
names each, `vec LABEL_ref` its reference, `vec LABEL_own_fd_error` the largest error of
Crocoddyl's Rx against central differences of its own r (the script reports them, it does not
abort: Crocoddyl's LOCAL_WORLD_ALIGNED velocity Jacobian fails that check, and the test shows it).

talos_arm_fddp holds Crocoddyl's SolverFDDP solution of its arm manipulation example (ARM,
generate_arm): iterations, cost, xs, us; anymal_walk_fddp that of its quadrupedal walking example
(WALK, generate_walk), and the impulse files (IMPULSES, generate_impulse) its impulse model.

Format, line-oriented text:
  meta KEY VALUE...
  nq N | nv N | nu N | samples N
  joint I NAME TYPE          Pinocchio joint I >= 2 (after universe and root_joint), in order
  vec NAME N v1 .. vN
  mat NAME R C v11 v12 .. vRC   (dense, row-major, one line)
  sparse NAME R C K i1 j1 v1 .. iK jK vK   (the K non-zero entries, 0-based; the rest is 0)
  end
Sample k's records are named NAME.k (x.0, Fx.0, ...). Numbers are written with repr (shortest
round-trip form), so the file reproduces Crocoddyl's doubles exactly.

The script aborts (exit status 1) when one of its checks fails:
  * Crocoddyl's xout against pin.aba at the same (q, v, tau) (with armature: a solve with
    crba + diag(armature) and nonLinearEffects), above ABA_TOL relative: libcrocoddyl
    3.2.1's wheel was built against libpinocchio 4.0.0, and with libpinocchio 4.1.0 installed its
    xout lacks gravity (Fx stays right), so the packages must be pinned as docs/crocoddyl.md says;
  * Crocoddyl's Fx, Fu against central differences through StateMultibody.integrate, max error
    above FD_TOL relative to max(1, |F|).
"""
import argparse
import datetime
import os
import sys

import numpy as np
import pinocchio as pin
import crocoddyl

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(REPO, "tests", "data")
# (file name, URDF, seed, armature, state operations too)
ROBOTS = (
    ("solo12", "solo12.urdf", 1, False, True),
    ("talos", "talos.urdf", 2, False, True),
    ("solo12_armature", "solo12.urdf", 3, True, False),
)
W_STATE = 2.0
W_CONTROL = 0.5
ABA_TOL = 1e-12  # the same ABA, called from Crocoddyl and from Python: rounding only
FD_TOL = 1e-6  # central differences with step 1e-6: truncation ~1e-12 |F'''|, rounding ~1e-10


def random_state(model, rng):
    """Base position in [-1, 1]^3, a uniformly random attitude, joints uniform within their
    limits (clipped to [-pi, pi]), velocities uniform in [-1, 1]."""
    q = np.zeros(model.nq)
    q[:3] = rng.uniform(-1.0, 1.0, 3)
    quat = rng.normal(size=4)
    q[3:7] = quat / np.linalg.norm(quat)
    lo = np.maximum(model.lowerPositionLimit[7:], -np.pi)
    hi = np.minimum(model.upperPositionLimit[7:], np.pi)
    q[7:] = rng.uniform(lo, hi)
    v = rng.uniform(-1.0, 1.0, model.nv)
    return np.concatenate([q, v])


def fmt(values):
    return " ".join(repr(float(v)) for v in np.asarray(values).ravel())


def build(model):
    state = crocoddyl.StateMultibody(model)
    actuation = crocoddyl.ActuationModelFloatingBase(state)
    return state, actuation


def generate(name, urdf, seed, samples, with_armature, state_operations):
    model = pin.buildModelFromUrdf(os.path.join(DATA, urdf), pin.JointModelFreeFlyer())
    rng = np.random.default_rng(seed)
    state, actuation = build(model)
    nu = actuation.nu
    xref = random_state(model, rng)
    uref = rng.uniform(-1.0, 1.0, nu)
    costs = crocoddyl.CostModelSum(state, nu)
    costs.addCost(
        "state",
        crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelState(state, xref, nu)),
        W_STATE,
    )
    costs.addCost(
        "control",
        crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelControl(state, uref)),
        W_CONTROL,
    )
    dam = crocoddyl.DifferentialActionModelFreeFwdDynamics(state, actuation, costs)
    armature = np.zeros(model.nv)
    if with_armature:
        armature[6:] = 0.01 * np.arange(1, model.nv - 5)  # distinct per joint: catches a permutation
        dam.armature = armature
    data = dam.createData()

    lines = [
        "# Crocoddyl reference for the liedyn-Crocoddyl bridge (format: see the generator)",
        "meta generator python3 scripts/generate_crocoddyl_reference.py",
        "meta crocoddyl_version " + crocoddyl.__version__,
        "meta pinocchio_version " + pin.__version__,
        "meta numpy_version " + np.__version__,
        "meta date " + datetime.date.today().isoformat(),
        "meta urdf " + urdf,
        "meta seed %d" % seed,
        "meta actuation ActuationModelFloatingBase",
        "meta costs state:ResidualModelState:%r control:ResidualModelControl:%r"
        % (W_STATE, W_CONTROL),
        "nq %d" % model.nq,
        "nv %d" % model.nv,
        "nu %d" % nu,
        "samples %d" % samples,
        "gravity " + fmt(model.gravity.linear),
    ]
    for i in range(2, model.njoints):
        lines.append("joint %d %s %s" % (i, model.names[i], model.joints[i].shortname()))
    lines.append("vec xref %d %s" % (xref.size, fmt(xref)))
    lines.append("vec uref %d %s" % (uref.size, fmt(uref)))
    if with_armature:
        lines.append("vec armature %d %s" % (armature.size, fmt(armature)))

    def vec(n, v):
        lines.append("vec %s %d %s" % (n, np.asarray(v).size, fmt(v)))

    def mat(n, m):
        m = np.array(m, copy=True)  # Crocoddyl's returned Jacobians may alias its buffers
        nz = np.nonzero(m)
        if 3 * nz[0].size < m.size:  # mostly zeros (block-diagonal Jacobians, Hessians)
            triplets = " ".join("%d %d %r" % (i, j, float(m[i, j])) for i, j in zip(*nz))
            lines.append("sparse %s %d %d %d %s" % (n, m.shape[0], m.shape[1], nz[0].size,
                                                    triplets))
        else:
            lines.append("mat %s %d %d %s" % (n, m.shape[0], m.shape[1], fmt(m)))

    def only(jacobians):
        held = jacobians  # keep the returned vector alive while its one matrix is copied
        return np.array(held[0], copy=True)

    worst = 0.0
    for k in range(samples):
        x = random_state(model, rng)
        u = rng.uniform(-20.0, 20.0, nu)
        dam.calc(data, x, u)
        dam.calcDiff(data, x, u)
        tau = np.concatenate([np.zeros(6), u])
        q, v = x[: model.nq], x[model.nq :]
        if with_armature:
            pdata = pin.Data(model)
            M = pin.crba(model, pdata, q)
            M = np.triu(M) + np.triu(M, 1).T + np.diag(armature)
            xout = np.linalg.solve(M, tau - pin.nonLinearEffects(model, pdata, q, v))
        else:
            xout = pin.aba(model, pin.Data(model), q, v, tau)
        aba_error = np.abs(data.xout - xout).max() / max(1.0, np.abs(xout).max())
        if aba_error > ABA_TOL:
            print("FAILED: Crocoddyl's xout differs from pin.aba by %.2e (relative): is "
                  "libpinocchio the version libcrocoddyl was built for?" % aba_error,
                  file=sys.stderr)
            sys.exit(1)
        s = ".%d" % k
        vec("x" + s, x)
        vec("u" + s, u)
        vec("xout" + s, data.xout)
        vec("cost" + s, [data.cost])
        mat("Fx" + s, data.Fx)
        mat("Fu" + s, data.Fu)
        vec("Lx" + s, data.Lx)
        vec("Lu" + s, data.Lu)
        mat("Lxx" + s, data.Lxx)
        mat("Lxu" + s, data.Lxu)
        mat("Luu" + s, data.Luu)
        vec("quasi_static_u" + s, dam.quasiStatic(data, x))

        # The generator's own check: Fx, Fu against central differences.
        h = 1e-6
        fd = np.zeros((model.nv, state.ndx + nu))
        d2 = dam.createData()
        for c in range(state.ndx):
            e = np.zeros(state.ndx)
            e[c] = h
            dam.calc(d2, state.integrate(x, e), u)
            plus = d2.xout.copy()
            dam.calc(d2, state.integrate(x, -e), u)
            fd[:, c] = (plus - d2.xout) / (2 * h)
        for c in range(nu):
            e = np.zeros(nu)
            e[c] = h
            dam.calc(d2, x, u + e)
            plus = d2.xout.copy()
            dam.calc(d2, x, u - e)
            fd[:, state.ndx + c] = (plus - d2.xout) / (2 * h)
        F = np.hstack([data.Fx, data.Fu])
        worst = max(worst, np.abs(fd - F).max() / max(1.0, np.abs(F).max()))

        if not state_operations:
            continue
        x1 = random_state(model, rng)
        dx = rng.uniform(-1.0, 1.0, state.ndx)
        jin = rng.uniform(-1.0, 1.0, (state.ndx, 3))
        vec("x1" + s, x1)
        vec("dx" + s, dx)
        vec("diff" + s, state.diff(x, x1))
        vec("integrate" + s, state.integrate(x, dx))
        mat("Jdiff_first" + s, only(state.Jdiff(x, x1, crocoddyl.Jcomponent.first)))
        mat("Jdiff_second" + s, only(state.Jdiff(x, x1, crocoddyl.Jcomponent.second)))
        mat("Jintegrate_first" + s, only(state.Jintegrate(x, dx, crocoddyl.Jcomponent.first)))
        mat("Jintegrate_second" + s, only(state.Jintegrate(x, dx, crocoddyl.Jcomponent.second)))
        mat("Jin" + s, jin)
        for which, comp in (("first", crocoddyl.Jcomponent.first),
                            ("second", crocoddyl.Jcomponent.second)):
            j = jin.copy()
            state.JintegrateTransport(x, dx, j, comp)
            mat("JintegrateTransport_" + which + s, j)
    lines.append("end")
    print("%s: nq %d nv %d nu %d, %d samples, Fx/Fu vs central differences %.2e"
          % (name, model.nq, model.nv, nu, samples, worst))
    if worst > FD_TOL:
        print("FAILED: finite-difference check above %g" % FD_TOL, file=sys.stderr)
        sys.exit(1)
    return "\n".join(lines) + "\n"


# Contact dynamics: (file name, URDF, seed, contact frames, "3D" or "6D", sense, gains [Kp, Kd],
# joint armature).
# Kp is non-zero on one 3D file only: it checks the position error's mapping; Crocoddyl's 6D
# position error (log6) is not liedyn's, and the bridge refuses a 6D Kp.
CONTACTS = (
    ("solo12_contact3d_local", "solo12.urdf", 11, ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"),
     "3D", "LOCAL", (25.0, 10.0), False),
    ("solo12_contact3d_lwa", "solo12.urdf", 12, ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"),
     "3D", "LOCAL_WORLD_ALIGNED", (0.0, 50.0), False),
    ("talos_contact6d_local", "talos.urdf", 13, ("left_sole_link", "right_sole_link"),
     "6D", "LOCAL", (0.0, 40.0), False),
    ("talos_contact6d_lwa", "talos.urdf", 14, ("left_sole_link", "right_sole_link"),
     "6D", "LOCAL_WORLD_ALIGNED", (0.0, 30.0), False),
    ("solo12_contact3d_armature", "solo12.urdf", 15, ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"),
     "3D", "LOCAL_WORLD_ALIGNED", (10.0, 20.0), True),
)


# (file name, URDF, seed, frames, kind, sense, restitution): the impulse files.
IMPULSES = (
    ("solo12_impulse3d_lwa", "solo12.urdf", 21, ("FL_FOOT", "HR_FOOT"), "3D",
     "LOCAL_WORLD_ALIGNED", 0.0),
    ("solo12_impulse3d_local", "solo12.urdf", 22, ("FL_FOOT", "FR_FOOT", "HL_FOOT"), "3D",
     "LOCAL", 0.0),
    ("solo12_impulse3d_restitution", "solo12.urdf", 23, ("FR_FOOT", "HL_FOOT"), "3D",
     "LOCAL_WORLD_ALIGNED", 0.5),
    ("talos_impulse6d_lwa", "talos.urdf", 24, ("left_sole_link",), "6D", "LOCAL_WORLD_ALIGNED",
     0.0),
)


def generate_impulse(name, urdf, seed, samples, frames, kind, sense, restitution):
    """Crocoddyl's ActionModelImpulseFwdDynamics (r_coeff = restitution, no damping, forces on)
    with one ImpulseModel3D/6D per frame in `sense` and a CostModelSum (nu = 0) of a state
    residual (weight W_STATE, reference xref) and a contact force residual on the first impulse
    (weight 1, reference `vec impulse_force_ref`, 6 entries, linear first): calc's xnext, cost and
    impulses (`vec impulse.k`: Pinocchio's impulse_c), calcDiff's velocity rows of Fx
    (`mat Fx_v.k`, nv × ndx: the position rows are [I 0]), df_dx, Lx, Lxx, and the force
    residual's r, Rx (`impulse_force_r.k`, `impulse_force_Rx.k`). `vec Fx_own_fd_error` and
    `vec df_dx_own_fd_error` hold the largest error of Crocoddyl's Fx and df_dx against central
    differences of its own xnext (through StateMultibody.diff) and impulses, relative to the
    largest entry: the script reports them and does not abort (with restitution, Crocoddyl's
    fail that check, and the test shows it). `vec Fx_velocity_block_corrected_fd_error`: the same
    for Crocoddyl's velocity block of Fx plus the term -e (K^-1)_12 J it lacks."""
    model = pin.buildModelFromUrdf(os.path.join(DATA, urdf), pin.JointModelFreeFlyer())
    rng = np.random.default_rng(seed)
    state = crocoddyl.StateMultibody(model)
    xref = random_state(model, rng)
    fref = rng.uniform(-10.0, 10.0, 6)
    nc = 3 if kind == "3D" else 6
    frame_type = getattr(pin.ReferenceFrame, sense)
    impulses = crocoddyl.ImpulseModelMultiple(state)
    for f in frames:
        fid = model.getFrameId(f)
        impulse = (crocoddyl.ImpulseModel3D if kind == "3D" else crocoddyl.ImpulseModel6D)(
            state, fid, frame_type)
        impulses.addImpulse(f, impulse)
    costs = crocoddyl.CostModelSum(state, 0)
    costs.addCost("state", crocoddyl.CostModelResidual(
        state, crocoddyl.ResidualModelState(state, xref, 0)), W_STATE)
    force = crocoddyl.ResidualModelContactForce(state, model.getFrameId(frames[0]),
                                                pin.Force(fref), nc, 0)
    costs.addCost("force", crocoddyl.CostModelResidual(state, force), 1.0)
    am = crocoddyl.ActionModelImpulseFwdDynamics(state, impulses, costs, restitution, 0.0, True)
    data = am.createData()
    lines = [
        "# Crocoddyl impulse reference for the liedyn-Crocoddyl bridge (format: see the generator)",
        "meta generator python3 scripts/generate_crocoddyl_reference.py",
        "meta crocoddyl_version " + crocoddyl.__version__,
        "meta pinocchio_version " + pin.__version__,
        "meta date " + datetime.date.today().isoformat(),
        "meta urdf " + urdf,
        "meta seed %d" % seed,
        "meta model ActionModelImpulseFwdDynamics (JMinvJt_damping 0, enable_force)",
        "meta costs state:ResidualModelState:%r force:ResidualModelContactForce:1.0" % W_STATE,
        "contact_kind " + kind,
        "contact_sense " + sense,
        "contact_frames %d %s" % (len(frames), " ".join(frames)),
        "restitution %r" % restitution,
        "nq %d" % model.nq,
        "nv %d" % model.nv,
        "nu 0",
        "samples %d" % samples,
    ]
    for i in range(2, model.njoints):
        lines.append("joint %d %s %s" % (i, model.names[i], model.joints[i].shortname()))
    lines.append("vec xref %d %s" % (xref.size, fmt(xref)))
    lines.append("vec impulse_force_ref 6 %s" % fmt(fref))

    def vec(n, v):
        lines.append("vec %s %d %s" % (n, np.asarray(v).size, fmt(v)))

    def mat(n, m):
        nz = np.nonzero(m)
        if 3 * nz[0].size < m.size:
            triplets = " ".join("%d %d %r" % (i, j, float(m[i, j])) for i, j in zip(*nz))
            lines.append("sparse %s %d %d %d %s" % (n, m.shape[0], m.shape[1], nz[0].size,
                                                    triplets))
        else:
            lines.append("mat %s %d %d %s" % (n, m.shape[0], m.shape[1], fmt(m)))

    u = np.zeros(0)
    d2 = am.createData()
    worst = {"Fx": 0.0, "df_dx": 0.0, "corrected": 0.0}
    nv, nc = model.nv, data.df_dx.shape[0]
    step = 1e-6
    for k in range(samples):
        x = random_state(model, rng)
        am.calc(data, x, u)
        am.calcDiff(data, x, u)
        s = ".%d" % k
        vec("x" + s, x)
        vec("xnext" + s, data.xnext)
        vec("cost" + s, [data.cost])
        vec("impulse" + s, data.pinocchio.impulse_c)
        mat("Fx_v" + s, np.array(data.Fx)[model.nv:, :])
        mat("df_dx" + s, np.array(data.df_dx))
        vec("Lx" + s, data.Lx)
        mat("Lxx" + s, np.array(data.Lxx))
        fdata = data.costs.costs["force"].residual
        vec("impulse_force_r" + s, fdata.r)
        mat("impulse_force_Rx" + s, np.array(fdata.Rx))
        fx = np.zeros((state.ndx, state.ndx))
        ff = np.zeros((data.df_dx.shape[0], state.ndx))
        for c in range(state.ndx):
            e = np.zeros(state.ndx)
            e[c] = step
            am.calc(d2, state.integrate(x, e), u)
            plus, fplus = d2.xnext.copy(), d2.pinocchio.impulse_c.copy()
            am.calc(d2, state.integrate(x, -e), u)
            fx[:, c] = state.diff(d2.xnext, plus) / (2 * step)
            ff[:, c] = (fplus - d2.pinocchio.impulse_c) / (2 * step)
        for what, ours, fd in (("Fx", data.Fx, fx), ("df_dx", data.df_dx, ff)):
            ours = np.array(ours)
            worst[what] = max(worst[what],
                              np.abs(fd - ours).max() / max(1.0, np.abs(ours).max()))
        # The term that restitution adds to dv+/dv-, -e (K^-1)_12 J, which Crocoddyl's Fx lacks:
        # its velocity block with it, against the differences.
        block = np.array(data.Fx)[nv:, nv:] - restitution * (
            np.array(data.Kinv)[:nv, nv:nv + nc] @ np.array(data.multibody.impulses.Jc)[:nc])
        worst["corrected"] = max(worst["corrected"], np.abs(fx[nv:, nv:] - block).max()
                                 / max(1.0, np.abs(block).max()))
    vec("Fx_own_fd_error", [worst["Fx"]])
    vec("df_dx_own_fd_error", [worst["df_dx"]])
    vec("Fx_velocity_block_corrected_fd_error", [worst["corrected"]])
    lines.append("end")
    print("%s: %d impulses %s %s, restitution %r, %d samples, Crocoddyl's Fx, df_dx vs central "
          "differences of its own xnext, impulses: %.2e, %.2e; Fx's velocity block with "
          "-e (K^-1)_12 J: %.2e"
          % (name, len(frames), kind, sense, restitution, samples, worst["Fx"], worst["df_dx"],
             worst["corrected"]))
    return "\n".join(lines) + "\n"


def contact_force_residuals(state, model, frame, kind, nu, seed, lines):
    """Crocoddyl's residuals on the first contact's force, read from the contact model's data
    (a separate generator, seed + 200: the other draws stay as they were): ResidualModelContactForce
    against `vec contact_force_ref` (6 entries, linear first; a 3D contact uses the first 3),
    ResidualModelContactFrictionCone of the cone (`mat cone_rotation`,
    `cone_mu`, `cone_facets`, inner approximation, normal force in [0, inf)) and, for a 6D contact,
    ResidualModelContactWrenchCone of the same rotation, mu and facets with the half sole
    `vec wrench_box`. Each `LABEL_r.k`, `LABEL_Rx.k`, `LABEL_Ru.k` after the action's calc and
    calcDiff; the cones' A in `mat friction_cone_A` and `mat wrench_cone_A`."""
    rng = np.random.default_rng(seed + 200)
    fid = model.getFrameId(frame)
    nc = 3 if kind == "3D" else 6
    fref = rng.uniform(-10.0, 10.0, 6)
    rotation = pin.exp3(rng.uniform(-0.5, 0.5, 3))
    mu, facets, box = 0.7, 4, np.array([0.1, 0.05])
    lines.append("contact_residual_frame " + frame)
    lines.append("vec contact_force_ref 6 %s" % fmt(fref))
    lines.append("mat cone_rotation 3 3 %s" % fmt(rotation))
    lines.append("cone_mu %r" % mu)
    lines.append("cone_facets %d" % facets)
    cone = crocoddyl.FrictionCone(rotation, mu, facets, True)
    lines.append("mat friction_cone_A %d %d %s" % (cone.A.shape + (fmt(cone.A),)))
    residuals = [
        ("contact_force",
         crocoddyl.ResidualModelContactForce(state, fid, pin.Force(fref), nc, nu, True)),
        ("friction_cone", crocoddyl.ResidualModelContactFrictionCone(state, fid, cone, nu, True)),
    ]
    if kind == "6D":
        lines.append("vec wrench_box 2 %s" % fmt(box))
        wrench = crocoddyl.WrenchCone(rotation, mu, box, facets, True)
        lines.append("mat wrench_cone_A %d %d %s" % (wrench.A.shape + (fmt(wrench.A),)))
        residuals.append(
            ("wrench_cone", crocoddyl.ResidualModelContactWrenchCone(state, fid, wrench, nu, True)))
    return residuals


def generate_contact(name, urdf, seed, samples, frames, kind, sense, gains, with_armature):
    """Crocoddyl's DifferentialActionModelContactFwdDynamics (ActuationModelFloatingBase, the
    same state + control costs as generate) with one ContactModel3D/6D per frame: calc's xout,
    cost and contact forces (`vec force.NAME.k`: ContactData.f in the contact's sense, and
    `vec lambda.k`: the stacked Lagrange multipliers), calcDiff's Fx, Fu, df_dx, df_du, Lx, Lu,
    Lxx, Lxu, Luu; and ResidualModelFrameTranslation of the first contact frame against
    `vec translation_ref` (`translation_r.k`, `translation_Rx.k`). 3D contacts get xref = `vec xref_contact.I` (the foot's position at a random
    configuration, moved by up to 5 cm), 6D ones the identity placement (their Kp is 0). With
    `with_armature`, the joints' armature as in generate (`vec armature`)."""
    model = pin.buildModelFromUrdf(os.path.join(DATA, urdf), pin.JointModelFreeFlyer())
    rng = np.random.default_rng(seed)
    state, actuation = build(model)
    nu = actuation.nu
    xref = random_state(model, rng)
    uref = rng.uniform(-1.0, 1.0, nu)
    costs = crocoddyl.CostModelSum(state, nu)
    costs.addCost(
        "state",
        crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelState(state, xref, nu)),
        W_STATE,
    )
    costs.addCost(
        "control",
        crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelControl(state, uref)),
        W_CONTROL,
    )
    frame = getattr(pin.ReferenceFrame, sense)
    contacts = crocoddyl.ContactModelMultiple(state, nu)
    pdata = pin.Data(model)
    q0 = random_state(model, rng)[: model.nq]
    pin.framesForwardKinematics(model, pdata, q0)
    targets = []
    for f in frames:
        fid = model.getFrameId(f)
        if kind == "3D":
            target = pdata.oMf[fid].translation + rng.uniform(-0.05, 0.05, 3)
            targets.append(target)
            c = crocoddyl.ContactModel3D(state, fid, target, frame, nu, np.array(gains))
        else:
            c = crocoddyl.ContactModel6D(state, fid, pin.SE3.Identity(), frame, nu,
                                         np.array(gains))
        contacts.addContact(f, c)
    dam = crocoddyl.DifferentialActionModelContactFwdDynamics(state, actuation, contacts, costs,
                                                              0.0, True)
    armature = np.zeros(model.nv)
    if with_armature:
        armature[6:] = 0.01 * np.arange(1, model.nv - 5)
        dam.armature = armature
    data = dam.createData()
    lines = [
        "# Crocoddyl contact reference for the liedyn-Crocoddyl bridge (format: see the generator)",
        "meta generator python3 scripts/generate_crocoddyl_reference.py",
        "meta crocoddyl_version " + crocoddyl.__version__,
        "meta pinocchio_version " + pin.__version__,
        "meta date " + datetime.date.today().isoformat(),
        "meta urdf " + urdf,
        "meta seed %d" % seed,
        "meta actuation ActuationModelFloatingBase",
        "meta model DifferentialActionModelContactFwdDynamics (JMinvJt_damping 0)",
        "meta costs state:ResidualModelState:%r control:ResidualModelControl:%r"
        % (W_STATE, W_CONTROL),
        "contact_kind " + kind,
        "contact_sense " + sense,
        "contact_gains %r %r" % gains,
        "contact_frames %d %s" % (len(frames), " ".join(frames)),
        "nq %d" % model.nq,
        "nv %d" % model.nv,
        "nu %d" % nu,
        "samples %d" % samples,
    ]
    for i in range(2, model.njoints):
        lines.append("joint %d %s %s" % (i, model.names[i], model.joints[i].shortname()))
    lines.append("vec xref %d %s" % (xref.size, fmt(xref)))
    lines.append("vec uref %d %s" % (uref.size, fmt(uref)))
    for i, t in enumerate(targets):
        lines.append("vec xref_contact.%d 3 %s" % (i, fmt(t)))
    if with_armature:
        lines.append("vec armature %d %s" % (armature.size, fmt(armature)))

    def vec(n, v):
        lines.append("vec %s %d %s" % (n, np.asarray(v).size, fmt(v)))

    def mat(n, m):
        m = np.array(m, copy=True)
        nz = np.nonzero(m)
        if 3 * nz[0].size < m.size:
            triplets = " ".join("%d %d %r" % (i, j, float(m[i, j])) for i, j in zip(*nz))
            lines.append("sparse %s %d %d %d %s" % (n, m.shape[0], m.shape[1], nz[0].size,
                                                    triplets))
        else:
            lines.append("mat %s %d %d %s" % (n, m.shape[0], m.shape[1], fmt(m)))

    # Crocoddyl's ResidualModelFrameTranslation of the first contact frame against a random
    # target, on its own (a separate generator: the draws above stay as they were).
    trng = np.random.default_rng(seed + 100)
    tref = trng.uniform(-1.0, 1.0, 3)
    translation = crocoddyl.ResidualModelFrameTranslation(state, model.getFrameId(frames[0]), tref,
                                                          nu)
    lines.append("translation_frame " + frames[0])
    lines.append("vec translation_ref 3 %s" % fmt(tref))
    contact_residuals = contact_force_residuals(state, model, frames[0], kind, nu, seed, lines)

    worst = 0.0
    d2 = dam.createData()
    for k in range(samples):
        x = random_state(model, rng)
        u = rng.uniform(-20.0, 20.0, nu)
        dam.calc(data, x, u)
        dam.calcDiff(data, x, u)
        s = ".%d" % k
        vec("x" + s, x)
        vec("u" + s, u)
        vec("xout" + s, data.xout)
        vec("cost" + s, [data.cost])
        vec("lambda" + s, data.pinocchio.lambda_c)
        for f in frames:
            vec("force.%s%s" % (f, s),
                np.array(data.multibody.contacts.contacts[f].f.vector)[: 3 if kind == "3D" else 6])
        mat("Fx" + s, data.Fx)
        mat("Fu" + s, data.Fu)
        mat("df_dx" + s, data.df_dx)
        mat("df_du" + s, data.df_du)
        vec("Lx" + s, data.Lx)
        vec("Lu" + s, data.Lu)
        mat("Lxx" + s, data.Lxx)
        mat("Lxu" + s, data.Lxu)
        mat("Luu" + s, data.Luu)
        vec("quasi_static_u" + s, dam.quasiStatic(data, x))
        q = x[: model.nq]
        tdata_pin = pin.Data(model)
        pin.computeJointJacobians(model, tdata_pin, q)
        pin.updateFramePlacements(model, tdata_pin)
        tdata = translation.createData(crocoddyl.DataCollectorMultibody(tdata_pin))
        translation.calc(tdata, x, u)
        translation.calcDiff(tdata, x, u)
        vec("translation_r" + s, tdata.r)
        mat("translation_Rx" + s, tdata.Rx)
        for label, residual in contact_residuals:
            rd = residual.createData(data.multibody)
            residual.calc(rd, x, u)
            residual.calcDiff(rd, x, u)
            vec(label + "_r" + s, rd.r)
            mat(label + "_Rx" + s, rd.Rx)
            mat(label + "_Ru" + s, rd.Ru)

        # The generator's own checks: the KKT equations with Pinocchio's M, h, and Fx, Fu
        # against central differences.
        q, v = x[: model.nq], x[model.nq :]
        pd = pin.Data(model)
        M = pin.crba(model, pd, q)
        M = np.triu(M) + np.triu(M, 1).T + np.diag(armature)
        h = pin.nonLinearEffects(model, pd, q, v)
        J = data.multibody.contacts.Jc
        res = M @ data.xout + h - np.concatenate([np.zeros(6), u]) - J.T @ data.pinocchio.lambda_c
        kkt = np.abs(res).max() / max(1.0, np.abs(h).max())
        if kkt > 1e-10:
            print("FAILED: M xout + h - tau != Jc^T lambda_c (%.2e)" % kkt, file=sys.stderr)
            sys.exit(1)
        step = 1e-6
        fd = np.zeros((model.nv, state.ndx + nu))
        for c in range(state.ndx):
            e = np.zeros(state.ndx)
            e[c] = step
            dam.calc(d2, state.integrate(x, e), u)
            plus = d2.xout.copy()
            dam.calc(d2, state.integrate(x, -e), u)
            fd[:, c] = (plus - d2.xout) / (2 * step)
        for c in range(nu):
            e = np.zeros(nu)
            e[c] = step
            dam.calc(d2, x, u + e)
            plus = d2.xout.copy()
            dam.calc(d2, x, u - e)
            fd[:, state.ndx + c] = (plus - d2.xout) / (2 * step)
        F = np.hstack([data.Fx, data.Fu])
        worst = max(worst, np.abs(fd - F).max() / max(1.0, np.abs(F).max()))
    lines.append("end")
    print("%s: nq %d nv %d nu %d, %d contacts %s %s gains %s, %d samples, Fx/Fu vs central "
          "differences %.2e" % (name, model.nq, model.nv, nu, len(frames), kind, sense, gains,
                                samples, worst))
    if worst > FD_TOL:
        print("FAILED: finite-difference check above %g" % FD_TOL, file=sys.stderr)
        sys.exit(1)
    return "\n".join(lines) + "\n"


# (file name, URDF, seed, frames): the residual reference files.
RESIDUALS = (
    ("solo12_residuals", "solo12.urdf", 31, ("FL_FOOT", "HR_FOOT", "base_link")),
    ("talos_residuals", "talos.urdf", 32, ("left_sole_link", "arm_right_7_link")),
)
SENSES = ("LOCAL", "LOCAL_WORLD_ALIGNED", "WORLD")


def residual_data(model, residual, x, u):
    """Crocoddyl's residual data after calc and calcDiff at (x, u), Pinocchio's data filled as
    Crocoddyl's action models fill it (computeAllTerms, the CoM Jacobian, the frame placements,
    the kinematics derivatives)."""
    q, v = x[: model.nq], x[model.nq :]
    pd = pin.Data(model)
    pin.computeAllTerms(model, pd, q, v)
    pin.jacobianCenterOfMass(model, pd, q, False)
    pin.updateFramePlacements(model, pd)
    pin.computeForwardKinematicsDerivatives(model, pd, q, v, np.zeros(model.nv))
    rd = residual.createData(crocoddyl.DataCollectorMultibody(pd))
    residual.calc(rd, x, u)
    residual.calcDiff(rd, x, u)
    return rd


def own_differences_error(model, state, residual, x, u, Rx):
    """max |Rx − central differences of r along x ⊕ h e| / max(1, |Rx|), h = 1e-6: Crocoddyl's
    Jacobian against its own residual."""
    step = 1e-6
    fd = np.zeros_like(Rx)
    for c in range(state.ndx):
        e = np.zeros(state.ndx)
        e[c] = step
        plus = residual_data(model, residual, state.integrate(x, e), u).r.copy()
        minus = residual_data(model, residual, state.integrate(x, -e), u).r.copy()
        fd[:, c] = (plus - minus) / (2 * step)
    return np.abs(fd - Rx).max() / max(1.0, np.abs(Rx).max())


def residual_lines(model, state, residuals, samples, rng, header):
    """The records of the residual references: for each sample `vec x.k`, `vec u.k` and, for each
    (label, residual), `vec LABEL_r.k` and `mat LABEL_Rx.k` (Crocoddyl's r and Rx), and over the
    samples `vec LABEL_own_fd_error 1 e`, Crocoddyl's Rx against its own central differences."""
    lines = list(header)
    nu = model.nv - 6
    own = {label: 0.0 for label, _ in residuals}
    for k in range(samples):
        x = random_state(model, rng)
        u = rng.uniform(-20.0, 20.0, nu)
        s = ".%d" % k
        lines.append("vec x%s %d %s" % (s, x.size, fmt(x)))
        lines.append("vec u%s %d %s" % (s, u.size, fmt(u)))
        for label, res in residuals:
            rd = residual_data(model, res, x, u)
            lines.append("vec %s_r%s %d %s" % (label, s, rd.r.size, fmt(rd.r)))
            lines.append("mat %s_Rx%s %d %d %s" % (label, s, rd.Rx.shape[0], rd.Rx.shape[1],
                                                   fmt(rd.Rx)))
            if np.abs(rd.Ru).max() != 0.0:
                print("FAILED: %s's Ru is not zero" % label, file=sys.stderr)
                sys.exit(1)
            own[label] = max(own[label], own_differences_error(model, state, res, x, u, rd.Rx))
    for label, _ in residuals:
        lines.append("vec %s_own_fd_error 1 %r" % (label, float(own[label])))
        print("  %s: Crocoddyl's Rx vs its own central differences %.2e" % (label, own[label]))
    lines.append("end")
    return lines


def generate_residuals(name, urdf, seed, samples, frames):
    """Crocoddyl's ResidualModelFramePlacement, FrameRotation, FrameTranslation, FrameVelocity
    (the three senses) of each frame, against random references, and ResidualModelCoMPosition:
    `residual LABEL KIND FRAME [SENSE]` names each, its reference in `vec LABEL_ref` (placement:
    the translation then the rotation matrix by rows; rotation: the matrix by rows; velocity:
    linear first)."""
    model = pin.buildModelFromUrdf(os.path.join(DATA, urdf), pin.JointModelFreeFlyer())
    rng = np.random.default_rng(seed)
    state = crocoddyl.StateMultibody(model)
    nu = model.nv - 6
    header = [
        "# Crocoddyl residual reference for the liedyn-Crocoddyl bridge (format: see the generator)",
        "meta generator python3 scripts/generate_crocoddyl_reference.py",
        "meta crocoddyl_version " + crocoddyl.__version__,
        "meta pinocchio_version " + pin.__version__,
        "meta date " + datetime.date.today().isoformat(),
        "meta urdf " + urdf,
        "meta seed %d" % seed,
        "nq %d" % model.nq,
        "nv %d" % model.nv,
        "nu %d" % nu,
        "samples %d" % samples,
    ]
    for i in range(2, model.njoints):
        header.append("joint %d %s %s" % (i, model.names[i], model.joints[i].shortname()))
    residuals = []

    def add(label, kind, frame, res, ref, sense=""):
        header.append("residual %s %s %s %s" % (label, kind, frame, sense or "-"))
        header.append("vec %s_ref %d %s" % (label, np.asarray(ref).size, fmt(ref)))
        residuals.append((label, res))

    for f in frames:
        fid = model.getFrameId(f)
        M = pin.SE3.Random()
        add("placement_" + f, "placement", f, crocoddyl.ResidualModelFramePlacement(
            state, fid, M, nu), np.concatenate([M.translation, M.rotation.ravel()]))
        R = pin.SE3.Random().rotation
        add("rotation_" + f, "rotation", f, crocoddyl.ResidualModelFrameRotation(
            state, fid, R, nu), R.ravel())
        t = rng.uniform(-1.0, 1.0, 3)
        add("translation_" + f, "translation", f, crocoddyl.ResidualModelFrameTranslation(
            state, fid, t, nu), t)
        for sense in SENSES:
            w = rng.uniform(-1.0, 1.0, 6)
            add("velocity_%s_%s" % (sense, f), "velocity", f,
                crocoddyl.ResidualModelFrameVelocity(state, fid, pin.Motion(w),
                                                     getattr(pin.ReferenceFrame, sense), nu),
                w, sense)
    c = rng.uniform(-1.0, 1.0, 3)
    add("com", "com", "-", crocoddyl.ResidualModelCoMPosition(state, c, nu), c)
    lines = residual_lines(model, state, residuals, samples, rng, header)
    print("%s: %d residuals, %d samples" % (name, len(residuals), samples))
    return "\n".join(lines) + "\n"


# Crocoddyl's arm manipulation example (its examples/arm_manipulation.py): the Talos left arm
# (example-robot-data's talos_left_arm.urdf, welded), its gripper frame to a placement, Euler
# nodes of ARM_DT, armature 0.1 on all but the last joint, FDDP from x0 repeated and zero
# controls.
ARM = ("talos_arm_fddp", "talos_left_arm.urdf", "gripper_left_joint", 250)
ARM_DT = 1e-3
ARM_Q0 = (0.173046, 1.0, -0.52366, 0.0, 0.0, 0.1, -0.005)
ARM_TARGET = (0.0, 0.0, 0.4)
ARM_WEIGHTS = (1.0, 1e-4, 1e-4)  # gripper placement, state and control regularization


def generate_arm(name, urdf, frame, horizon):
    """FDDP on Crocoddyl's arm manipulation problem (ARM): `fddp_iterations`, `fddp_converged`,
    `vec fddp_cost`, `mat xs` ((T+1) × nx), `mat us` (T × nu), with the problem's data
    (`vec x0`, `vec armature`, `vec target`, `vec weights`, `vec dt`, `horizon`, `frame`)."""
    model = pin.buildModelFromUrdf(os.path.join(DATA, urdf))
    state = crocoddyl.StateMultibody(model)
    actuation = crocoddyl.ActuationModelFull(state)
    nu = actuation.nu
    target = pin.SE3(np.eye(3), np.array(ARM_TARGET))
    placement = crocoddyl.ResidualModelFramePlacement(state, model.getFrameId(frame), target, nu)
    armature = np.array([0.1] * (model.nv - 1) + [0.0])

    def node(terminal):
        costs = crocoddyl.CostModelSum(state, nu)
        costs.addCost("gripperPose", crocoddyl.CostModelResidual(state, placement), ARM_WEIGHTS[0])
        if not terminal:
            costs.addCost("xReg", crocoddyl.CostModelResidual(
                state, crocoddyl.ResidualModelState(state, nu)), ARM_WEIGHTS[1])
            costs.addCost("uReg", crocoddyl.CostModelResidual(
                state, crocoddyl.ResidualModelControl(state, nu)), ARM_WEIGHTS[2])
        dam = crocoddyl.DifferentialActionModelFreeFwdDynamics(state, actuation, costs)
        dam.armature = armature
        return crocoddyl.IntegratedActionModelEuler(dam, 0.0 if terminal else ARM_DT)

    x0 = np.concatenate([np.array(ARM_Q0), np.zeros(model.nv)])
    problem = crocoddyl.ShootingProblem(x0, [node(False)] * horizon, node(True))
    solver = crocoddyl.SolverFDDP(problem)
    converged = solver.solve([x0] * (horizon + 1), [np.zeros(nu)] * horizon, 100, False)
    lines = [
        "# Crocoddyl FDDP reference for the liedyn-Crocoddyl bridge (format: see the generator)",
        "meta generator python3 scripts/generate_crocoddyl_reference.py",
        "meta crocoddyl_version " + crocoddyl.__version__,
        "meta pinocchio_version " + pin.__version__,
        "meta date " + datetime.date.today().isoformat(),
        "meta urdf " + urdf,
        "meta problem Crocoddyl's examples/arm_manipulation.py: SolverFDDP, ActuationModelFull",
        "nq %d" % model.nq,
        "nv %d" % model.nv,
        "nu %d" % nu,
        "samples 0",
        "frame " + frame,
        "horizon %d" % horizon,
        "fddp_iterations %d" % solver.iter,
        "fddp_converged %d" % int(converged),
    ]
    for i in range(1, model.njoints):
        lines.append("joint %d %s %s" % (i, model.names[i], model.joints[i].shortname()))
    lines.append("vec dt 1 %r" % ARM_DT)
    lines.append("vec x0 %d %s" % (x0.size, fmt(x0)))
    lines.append("vec armature %d %s" % (armature.size, fmt(armature)))
    lines.append("vec target 3 %s" % fmt(ARM_TARGET))
    lines.append("vec weights 3 %s" % fmt(ARM_WEIGHTS))
    lines.append("vec fddp_cost 1 %r" % float(solver.cost))
    xs, us = np.array(solver.xs), np.array(solver.us)
    lines.append("mat xs %d %d %s" % (xs.shape[0], xs.shape[1], fmt(xs)))
    lines.append("mat us %d %d %s" % (us.shape[0], us.shape[1], fmt(us)))
    lines.append("end")
    print("%s: FDDP %d iterations, converged %s, cost %.12g" % (name, solver.iter, converged,
                                                               solver.cost))
    return "\n".join(lines) + "\n"


WALK = ("anymal_walk_fddp", "anymal.urdf", ("LF_FOOT", "RF_FOOT", "LH_FOOT", "RH_FOOT"))
WALK_PARAMETERS = (0.25, 0.15, 1e-2, 25, 2)  # step length, height, time step, step, support knots


def generate_walk(name, urdf, feet):
    """FDDP on Crocoddyl's quadrupedal walking problem (examples/quadrupedal_gaits.py, WALK):
    crocoddyl.utils.SimpleQuadrupedalGaitProblem's createWalkingProblem on ANYmal
    (example-robot-data's URDF, copied to tests/data; its SRDF's "standing" configuration in
    `vec q0`), solved as the example does: from x0 repeated and the problem's quasiStatic
    controls, 100 iterations at most, initial regularization 0.1. Records the problem's data
    (`vec walk`: WALK_PARAMETERS; `vec x0`; `vec state_lb`, `vec state_ub`: the state-bounds
    activation's bounds, in Crocoddyl's tangent order, as the problem slices StateMultibody's lb
    and ub), `nodes`, each running node's kind (`node K swing|impulse SUPPORT… - SWING…`: its
    contacts and the feet it tracks),
    each node's targets (`vec com_task.K`, `vec foot_target.K.FOOT`), and the solution:
    `fddp_iterations`, `vec fddp_cost`, `mat xs`, `vec us.K` (impulse nodes have no control)."""
    import example_robot_data
    from crocoddyl.utils.quadruped import SimpleQuadrupedalGaitProblem

    model = pin.buildModelFromUrdf(os.path.join(DATA, urdf), pin.JointModelFreeFlyer())
    anymal = example_robot_data.load("anymal")  # kept alive: the map's vectors are views into it
    q0 = np.array(anymal.model.referenceConfigurations["standing"], copy=True)
    model.referenceConfigurations["standing"] = q0
    gait = SimpleQuadrupedalGaitProblem(model, *feet, fwddyn=True)
    x0 = np.concatenate([q0, np.zeros(model.nv)])
    step_length, step_height, dt, step_knots, support_knots = WALK_PARAMETERS
    problem = gait.createWalkingProblem(x0, step_length, step_height, dt, step_knots,
                                        support_knots)
    solver = crocoddyl.SolverFDDP(problem)
    xs0 = [x0] * (problem.T + 1)
    us0 = problem.quasiStatic([x0] * problem.T)
    converged = solver.solve(xs0, us0, 100, False, 0.1)
    nv = model.nv
    lb = np.concatenate([gait.state.lb[1 : nv + 1], gait.state.lb[-nv:]])
    ub = np.concatenate([gait.state.ub[1 : nv + 1], gait.state.ub[-nv:]])
    lines = [
        "# Crocoddyl FDDP reference for the liedyn-Crocoddyl bridge (format: see the generator)",
        "meta generator python3 scripts/generate_crocoddyl_reference.py",
        "meta crocoddyl_version " + crocoddyl.__version__,
        "meta pinocchio_version " + pin.__version__,
        "meta date " + datetime.date.today().isoformat(),
        "meta urdf " + urdf,
        "meta problem Crocoddyl's SimpleQuadrupedalGaitProblem.createWalkingProblem (fwddyn, "
        "euler), SolverFDDP",
        "nq %d" % model.nq,
        "nv %d" % nv,
        "nu %d" % (nv - 6),
        "samples 0",
        "feet " + " ".join(feet),
        "nodes %d" % problem.T,
        "fddp_iterations %d" % solver.iter,
        "fddp_converged %d" % int(converged),
    ]
    for i in range(2, model.njoints):
        lines.append("joint %d %s %s" % (i, model.names[i], model.joints[i].shortname()))
    for k, m in enumerate(problem.runningModels):
        costs = (m.differential if hasattr(m, "differential") else m).costs.costs.todict()
        for n, item in costs.items():
            if n.endswith("_footTrack"):
                lines.append("vec foot_target.%d.%s 3 %s"
                             % (k, n[: -len("_footTrack")], fmt(item.cost.residual.reference)))
            if n == "comTrack":
                lines.append("vec com_task.%d 3 %s" % (k, fmt(item.cost.residual.reference)))
        swing = " ".join(n[: -len("_footTrack")] for n in costs if n.endswith("_footTrack"))
        if hasattr(m, "differential"):
            support = [model.frames[c.data().contact.id].name
                       for c in m.differential.contacts.contacts]
            lines.append("node %d swing %s - %s" % (k, " ".join(support), swing))
        else:
            support = [model.frames[c.data().impulse.id].name for c in m.impulses.impulses]
            lines.append("node %d impulse %s - %s" % (k, " ".join(support), swing))
    lines.append("vec walk 5 %s" % fmt(WALK_PARAMETERS))
    lines.append("vec q0 %d %s" % (q0.size, fmt(q0)))
    lines.append("vec x0 %d %s" % (x0.size, fmt(x0)))
    lines.append("vec state_lb %d %s" % (lb.size, fmt(lb)))
    lines.append("vec state_ub %d %s" % (ub.size, fmt(ub)))
    lines.append("vec fddp_cost 1 %r" % float(solver.cost))
    xs = np.array(solver.xs)
    lines.append("mat xs %d %d %s" % (xs.shape[0], xs.shape[1], fmt(xs)))
    for k, u in enumerate(solver.us):
        lines.append("vec us.%d %d %s" % (k, np.asarray(u).size, fmt(u)))
    lines.append("end")
    print("%s: %d nodes, FDDP %d iterations, converged %s, cost %.12g"
          % (name, problem.T, solver.iter, converged, solver.cost))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(DATA, "crocoddyl"))
    ap.add_argument("--samples", type=int, default=10)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, urdf, seed, with_armature, state_operations in ROBOTS:
        text = generate(name, urdf, seed, args.samples, with_armature, state_operations)
        with open(os.path.join(args.out, name + ".txt"), "w") as f:
            f.write(text)
    name, urdf, frame, horizon = ARM
    with open(os.path.join(args.out, name + ".txt"), "w") as f:
        f.write(generate_arm(name, urdf, frame, horizon))
    name, urdf, feet = WALK
    with open(os.path.join(args.out, name + ".txt"), "w") as f:
        f.write(generate_walk(name, urdf, feet))
    for name, urdf, seed, frames in RESIDUALS:
        pin.seed(seed)  # pin.SE3.Random's draws
        text = generate_residuals(name, urdf, seed, args.samples, frames)
        with open(os.path.join(args.out, name + ".txt"), "w") as f:
            f.write(text)
    for name, urdf, seed, frames, kind, sense, restitution in IMPULSES:
        text = generate_impulse(name, urdf, seed, args.samples, frames, kind, sense, restitution)
        with open(os.path.join(args.out, name + ".txt"), "w") as f:
            f.write(text)
    for name, urdf, seed, frames, kind, sense, gains, with_armature in CONTACTS:
        text = generate_contact(name, urdf, seed, args.samples, frames, kind, sense, gains,
                                with_armature)
        with open(os.path.join(args.out, name + ".txt"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
