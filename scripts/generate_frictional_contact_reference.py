#!/usr/bin/env python3
"""Writes tests/data/frictional_contact/pinocchio_admm.txt: Pinocchio 4.1's ADMMConstraintSolver
(with its De Saxcé correction, solve_ncp = True) on frictional contact problems (G, g, mu), for
tests/test_frictional_contact.cpp to compare liedyn's solvers with.

Run from the repository root, with a Python that has Pinocchio 4.1 (`pip install pin==4.1.0`):

    python3 scripts/generate_frictional_contact_reference.py [--out tests/data/frictional_contact]

The problems are built here with numpy (Pinocchio sees only G, g and the friction coefficients:
its point-contact constraint models on a one-body model serve only to declare the cones, normal
along the contact frame's z, the last component, as in liedyn). The format is described in
tests/data/frictional_contact/README.md. The script aborts (exit status 1) when Pinocchio's
solution fails the NCP's conditions, computed here with numpy, by more than CHECK_TOL:
  * cone: max_i max(0, |lambda_t| - mu lambda_n, -lambda_n);
  * dual cone of sigma = c + Gamma(c): max_i max(0, mu |c_t| - sigma_n);
  * complementarity: max_i |lambda_i . sigma_i| / |lambda|_inf.
"""
import argparse
import datetime
import os
import sys

import numpy as np
import pinocchio as pin

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMAT_VERSION = 1
# Pinocchio is run to 1e-12 (absolute and relative, feasibility and complementarity); it stops
# on its own residuals, which are not liedyn's: 1e-8 on the NCP conditions catches a wrong
# convention (a swapped normal, a sign), which gives errors of order one.
SOLVER_TOL = 1e-12
CHECK_TOL = 1e-8


def random_problem(nc, nv, seed, delta):
    """nc contacts on a random mechanism: M = A A^T + delta I, J random (3nc x nv)."""
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, (nv, nv))
    J = rng.uniform(-1, 1, (3 * nc, nv))
    M = A @ A.T + delta * np.eye(nv)
    G = J @ np.linalg.solve(M, J.T)
    G = 0.5 * (G + G.T)
    g = rng.uniform(-1, 1, 3 * nc)
    mu = rng.uniform(0.1, 1.0, nc)
    return G, g, mu


def cube_problem(theta, mu_value):
    """The cube of the C++ test: 2 kg, side 0.2 m, 4 corners on a plane inclined by theta, at
    rest before a step of 0.01 s; velocity coordinates [v; w] of the centre in the plane's axes."""
    mass, side, dt, gravity = 2.0, 0.2, 0.01, 9.81
    inertia = mass * side * side / 6
    M = np.diag([mass] * 3 + [inertia] * 3)
    h = side / 2
    rows = []
    for sx in (-1.0, 1.0):
        for sy in (-1.0, 1.0):
            r = np.array([sx * h, sy * h, -h])
            r_cross = np.array([[0, -r[2], r[1]], [r[2], 0, -r[0]], [-r[1], r[0], 0]])
            rows.append(np.hstack([np.eye(3), -r_cross]))
    J = np.vstack(rows)
    force = np.zeros(6)
    force[:3] = mass * gravity * np.array([np.sin(theta), 0, -np.cos(theta)])
    free = dt * np.linalg.solve(M, force)
    G = J @ np.linalg.solve(M, J.T)
    G = 0.5 * (G + G.T)
    return G, J @ free, np.full(4, mu_value)


