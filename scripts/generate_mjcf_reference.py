#!/usr/bin/env python3
"""Reference data for tests/test_mjcf.cpp, computed by MuJoCo's own compiler and dynamics.

Usage (needs the `mujoco` package, version 4):
    python scripts/generate_mjcf_reference.py            # writes tests/data/mjcf/<model>.ref.txt

For each model in tests/data/mjcf/ (see MODELS) the script compiles the file with MuJoCo, with
the mesh geoms and mesh assets that need a file removed (those meshes are not in the repository;
every body whose inertia matters has an explicit <inertial>, so the compiled inertias are
unaffected; meshes given inline, as the cube's, are kept and give their bodies' inertias), and
writes:
  * per body: name, mass, ipos, iquat (w first), principal inertia, and the pose xpos, xquat at
    qpos0 (after mj_kinematics);
  * per joint: name, type, qposadr, dofadr, qpos0 (= ref), the world axis xaxis and anchor
    xanchor at qpos0, limited, range, armature;
  * per named site: its pose site_xpos, site_xmat (row-major) at qpos0;
  * for SEEDS random states (qpos, qvel, an applied force qfrc_applied, an acceleration qacc):
    the mass matrix (mj_fullM), the bias forces qfrc_bias, inverse dynamics qfrc_inverse of qacc
    (mj_inverse) and the forward-dynamics acceleration under qfrc_applied (mj_forward).
Contacts, constraints (limits, equality, friction loss), passive forces (springs, dampers) and
actuation are disabled, so that the dynamics are those of the rigid-body tree alone:
    M qacc + qfrc_bias = qfrc_applied.
For a model with <equality> constraints (EQUALITY_MODELS), also, with only the equality
constraints enabled (contacts, limits and friction loss disabled, dense Jacobian): at SEEDS random
configurations and at SEEDS configurations moved onto the constraint manifold by Gauss-Newton steps
on MuJoCo's own residual (|efc_pos| < 1e-13), the qpos, the residual efc_pos and the Jacobian efc_J
of the equality rows (row-major), and per equality the w component of MuJoCo's weld error
quaternion neg(q2) q1 relpose (1 for the others; its sign fixes the sign of the rotational rows).
Format: one quantity per line, "key value value ...", numbers with 17 significant digits.
"""
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

import mujoco
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "mjcf"
MODELS = ["go2", "panda", "h1", "features_free", "features_welded", "equality", "cassie", "cube"]
EQUALITY_MODELS = ["equality"]
SEEDS = 3


def strip_meshes(text):
    """The model text without mesh files: mesh geoms and <mesh> assets that need a file, and
    file-based textures, are removed; meshes given inline (vertex=, face=) are kept."""
    root = ET.fromstring(text)
    inline = {m.get("name") for m in root.iter("mesh") if m.get("vertex") and not m.get("file")}

    def walk(parent):
        for child in list(parent):
            if child.tag == "geom" and (child.get("mesh") or child.get("type") == "mesh") \
                    and child.get("mesh") not in inline:
                parent.remove(child)
                continue
            if (child.tag == "mesh" and child.get("name") not in inline) or child.tag == "hfield" \
                    or (child.tag == "texture" and child.get("file")):
                parent.remove(child)
                continue
            if child.tag == "material" and child.get("texture"):
                child.attrib.pop("texture")
            walk(child)

    walk(root)
    return ET.tostring(root, encoding="unicode")


def compile_model(name):
    path = DATA / f"{name}.xml"
    text = path.read_text()
    # <include> files are resolved by MuJoCo relative to the model: inline them here so that the
    # stripped text can be compiled from a string.
    def inline(match):
        inc = ET.fromstring((DATA / match.group(1)).read_text())
        return "".join(ET.tostring(c, encoding="unicode") for c in inc)

    text = re.sub(r'<include\s+file="([^"]+)"\s*/>', inline, text)
    return mujoco.MjModel.from_xml_string(strip_meshes(text))


def line(key, values):
    return key + " " + " ".join(f"{float(v):.17g}" for v in np.ravel(values)) + "\n"


def equality_rows(m, d, qpos):
    d.qpos[:] = qpos
    d.qvel[:] = 0
    mujoco.mj_forward(m, d)
    rows = d.efc_type[:d.nefc] == mujoco.mjtConstraint.mjCNSTR_EQUALITY
    return d.efc_pos[:d.nefc][rows].copy(), d.efc_J.reshape(d.nefc, m.nv)[rows].copy()


def weld_w(m, d):
    """Per equality, w of MuJoCo's weld error quaternion neg(q2) q1 relpose (1 if not a weld)."""
    w = np.ones(m.neq)
    for k in range(m.neq):
        if m.eq_type[k] != mujoco.mjtEq.mjEQ_WELD:
            continue
        if m.eq_objtype[k] == mujoco.mjtObj.mjOBJ_SITE:
            q1, q2, rel = np.zeros(4), np.zeros(4), np.array([1.0, 0, 0, 0])
            mujoco.mju_mat2Quat(q1, d.site_xmat[m.eq_obj1id[k]])
            mujoco.mju_mat2Quat(q2, d.site_xmat[m.eq_obj2id[k]])
        else:
            q1, q2, rel = d.xquat[m.eq_obj1id[k]], d.xquat[m.eq_obj2id[k]], m.eq_data[k, 6:10]
        q, neg, e = np.zeros(4), np.zeros(4), np.zeros(4)
        mujoco.mju_mulQuat(q, q1, rel)
        mujoco.mju_negQuat(neg, q2)
        mujoco.mju_mulQuat(e, neg, q)
        w[k] = e[0]
    return w


