#!/usr/bin/env python3
"""LQR for Solo-12 at a standing state, designed on liedyn's exact Lie-group linearization.

This example uses no contacts: the generalized force tau = [base wrench; 12 joint torques] is the
input, the base wrench standing in for what the ground would supply (the robot is "held" at its
standing pose, like the aerial manipulator of examples/aerial_manipulator_lqr.cpp is held by its
rotors). For the robot standing on its feet -- point contacts, the constrained dynamics
linearized on the constraint manifold (linearize_reduced) -- see the C++ example
examples/standing_lqr.cpp and docs/constraints.md. Steps:
  1. load tests/data/solo12.urdf, standing state x* (base 0.3 m up, legs bent, at rest), the
     equilibrium input tau* = h(x*) (gravity compensation);
  2. A, B = liedyn.linearize(x*, tau*) with delta x = (eta, ds, dnu, dr), H = H* exp(eta^);
  3. LQR gain K from scipy.linalg.solve_continuous_are;
  4. closed loop tau = tau* - K (x (-) x*) on the nonlinear dynamics with liedyn's Lie-group
     semi-implicit Euler step from a perturbed start (base turned 25 degrees, moved 10 cm, joints off);
  5. a matplotlib PNG (Agg backend, headless) of the errors.

    python3 python/examples/solo12_lqr.py [--urdf tests/data/solo12.urdf] [--output solo12_lqr.png]
"""
import argparse
import os

import numpy as np
import scipy.linalg

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import liedyn  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urdf", default=os.path.join(HERE, "..", "..", "tests", "data", "solo12.urdf"))
    parser.add_argument("--output", default="solo12_lqr.png")
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()

    model = liedyn.load_urdf_file(args.urdf)
    data = liedyn.Data(model)
    nv, n = model.nv, model.num_joints

    # 1. Standing: hip abduction 0, hip flexion +-0.8, knee -+1.6 (front/hind legs mirror), at rest.
    x_star = liedyn.State(model)
    x_star.H = liedyn.SE3(np.eye(3), np.array([0.0, 0.0, 0.3]))
    for leg, sign in (("FL", 1), ("FR", 1), ("HL", -1), ("HR", -1)):
        x_star.s[model.joint_id(leg + "_HFE") - 1] = 0.8 * sign
        x_star.s[model.joint_id(leg + "_KFE") - 1] = -1.6 * sign
    tau_star = liedyn.bias_force(model, data, x_star).copy()  # h(x*) at rest: gravity only

    # 2. Continuous-time linearization (body twist): views of data.A, data.B, copied to keep.
    A, B = [np.array(a) for a in liedyn.linearize(model, data, x_star, tau_star)]
    assert np.allclose(data.ddq, 0.0, atol=1e-12), "x* is an equilibrium under tau*"

    # 3. LQR. The lower legs are light (M^-1 has large entries), so a velocity weight near the pose
    # weights would put closed-loop poles near 10^4 1/s, beyond what an explicit 1 ms step can
    # follow: velocities are weighted lightly and joint torques more than the base wrench
    # (fastest pole ~ 40 1/s).
    q_diag = np.concatenate([np.full(6, 100.0), np.full(n, 10.0), np.full(6, 1e-3), np.full(n, 1e-3)])
    r_diag = np.concatenate([np.full(6, 1.0), np.full(n, 100.0)])
    Q, R = np.diag(q_diag), np.diag(r_diag)
    P = scipy.linalg.solve_continuous_are(A, B, Q, R)
    K = np.linalg.solve(R, B.T @ P)
    closed = np.linalg.eigvals(A - B @ K)
    print(f"solo12: nv = {nv}, |A| = {np.linalg.norm(A):.3f}, closed-loop poles: slowest "
          f"{closed.real.max():.3f} 1/s, fastest |{np.abs(closed).max():.1f}| 1/s")

    # 4. Nonlinear closed loop from a perturbed start.
    eta0 = np.array([0.10, -0.05, 0.03, 0.25, -0.30, 0.35])
    eta0[3:] *= np.radians(25.0) / np.linalg.norm(eta0[3:])
    dx0 = np.concatenate([eta0, np.random.default_rng(1).uniform(-0.3, 0.3, n), np.zeros(nv)])
    x = liedyn.integrate(model, x_star, dx0)
    dt = 1e-3
    steps = int(round(args.seconds / dt))
    t = np.arange(steps + 1) * dt
    errors = np.empty((steps + 1, 2 * nv))
    for k in range(steps + 1):
        dx = liedyn.difference(model, x_star, x)  # (log(H*^-1 H), s - s*, nu - nu*, r - r*)
        errors[k] = dx
        if k == steps:
            break
        tau = tau_star - K @ dx
        x = liedyn.semi_implicit_euler_step(model, data, x, tau, dt)
    final = np.abs(errors[-1]).max()
    print(f"initial |dx|_inf = {np.abs(errors[0]).max():.3f}, after {args.seconds:.1f} s: {final:.2e}")
    if not final < 1e-3:
        raise SystemExit("the closed loop did not converge")

    # 5. The plot.
    fig, axes = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    axes[0].plot(t, np.degrees(np.linalg.norm(errors[:, 3:6], axis=1)), label="attitude |phi| (deg)")
    axes[0].plot(t, 100 * np.linalg.norm(errors[:, 0:3], axis=1), label="base position |rho| (cm)")
    axes[0].legend()
    axes[0].set_title("Solo-12 LQR on liedyn's Lie-group linearization (base error, eta = log(H*^-1 H))")
    axes[1].plot(t, errors[:, 6:6 + n])
    axes[1].set_ylabel("joint errors s - s* (rad)")
    axes[2].plot(t, np.linalg.norm(errors[:, nv:], axis=1))
    axes[2].set_ylabel("|velocity error|")
    axes[2].set_xlabel("time (s)")
    fig.tight_layout()
    fig.savefig(args.output, dpi=100)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
