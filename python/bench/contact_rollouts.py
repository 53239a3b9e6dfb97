#!/usr/bin/env python3
"""States per second of rollouts with frictional contacts: liedyn's batch_rollout on a
ContactBatchWorkspace against mujoco.rollout, on one Solo-12 MJCF model, in one process
(docs/frictional-contacts.md).

The MJCF model is written here from tests/data/solo12.urdf (its meshes are not in the repository):
the URDF's bodies, joints and inertias, a free joint on the base, a sphere of radius --radius at
each foot frame (the only collision geometry), a ground plane, a motor on each joint. liedyn loads
that same file (load_mjcf_robot_string) and puts a sphere contact of the same radius and friction
at each foot frame. Both start from the same standing states (feet on the ground, random joint
velocities) and run the same open-loop torques (random, small) for K steps of --dt.

The two are not the same physics: MuJoCo's contacts are soft (its solref/solimp defaults) with an
elliptic cone here and its Newton solver; liedyn's are hard (ADMM on the Delassus problem, the
Signorini-Coulomb NCP). The comparison is of throughput on the same model and task.

The two sides alternate, --rounds times; the medians and the spread (min, max) are printed, with
1 and 2 threads each.

    PYTHONPATH=build/release/python python3 python/bench/contact_rollouts.py \\
        --urdf tests/data/solo12.urdf --states 4096 --steps 100
"""
import argparse
import math
import statistics
import time
import xml.etree.ElementTree as ET

import numpy as np

import liedyn

FEET = ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT")


def floats(text, default="0 0 0"):
    return [float(v) for v in (text or default).split()]


def rpy_matrix(rpy):
    """URDF's roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll)."""
    (cr, sr), (cp, sp), (cy, sy) = ((math.cos(v), math.sin(v)) for v in rpy)
    Rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    Ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    Rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return Rz @ Ry @ Rx


def urdf_to_mjcf(urdf_path, radius, friction, dt):
    """The URDF's tree as MJCF text (URDF rpy is extrinsic X-Y-Z: eulerseq="XYZ")."""
    root = ET.parse(urdf_path).getroot()
    links = {l.get("name"): l for l in root.findall("link")}
    children = {}
    for j in root.findall("joint"):
        children.setdefault(j.find("parent").get("link"), []).append(j)
    base = next(n for n in links if all(j.find("child").get("link") != n
                                        for j in root.findall("joint")))
    motors = []

    def inertial(link):
        i = link.find("inertial")
        if i is None:
            return ""
        o = i.find("origin")
        xyz = floats(o.get("xyz") if o is not None else None)
        rpy = floats(o.get("rpy") if o is not None else None)
        a = {k: float(v) for k, v in i.find("inertia").attrib.items()}
        inertia = np.array([[a["ixx"], a["ixy"], a["ixz"]], [a["ixy"], a["iyy"], a["iyz"]],
                            [a["ixz"], a["iyz"], a["izz"]]])
        R = rpy_matrix(rpy)  # MJCF's fullinertia takes no orientation: rotate it here
        inertia = R @ inertia @ R.T
        full = " ".join(repr(float(inertia[r, c])) for r, c in ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)))
        return (f'<inertial pos="{" ".join(map(repr, xyz))}" '
                f'mass="{i.find("mass").get("value")}" fullinertia="{full}"/>')

    def body(name, joint):
        out = []
        if joint is None:
            out.append(f'<body name="{name}" pos="0 0 0.3"><freejoint name="root"/>')
        else:
            o = joint.find("origin")
            xyz = floats(o.get("xyz") if o is not None else None)
            rpy = floats(o.get("rpy") if o is not None else None)
            out.append(f'<body name="{name}" pos="{" ".join(map(repr, xyz))}" '
                       f'euler="{" ".join(map(repr, rpy))}">')
            if joint.get("type") in ("revolute", "continuous"):
                axis = floats(joint.find("axis").get("xyz") if joint.find("axis") is not None
                              else "1 0 0")
                out.append(f'<joint name="{joint.get("name")}" type="hinge" '
                           f'axis="{" ".join(map(repr, axis))}"/>')
                motors.append(joint.get("name"))
            elif joint.get("type") != "fixed":
                raise ValueError(f"joint type {joint.get('type')} not handled")
        out.append(inertial(links[name]))
        if name in FEET:
            out.append(f'<geom type="sphere" size="{radius!r}" friction="{friction!r} 0 0" '
                       f'contype="1" conaffinity="1" condim="3"/>')
        for j in children.get(name, []):
            out.append(body(j.find("child").get("link"), j))
        out.append("</body>")
        return "\n".join(out)

    tree = body(base, None)
    actuators = "\n".join(f'<motor joint="{n}" gear="1"/>' for n in motors)
    return f"""<mujoco model="solo12_contacts">
  <compiler angle="radian" eulerseq="XYZ" autolimits="true"/>
  <option timestep="{dt!r}" integrator="Euler" cone="elliptic"/>
  <default><geom contype="0" conaffinity="0"/></default>
  <worldbody>
    <geom name="ground" type="plane" size="0 0 1" contype="1" conaffinity="1" friction="{friction!r} 0 0"/>
    {tree}
  </worldbody>
  <actuator>
    {actuators}
  </actuator>
</mujoco>"""


