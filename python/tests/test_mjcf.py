"""The MJCF loaders from Python: the model and its <equality> constraints as in C++
(tests/test_mjcf.cpp checks both against MuJoCo), and their errors."""
import os

import numpy as np
import pytest

import liedyn
from conftest import DATA_DIR

MJCF = os.path.join(DATA_DIR, "mjcf")


def test_load_mjcf_file_and_string_give_the_same_model():
    path = os.path.join(MJCF, "go2.xml")
    model = liedyn.load_mjcf_file(path)
    assert model.nv == 18 and model.base_type == liedyn.BaseType.Moving
    with open(path) as f:
        same = liedyn.load_mjcf_string(f.read())
    assert same.nv == model.nv
    assert [same.body_name(i) for i in range(same.num_bodies)] == \
        [model.body_name(i) for i in range(model.num_bodies)]


def test_options_gravity_and_skip():
    opt = liedyn.MjcfOptions()
    assert opt.gravity is None
    opt.gravity = np.array([0.0, 0.0, -1.62])
    opt.unsupported = liedyn.UnsupportedElements.skip
    path = os.path.join(MJCF, "panda.xml")
    panda = liedyn.load_mjcf_file(path, opt)  # its tendon and joint equality skipped
    assert np.array_equal(panda.gravity, [0.0, 0.0, -1.62])
    assert panda.nv == 9
    with pytest.raises(liedyn.ModelError, match=r"line 263: <tendon><fixed> 'split'"):
        liedyn.load_mjcf_file(path)


def test_robot_with_equality_constraints():
    path = os.path.join(MJCF, "equality.xml")
    robot = liedyn.load_mjcf_robot_file(path)
    assert isinstance(robot, liedyn.MjcfRobot)
    with open(path) as f:
        assert liedyn.load_mjcf_robot_string(f.read()).constraints.dimension() == 27
    assert robot.constraints.size() == 7
    # The planar four-bar's connect keeps its two rows across the hinges (docs/loading.md).
    assert robot.constraints.dimension() == 2 + 3 + 6 + 6 + 1 + 3 + 6
    assert [c.name for c in robot.equality] == ["four_bar", "spatial", "loop", "equality3",
                                                "gear", "pin", "hold"]
    assert robot.equality[5].type == liedyn.ConstraintType.PointContact  # body2: the world
    assert robot.model.frame_id("four_bar/1") >= 0
    assert robot.qpos0.shape == (robot.model.num_joints,)
    assert robot.qpos0[robot.model.joint_id("crank") - 1] == 0.3
    # At qpos0 (s = 0, the torso where the file puts it) MuJoCo's compiler puts both sides of a
    # body-based connect, and of a weld without relpose, together (rows 0-1 and 5-10); the site
    # connect and the weld with an explicit relpose are not closed there.
    x = liedyn.neutral(robot.model)
    x.H = liedyn.SE3(np.eye(3), np.array([0.1, -0.2, 1.0]))  # the torso at its qpos0 pose
    data = liedyn.Data(robot.model)
    cd = liedyn.ConstraintData(robot.model, robot.constraints)
    liedyn.constraint_kinematics(robot.model, data, robot.constraints, cd, x)
    e = cd.position_error
    assert np.abs(e[0:2]).max() < 1e-15 and np.abs(e[5:11]).max() < 1e-15
    assert np.abs(e[2:5]).max() > 0.01
    assert cd.position_error[17] == pytest.approx(-0.02)  # the coupling's offset a0
    assert np.abs(cd.position_error[18:]).max() < 1e-15  # the world's side placed at qpos0


def test_errors_name_the_line():
    with pytest.raises(liedyn.ModelError, match="line 1: <equality><connect> needs "
                                                "load_mjcf_robot_file"):
        liedyn.load_mjcf_string("<mujoco><worldbody/><equality><connect body1='a'/>"
                                "</equality></mujoco>")
    with pytest.raises(liedyn.ModelError, match="no such file|cannot"):
        liedyn.load_mjcf_robot_file(os.path.join(MJCF, "missing.xml"))
