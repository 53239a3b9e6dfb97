#!/usr/bin/env python3
"""Pinocchio's model of a URDF as plain text records, for liedyn_bench_pinocchio.

    pinocchio_model.py ROBOT.urdf [--welded]
    pinocchio_model.py --generated STEM

Needs Pinocchio's Python bindings (`pip install pin`). Pinocchio's own URDF parser builds the
model (a free-flyer root joint unless --welded); --generated takes instead a model with
multi-DoF joints that scripts/generate_pinocchio_reference.py builds for the reference dumps
(STEM: one of its MODELS, e.g. talos_spherical; tests/data/pinocchio4/README.md describes them).
The benchmark rebuilds the same model, joint by joint and frame by frame, in its Pinocchio
translation unit (bench/side_by_side_pinocchio_model.hpp says why the parser runs in a process of
its own). Lines, numbers in %.17g:
    joint NAME TYPE PARENT R00..R22 px py pz ax ay az MASS cx cy cz I00..I22
    frame NAME PARENT_JOINT PARENT_FRAME TYPE R00..R22 px py pz
joints from index 1 (the universe excluded), frames from index 1; placements in the parent
joint's frame, inertias about the centre of mass.
"""
import os
import sys

import pinocchio as pin

SCRIPTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts")


def numbers(xs):
    return " ".join("%.17g" % float(x) for x in xs)


def placement(m):
    return numbers(list(m.rotation.flatten()) + list(m.translation))


def generated_model(stem):
    sys.path.insert(0, SCRIPTS)
    import generate_pinocchio_reference as reference

    builders = {name: build for name, build, _ in reference.MODELS}
    if stem not in builders:
        sys.exit("pinocchio_model.py: no generated model '%s' (known: %s)" % (stem, ", ".join(builders)))
    return builders[stem]()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--generated" and len(sys.argv) == 3:
        model = generated_model(sys.argv[2])
    else:
        urdf, welded = sys.argv[1], "--welded" in sys.argv[2:]
        model = pin.buildModelFromUrdf(urdf) if welded else pin.buildModelFromUrdf(urdf, pin.JointModelFreeFlyer())
    out = []
    for i in range(1, model.njoints):
        j = model.joints[i]
        axis = [0.0, 0.0, 0.0]
        if j.shortname() in ("JointModelRevoluteUnaligned", "JointModelPrismaticUnaligned"):
            axis = list(j.extract().axis)
        Y = model.inertias[i]
        out.append(f"joint {model.names[i]} {j.shortname()} {model.parents[i]} {placement(model.jointPlacements[i])}"
                   f" {numbers(axis)} {numbers([Y.mass])} {numbers(Y.lever)} {numbers(Y.inertia.flatten())}")
    for f in list(model.frames)[1:]:
        out.append(f"frame {f.name} {f.parentJoint} {f.parentFrame} {int(f.type)} {placement(f.placement)}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