def standing_states(model, n, seed, radius):
    """n standing states (HFE 0.8, KFE -1.6, the foot spheres on the ground), joint velocities
    uniform in [-0.5, 0.5] rad/s."""
    data = liedyn.Data(model)
    x = liedyn.State(model)
    for i in range(1, model.num_bodies):  # Solo's joints are 1-DoF: s and r share the index
        name, j = model.joint_name(i), model.v_index(i) - model.offset
        if "HFE" in name:
            x.s[j] = 0.8
        if "KFE" in name:
            x.s[j] = -1.6
    heights = [liedyn.frame_pose(model, data, x, f).translation[2] for f in FEET]
    x.H = liedyn.SE3(np.eye(3), np.array([0.0, 0.0, radius - float(np.mean(heights))]))
    rng = np.random.default_rng(seed)
    xs = []
    for _ in range(n):
        y = x.copy()
        y.r[:] = rng.uniform(-0.5, 0.5, model.nv - model.offset)
        xs.append(y)
    return xs


def mujoco_states(mujoco, mj_model, model, xs):
    """liedyn States as MuJoCo full-physics states (qpos [p; quat wxyz; hinges], qvel [world-frame
    linear velocity of the base origin; body-frame angular velocity; hinges])."""
    d = mujoco.MjData(mj_model)
    size = mujoco.mj_stateSize(mj_model, mujoco.mjtState.mjSTATE_FULLPHYSICS)
    out = np.empty((len(xs), size))
    for k, x in enumerate(xs):
        d.qpos[:] = 0
        d.qvel[:] = 0
        R, p = x.H.rotation, x.H.translation
        d.qpos[0:3] = p
        quat = np.empty(4)
        mujoco.mju_mat2Quat(quat, R.flatten())
        d.qpos[3:7] = quat
        d.qvel[0:3] = R @ x.nu[0:3]
        d.qvel[3:6] = x.nu[3:6]
        for i in range(1, model.num_bodies):
            j = mj_model.joint(model.joint_name(i))
            d.qpos[j.qposadr[0]] = x.s[model.v_index(i) - model.offset]
            d.qvel[j.dofadr[0]] = x.r[model.v_index(i) - model.offset]
        mujoco.mj_getState(mj_model, d, out[k], mujoco.mjtState.mjSTATE_FULLPHYSICS)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--urdf", default="tests/data/solo12.urdf")
    ap.add_argument("--states", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--dt", type=float, default=1e-3)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--radius", type=float, default=0.0175)
    ap.add_argument("--friction", type=float, default=0.8)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--solver", choices=["admm", "pgs"], default="admm")
    args = ap.parse_args()

    import mujoco
    import mujoco.rollout

    xml = urdf_to_mjcf(args.urdf, args.radius, args.friction, args.dt)
    mj_model = mujoco.MjModel.from_xml_string(xml)
    robot = liedyn.load_mjcf_robot_string(xml)
    model = robot.model
    N, K = args.states, args.steps
    contacts = [liedyn.ContactPointSpec.on_frame(f, liedyn.ContactPlane.ground(), args.friction,
                                                 np.zeros(3), args.radius) for f in FEET]
    settings = liedyn.ContactStepSettings()
    settings.solver = liedyn.ContactSolver.Pgs if args.solver == "pgs" else liedyn.ContactSolver.Admm
    xs = standing_states(model, N, 1, args.radius)
    X = liedyn.batch_states(model, xs)
    torques = np.random.default_rng(2).uniform(-0.3, 0.3, (N, K, model.nv - model.offset))
    controls = np.zeros((N, K, model.nv))
    controls[:, :, 6:] = torques
    # MuJoCo's actuators in the order written, which is liedyn's joint order: check it.
    assert [mj_model.actuator(a).name or mj_model.joint(mj_model.actuator_trnid[a, 0]).name
            for a in range(mj_model.nu)] == [model.joint_name(i) for i in range(1, model.num_bodies)]
    mj_initial = mujoco_states(mujoco, mj_model, model, xs)
    mj_controls = torques

    print(f"Solo-12 (MJCF from {args.urdf}), {N} rollouts x {K} steps of {args.dt} s, "
          f"4 foot spheres r = {args.radius} m, mu = {args.friction}; liedyn {args.solver}, "
          f"mujoco {mujoco.__version__}")
    results = {}
    for threads in args.threads:
        ws = liedyn.ContactBatchWorkspace(model, contacts, threads)
        mj_data = [mujoco.MjData(mj_model) for _ in range(threads)]
        liedyn_times, mujoco_times = [], []
        out = None
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            out = liedyn.batch_rollout(model, ws, X, controls, args.dt, settings)
            liedyn_times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            state, _ = mujoco.rollout.rollout(mj_model, mj_data, mj_initial, mj_controls,
                                              persistent_pool=threads > 1)
            mujoco_times.append(time.perf_counter() - t0)
        if threads > 1:
            mujoco.rollout.shutdown_persistent_pool()
        assert out is not None
        results[threads] = out.states
        for name, times in (("liedyn", liedyn_times), ("mujoco", mujoco_times)):
            rates = [N * K / t for t in times]
            print(f"  {name:7s} threads={threads}: median {statistics.median(rates):,.0f} "
                  f"states/s (min {min(rates):,.0f}, max {max(rates):,.0f}; {args.rounds} runs)")
        conv = out.converged.mean()
        print(f"  liedyn: {100 * conv:.2f}% of steps converged, median "
              f"{int(np.median(out.iterations))} solver iterations, mean active contacts "
              f"{out.active_contacts.mean():.2f}")
        # The two simulations side by side (soft and hard contacts differ): the base position
        # after K steps (MuJoCo's full-physics state is [time; qpos; qvel; ...]).
        gap = np.linalg.norm(out.states[:, K, 9:12] - state[:, -1, 1:4], axis=1)
        print(f"  base position after {K} steps, liedyn - mujoco: median {np.median(gap):.2e} m, "
              f"max {gap.max():.2e} m")
    if len(results) > 1:
        first = results[args.threads[0]]
        same = all(np.array_equal(first, r) for r in results.values())
        print(f"  liedyn states identical across thread counts: {same}")


if __name__ == "__main__":
    main()