def equality_reference(m, rng):
    m.opt.disableflags |= (mujoco.mjtDisableBit.mjDSBL_CONTACT
                           | mujoco.mjtDisableBit.mjDSBL_LIMIT
                           | mujoco.mjtDisableBit.mjDSBL_FRICTIONLOSS)
    m.opt.jacobian = mujoco.mjtJacobian.mjJAC_DENSE
    d = mujoco.MjData(m)
    out = []
    for s in range(2 * SEEDS):
        qpos = m.qpos0.copy()
        # Smaller steps away from qpos0 for the projected ones: Gauss-Newton then stays near it.
        mujoco.mj_integratePos(m, qpos, rng.uniform(-0.5, 0.5, m.nv) * (0.4 if s >= SEEDS else 1),
                               1.0)
        if s >= SEEDS:  # Gauss-Newton onto the manifold, least-squares steps (redundant rows)
            for _ in range(200):
                r, J = equality_rows(m, d, qpos)
                if np.abs(r).max() < 1e-15:
                    break
                mujoco.mj_integratePos(m, qpos, -np.linalg.lstsq(J, r, rcond=None)[0], 1.0)
        r, J = equality_rows(m, d, qpos)
        if s >= SEEDS:
            assert np.abs(r).max() < 1e-13, r
        out += [f"equality {s}\n", line("qpos", qpos), line("efc_pos", r), line("efc_J", J),
                line("weld_w", weld_w(m, d))]
    return out


def generate(name):
    m = compile_model(name)
    m.opt.disableflags |= (mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
                           | mujoco.mjtDisableBit.mjDSBL_CONTACT
                           | mujoco.mjtDisableBit.mjDSBL_SPRING
                           | mujoco.mjtDisableBit.mjDSBL_DAMPER
                           | mujoco.mjtDisableBit.mjDSBL_ACTUATION)
    d = mujoco.MjData(m)
    out = [f"# {name}.xml compiled by MuJoCo {mujoco.__version__} "
           f"(scripts/generate_mjcf_reference.py)\n",
           f"sizes {m.nq} {m.nv} {m.nbody} {m.njnt}\n",
           line("gravity", m.opt.gravity)]
    d.qpos[:] = m.qpos0
    mujoco.mj_kinematics(m, d)
    for b in range(m.nbody):
        bname = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b) or f"body{b}"
        out.append(f"body {bname} " + line("", np.concatenate([
            [m.body_mass[b]], m.body_ipos[b], m.body_iquat[b], m.body_inertia[b],
            d.xpos[b], d.xquat[b]]))[1:])
    for j in range(m.njnt):
        jname = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, j) or f"joint{j}"
        adr = m.jnt_qposadr[j]
        dof = m.jnt_dofadr[j]
        out.append(f"joint {jname} {m.jnt_type[j]} {adr} {dof} " + line("", np.concatenate([
            [m.qpos0[adr]], d.xaxis[j], d.xanchor[j], [m.jnt_limited[j]], m.jnt_range[j],
            [m.dof_armature[dof]]]))[1:])
    for k in range(m.nsite):
        sname = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_SITE, k)
        if sname:
            out.append(f"site {sname} " + line("", np.concatenate([d.site_xpos[k],
                                                                    d.site_xmat[k]]))[1:])
    rng = np.random.default_rng(20261128)
    for s in range(SEEDS):
        qpos = m.qpos0.copy()
        for j in range(m.njnt):
            adr = m.jnt_qposadr[j]
            if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
                qpos[adr:adr + 3] = rng.uniform(-1, 1, 3)
                q = rng.normal(size=4)
                qpos[adr + 3:adr + 7] = q / np.linalg.norm(q)
            elif m.jnt_type[j] == mujoco.mjtJoint.mjJNT_BALL:
                q = rng.normal(size=4)
                qpos[adr:adr + 4] = q / np.linalg.norm(q)
            else:
                qpos[adr] += rng.uniform(-1, 1)
        qvel = rng.uniform(-1, 1, m.nv)
        tau = rng.uniform(-5, 5, m.nv)
        qacc = rng.uniform(-2, 2, m.nv)
        d.qpos[:], d.qvel[:], d.qfrc_applied[:] = qpos, qvel, tau
        d.ctrl[:] = 0
        mujoco.mj_forward(m, d)
        M = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, M)
        out += [f"state {s}\n", line("qpos", qpos), line("qvel", qvel), line("qfrc_applied", tau),
                line("M", M), line("qfrc_bias", d.qfrc_bias), line("qacc_forward", d.qacc)]
        d.qfrc_applied[:] = 0
        d.qacc[:] = qacc
        mujoco.mj_inverse(m, d)
        out += [line("qacc", qacc), line("qfrc_inverse", d.qfrc_inverse)]
    if name in EQUALITY_MODELS:
        out += equality_reference(compile_model(name), rng)
    (DATA / f"{name}.ref.txt").write_text("".join(out))
    print(f"{name}: nq {m.nq} nv {m.nv} nbody {m.nbody}")


if __name__ == "__main__":
    for n in sys.argv[1:] or MODELS:
        generate(n)