def pinocchio_solve(G, g, mu):
    model = pin.Model()
    joint = model.addJoint(0, pin.JointModelFreeFlyer(), pin.SE3.Identity(), "body")
    model.appendBodyToJoint(joint, pin.Inertia.FromBox(1.0, 1.0, 1.0, 1.0), pin.SE3.Identity())
    models = pin.StdVec_ConstraintModel()
    for m in mu:
        contact = pin.PointContactConstraintModel(model, joint)
        contact.setFriction(float(m))
        models.append(pin.ConstraintModel(contact))
    datas = pin.StdVec_ConstraintData()
    for cm in models:
        datas.append(cm.createData())
    settings = pin.ADMMSolverSettings()
    settings.solve_ncp = True
    settings.max_iterations = 100000
    settings.absolute_feasibility_tol = SOLVER_TOL
    settings.relative_feasibility_tol = SOLVER_TOL
    settings.absolute_complementarity_tol = SOLVER_TOL
    settings.relative_complementarity_tol = SOLVER_TOL
    result = pin.ADMMSolverResult()
    solver = pin.ADMMConstraintSolver(len(g))
    solver.solve(pin.DelassusOperatorDense(G), g, models, datas, settings, result)
    lam = np.array(result.retrieveConstraintImpulses())
    return lam, bool(result.converged), int(result.iterations)


def ncp_violation(G, g, mu, lam):
    c = G @ lam + g
    scale = max(np.abs(lam).max(), np.finfo(float).tiny)
    cone = dual = comp = 0.0
    for i, m in enumerate(mu):
        l, ci = lam[3 * i:3 * i + 3], c[3 * i:3 * i + 3]
        sigma = ci + np.array([0, 0, m * np.linalg.norm(ci[:2])])
        cone = max(cone, np.linalg.norm(l[:2]) - m * l[2], -l[2])
        dual = max(dual, m * np.linalg.norm(sigma[:2]) - sigma[2])
        comp = max(comp, abs(l @ sigma) / scale)
    return float(max(cone, dual, comp))


def fmt(values):
    return " ".join(repr(float(v)) for v in np.ravel(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(REPO, "tests", "data", "frictional_contact"))
    args = parser.parse_args()
    if pin.__version__ != "4.1.0":
        sys.exit(f"generate_frictional_contact_reference: Pinocchio 4.1.0 needed, "
                 f"found {pin.__version__}")
    problems = [("cube_sticking", "cube, tan theta = 0.423 < mu = 0.6", *cube_problem(0.4, 0.6)),
                ("cube_sliding", "cube, tan theta = 0.423 > mu = 0.3", *cube_problem(0.4, 0.3))]
    for seed in (1, 2, 3):
        problems.append((f"random4_seed{seed}", "4 contacts, M = AA^T + I, nv = 18",
                         *random_problem(4, 18, seed, 1.0)))
    for seed in (1, 2):
        problems.append((f"random8_illcond_seed{seed}", "8 contacts, M = AA^T + 0.01 I, nv = 24",
                         *random_problem(8, 24, seed, 0.01)))
    lines = [
        f"# Pinocchio ADMMConstraintSolver reference, format version {FORMAT_VERSION} "
        "(see README.md beside this file)",
        f"meta format_version {FORMAT_VERSION}",
        f"meta pinocchio_version {pin.__version__}",
        f"meta numpy_version {np.__version__}",
        "meta generator python3 scripts/generate_frictional_contact_reference.py",
        f"meta date {datetime.date.today().isoformat()}",
        f"meta solver_tolerance {SOLVER_TOL!r}",
    ]
    for name, description, G, g, mu in problems:
        lam, converged, iterations = pinocchio_solve(G, g, mu)
        violation = ncp_violation(G, g, mu, lam)
        print(f"{name}: converged {converged}, {iterations} iterations, NCP violation "
              f"{violation:.2e}")
        if not converged or not violation <= CHECK_TOL:
            sys.exit(f"generate_frictional_contact_reference: {name}: Pinocchio's solution fails "
                     f"the NCP check ({violation:.2e} > {CHECK_TOL})")
        lines += [f"problem {name} {len(mu)}", f"description {description}", f"mu {fmt(mu)}",
                  f"G {fmt(G)}", f"g {fmt(g)}", f"lambda {fmt(lam)}",
                  f"velocity {fmt(G @ lam + g)}",
                  f"pinocchio_iterations {iterations}", f"ncp_violation {float(violation)!r}", "end"]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "pinocchio_admm.txt"), "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
