#!/usr/bin/env python3
"""Writes the loading corpus of tests/test_loading.cpp (deterministic; rerun to regenerate):
* imperfect_inertias.urdf: the failure modes of real robot files: a trunk and a gripper whose
  principal moments violate the triangle inequality (by 9.1 % and 2.5 %), placeholder inertias
  (every diagonal entry 1e-6) on kilogram links, a camera link (fixed) violating the triangle
  inequality, an IMU placeholder (fixed), and a massless two-joint sensor chain.
* point_masses.urdf: 24 point masses of 0.018 kg (zero rotational inertia) at pseudo-random
  offsets from 1 mm to 0.3 m with random <inertial> rpy, on a chain and a branch.
"""
import math, os

HERE = os.path.dirname(os.path.abspath(__file__))


def inertial(mass, d, xyz="0 0 0", rpy="0 0 0", off=(0, 0, 0)):
    return (f'    <inertial>\n      <origin xyz="{xyz}" rpy="{rpy}"/>\n      <mass value="{mass}"/>\n'
            f'      <inertia ixx="{d[0]}" ixy="{off[0]}" ixz="{off[1]}" iyy="{d[1]}" iyz="{off[2]}" izz="{d[2]}"/>\n'
            f'    </inertial>\n')


def link(name, inner=""):
    return f'  <link name="{name}">\n{inner}  </link>\n'


def joint(name, kind, parent, child, xyz="0 0 0", axis="0 1 0"):
    lim = '    <limit lower="-2" upper="2" effort="20" velocity="10"/>\n' if kind == "revolute" else ""
    ax = f'    <axis xyz="{axis}"/>\n' if kind != "fixed" else ""
    return (f'  <joint name="{name}" type="{kind}">\n    <parent link="{parent}"/>\n    <child link="{child}"/>\n'
            f'    <origin xyz="{xyz}" rpy="0 0 0"/>\n{ax}{lim}  </joint>\n')


def imperfect():
    s = '<?xml version="1.0"?>\n<robot name="imperfect_inertias">\n'
    # Triangle inequality: 0.02 + 0.08 < 0.11 (excess 0.01, 9.09 % of 0.11).
    s += link("trunk", inertial(8.0, (0.02, 0.08, 0.11), xyz="0.01 0 0.02"))
    for leg, y in (("left", 0.1), ("right", -0.1)):
        s += joint(f"{leg}_hip", "revolute", "trunk", f"{leg}_thigh", xyz=f"0 {y} -0.05", axis="1 0 0")
        # Placeholder: 1e-6 on every diagonal entry of a 1.2 kg link.
        s += link(f"{leg}_thigh", inertial(1.2, (1e-6, 1e-6, 1e-6), xyz="0 0 -0.1"))
        s += joint(f"{leg}_knee", "revolute", f"{leg}_thigh", f"{leg}_shank", xyz="0 0 -0.2")
        s += link(f"{leg}_shank", inertial(0.6, (0.004, 0.004, 0.0005), xyz="0 0 -0.1", rpy="0.1 0.2 0.3"))
    # A gripper violating by 2.5 %: 0.01 + 0.01925 = 0.02925 < 0.03.
    s += joint("wrist", "revolute", "trunk", "gripper", xyz="0.3 0 0.1", axis="0 0 1")
    s += link("gripper", inertial(0.9, (0.01, 0.01925, 0.03), xyz="0.05 0 0", rpy="0.3 -0.2 0.5"))
    # A camera (fixed) violating the triangle inequality, an IMU (fixed) with a placeholder.
    s += joint("camera_joint", "fixed", "trunk", "camera", xyz="0.25 0 0.05")
    s += link("camera", inertial(0.3, (1e-4, 1e-4, 5e-4), xyz="0.01 0 0"))
    s += joint("imu_joint", "fixed", "trunk", "imu", xyz="0 0 0.03")
    s += link("imu", inertial(0.5, (1e-6, 1e-6, 1e-6)))
    # A massless sensor chain: two revolute joints, no <inertial>.
    s += joint("sensor_pan", "revolute", "trunk", "sensor_mount", xyz="0.2 0 0.15", axis="0 0 1")
    s += link("sensor_mount")
    s += joint("sensor_tilt", "revolute", "sensor_mount", "sensor_head", xyz="0 0 0.05")
    s += link("sensor_head")
    return s + "</robot>\n"


def point_masses():
    # A 32-bit linear congruential generator (Numerical Recipes constants): deterministic everywhere.
    state = [12345]

    def uniform():
        state[0] = (1664525 * state[0] + 1013904223) % 2**32
        return state[0] / 2**32

    s = '<?xml version="1.0"?>\n<robot name="point_masses">\n'
    s += link("base", inertial(2.0, (0.01, 0.012, 0.015)))
    parent = "base"
    for k in range(24):
        # Offsets of 1 mm to 0.3 m (log-uniform) in a random direction, random rpy.
        r = 10 ** (-3 + uniform() * math.log10(300))
        z, phi = 2 * uniform() - 1, 2 * math.pi * uniform()
        c = (r * math.sqrt(1 - z * z) * math.cos(phi), r * math.sqrt(1 - z * z) * math.sin(phi), r * z)
        rpy = tuple(math.pi * (2 * uniform() - 1) for _ in range(3))
        name = f"p{k}"
        # Links 0..15 form a chain, 16..23 hang from the base.
        p = parent if k < 16 else "base"
        axis = ("1 0 0", "0 1 0", "0 0 1")[k % 3]
        s += joint(f"j{k}", "revolute", p, name, xyz="0 0 0.05", axis=axis)
        s += link(name, inertial(0.018, (0, 0, 0), xyz="%.9g %.9g %.9g" % c, rpy="%.9g %.9g %.9g" % rpy))
        if k < 16:
            parent = name
    return s + "</robot>\n"


for fname, text in (("imperfect_inertias.urdf", imperfect()), ("point_masses.urdf", point_masses())):
    with open(os.path.join(HERE, fname), "w") as f:
        f.write(text)
