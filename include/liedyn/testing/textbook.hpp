// liedyn — testing (test support, installed but not in <liedyn/liedyn.hpp>): textbook twins of the
// fast dynamics kernels: short, slow, plain 6×6-matrix transcriptions of Featherstone's Rigid Body
// Dynamics Algorithms (RBDA, 2008) — rnea (Table 5.1), crba (Table 6.2), aba (Table 7.1; floating
// base §9.3) — and what follows from them directly (bias, gravity and Coriolis terms; M⁻¹ as the
// inverse of this M). They are the ORACLE the tests hold rnea, eidamb, crba (both routes), aba and
// immamb to; the library never calls them. Each line's comment is the table line it implements,
// quoted in the book's symbols.
//
// Where liedyn's contract (docs/conventions.md §1–2) reads the book differently:
//  * LINEAR FIRST, v = [v_lin; ω], f = [force; moment]: crm(v) = v× and crf(v) = v×* = −(v×)ᵀ
//    are the book's crm/crf with the 3×3 blocks swapped;
//  * bodies 0..n, body 0 the base. A moving base is body 0 with a 6-DoF joint of motion subspace
//    S_0 = 1₆ (§9.3): velocity the body twist ν, acceleration ν̇, generalized force the base
//    wrench τ̄_b (base frame). A welded base has v_0 = 0 and no coordinates;
//  * gravity is the book's fictitious base acceleration a_0 = −a_g = ^0X_A (−[g; 0]);
//  * each body's quantities are in its own frame; ^iX_λ(i) (the book's X_J X_T(i)) is the 6×6
//    velocity transform of (^λH_i)⁻¹, ^λH_i = placement · X_J(q_i); forces go back with
//    ^λX*_i = (^iX_λ)ᵀ. A joint of k degrees of freedom has a 6 × k subspace S_i(q) in the child
//    frame and c_J = Ṡ_i q̇_i (RBDA §4.4; nonzero for the universal joint only): joint_terms;
//  * generalized vectors base first ([ν̇; ṙ], [τ̄_b; τ]), joint i's k entries from
//    model.v_index(i); external wrenches per body in its own frame (the book's ^iX*_0 f^x_i is
//    f^x_i); armature adds to each diagonal entry of H_ii and D_i, as in the fast kernels.
// These functions ALLOCATE (std::vector of 6×6 matrices, dense results) and need no Data.
#pragma once

#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "liedyn/algorithm/common.hpp"

namespace liedyn {
namespace textbook {

/// The motion cross-product matrix v× = [ω^, v_lin^; 0, ω^] of v = [v_lin; ω] (RBDA's crm).
template <class S>
Matrix6<S> crm(const Vector6<S>& v) {
  const Matrix3<S> w = hat(v.template tail<3>());
  Matrix6<S> X;
  X << w, hat(v.template head<3>()), Matrix3<S>::Zero(), w;
  return X;
}

/// The force cross-product matrix v×* = −(v×)ᵀ = [ω^, 0; v_lin^, ω^] (RBDA's crf).
template <class S>
Matrix6<S> crf(const Vector6<S>& v) {
  return -crm(v).transpose();
}

/// Joint i's motion X_J(q) (the child frame in the joint frame), its motion subspace S(q)
/// (6 × k, child frame) and c_J = Ṡ q̇ (RBDA §4.4), written from each type's definition in
/// docs/conventions.md §2 and built from the joint's data alone (Eigen's quaternion and
/// angle-axis rotations, SE3::exp for a screw): independent of Joint::transform, Γ and the joint
/// files' fast cases, which the fast kernels use. The one place that asks a joint's type: an
/// oracle restates each type's formulas rather than call the code it checks.
template <class S>
struct JointTerms {
  SE3<S> motion;
  Eigen::Matrix<S, 6, Eigen::Dynamic> subspace;
  Vector6<S> bias = Vector6<S>::Zero();
};
template <class S>
JointTerms<S> joint_terms(const Joint<S>& joint, const VectorX<S>& q, const VectorX<S>& qdot) {
  JointTerms<S> t;
  auto rotation_of = [](const S& x, const S& y, const S& z, const S& w) {
    return Eigen::Quaternion<S>(w, x, y, z).normalized().toRotationMatrix();
  };
  switch (joint.type) {
    case JointType::Spherical:  // q = (x, y, z, w), S = [0; 1₃]
      t.motion = SE3<S>(Matrix3<S>(rotation_of(q(0), q(1), q(2), q(3))), Vector3<S>::Zero());
      t.subspace = Eigen::Matrix<S, 6, 3>::Zero();
      t.subspace.template bottomRows<3>().setIdentity();
      break;
    case JointType::Free:  // q = (p, x, y, z, w), S = 1₆ (the body twist)
      t.motion =
          SE3<S>(Matrix3<S>(rotation_of(q(3), q(4), q(5), q(6))), Vector3<S>(q.template head<3>()));
      t.subspace = Matrix6<S>::Identity();
      break;
    case JointType::Planar: {  // q = (x, y, cos θ, sin θ), S = [e_x, e_y, 0; 0, 0, e_z]
      using std::sqrt;
      const S norm = sqrt(q(2) * q(2) + q(3) * q(3)), c = q(2) / norm, sn = q(3) / norm;
      Matrix3<S> R;
      R << c, -sn, S(0), sn, c, S(0), S(0), S(0), S(1);
      t.motion = SE3<S>(R, Vector3<S>(q(0), q(1), S(0)));
      t.subspace = Eigen::Matrix<S, 6, 3>::Zero();
      t.subspace(0, 0) = t.subspace(1, 1) = t.subspace(5, 2) = S(1);
      break;
    }
    case JointType::Universal: {  // R = R1(q1) R2(q2), S = [0, 0; R2ᵀ a1, a2]
      const Matrix3<S> R1 = Eigen::AngleAxis<S>(q(0), joint.axis).toRotationMatrix();
      const Matrix3<S> R2 = Eigen::AngleAxis<S>(q(1), joint.axis2).toRotationMatrix();
      t.motion = SE3<S>(Matrix3<S>(R1 * R2), Vector3<S>::Zero());
      const Vector3<S> a1_child = R2.transpose() * joint.axis;
      t.subspace = Eigen::Matrix<S, 6, 2>::Zero();
      t.subspace.col(0).template tail<3>() = a1_child;
      t.subspace.col(1).template tail<3>() = joint.axis2;
      // Ṡ q̇: d/dt (R2ᵀ a1) = (R2ᵀ a1) × a2 q̇2, times q̇1.
      t.bias.template tail<3>() = a1_child.cross(joint.axis2) * (qdot(0) * qdot(1));
      break;
    }
    // No default: a new type without its formulas here is a -Wswitch warning, not a silent screw.
    case JointType::Revolute:
    case JointType::Prismatic:
    case JointType::Helical:  // X_J = exp((Γ q)^), S = Γ
      t.motion = SE3<S>::exp(Vector6<S>(joint.screw.vector() * q(0)));
      t.subspace = joint.screw.vector();
      break;
  }
  return t;
}

/// joint_terms of every body (entry 0, the base: unused) at the joint positions s and rates r.
template <class S>
std::vector<JointTerms<S>> all_joint_terms(const Model<S>& model, const VectorX<S>& s,
                                           const VectorX<S>& r) {
  std::vector<JointTerms<S>> t(model.num_bodies());
  for (int i = 1; i < model.num_bodies(); ++i)
    t[i] = joint_terms(model.joint(i), VectorX<S>(s.segment(model.q_index(i), model.joint_nq(i))),
                       VectorX<S>(r.segment(model.r_index(i), model.joint_nv(i))));
  return t;
}

/// ^iX_λ(i) = X_J X_T(i) of every body, 6×6 velocity transforms (entry 0, the base: identity),
/// each joint's pose placement · X_J(q) from joint_terms.
template <class S>
std::vector<Matrix6<S>> parent_transforms(const Model<S>& model,
                                          const std::vector<JointTerms<S>>& terms) {
  std::vector<Matrix6<S>> X(model.num_bodies(), Matrix6<S>::Identity());
  for (int i = 1; i < model.num_bodies(); ++i)
    X[i] = (model.joint(i).placement * terms[i].motion).inverse().velocity_transform();
  return X;
}

/// −a_g in the base frame: the fictitious acceleration ^0X_A (−[g; 0]) of gravity at pose H.
template <class S>
Vector6<S> minus_gravity(const Model<S>& model, const SE3<S>& H) {
  Vector6<S> a;
  a << -model.gravity(), Vector3<S>::Zero();
  return H.inverse().velocity_transform() * a;
}

/// RBDA Table 5.1 (RNEA) with a given base acceleration −a_g (zero: no gravity): τ̄ for the
/// accelerations ddq = [ν̇; ṙ], base first.
template <class S>
VectorX<S> inverse_dynamics(const Model<S>& model, const State<S>& x, const VectorX<S>& ddq,
                            const Vector6<S>& minus_ag, const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("textbook::inverse_dynamics", model, x);
  LIEDYN_CHECK_SIZE("textbook::inverse_dynamics", "ddq", ddq, model.nv());
  detail::check_wrenches("textbook::inverse_dynamics", model, fext);
  const int nb = model.num_bodies();
  // Branches kept: an oracle of §9.3 verbatim, independent of the joint layer it checks.
  const bool moving = model.has_moving_base();
  const std::vector<JointTerms<S>> J = all_joint_terms(model, x.s, x.r);
  const std::vector<Matrix6<S>> X = parent_transforms(model, J);
  std::vector<Vector6<S>> v(nb), a(nb), f(nb);
  v[0] = moving ? x.nu : Vector6<S>(Vector6<S>::Zero());  // v_0 = 0 (§9.3: the base twist)
  a[0] = minus_ag;                                        // a_0 = −a_g
  if (moving) a[0] += ddq.template head<6>();             // §9.3: + S_0 q̈_0, S_0 = 1
  for (int i = 0; i < nb; ++i) {
    if (i > 0) {
      const int p = model.parent(i), k = model.joint_nv(i);
      const Vector6<S> vJ = J[i].subspace * x.r.segment(model.r_index(i), k);  // v_J = S_i q̇_i
      v[i] = X[i] * v[p] + vJ;  // v_i = ^iX_λ v_λ + v_J
      // a_i = ^iX_λ a_λ + S_i q̈_i + c_J + v_i × v_J
      a[i] = X[i] * a[p] + J[i].subspace * ddq.segment(model.v_index(i), k) + J[i].bias +
             crm(v[i]) * vJ;
    }
    const Matrix6<S> I = model.inertia(i).matrix();
    f[i] = I * a[i] + crf(v[i]) * I * v[i];  // f_i = I_i a_i + v_i ×* I_i v_i
    if (fext) f[i] -= (*fext)[i].vector();   //       − ^iX*_0 f^x_i
  }
  VectorX<S> tau(model.nv());
  for (int i = nb - 1; i >= 1; --i) {
    const int vi = model.v_index(i), k = model.joint_nv(i);
    tau.segment(vi, k) = J[i].subspace.transpose() * f[i]                 // τ_i = S_iᵀ f_i
                         + model.joint(i).armature * ddq.segment(vi, k);  // + armature_i q̈_i
    f[model.parent(i)] += X[i].transpose() * f[i];  // f_λ = f_λ + ^λX*_i f_i
  }
  if (moving) tau.template head<6>() = f[0];  // §9.3: τ̄_b = S_0ᵀ f_0
  return tau;
}

/// Inverse dynamics τ̄ = M ddq + h(x) − Σ J_iᵀ f_ext,i by RBDA Table 5.1; the twin of rnea
/// and eidamb.
template <class S>
VectorX<S> rnea(const Model<S>& model, const State<S>& x, const VectorX<S>& ddq,
                const ExternalWrenches<S>* fext = nullptr) {
  return inverse_dynamics(model, x, ddq, minus_gravity(model, x.H), fext);
}

/// The bias h(x) (and external wrenches) = rnea(x, 0); the twin of bias_force.
template <class S>
VectorX<S> bias_force(const Model<S>& model, const State<S>& x,
                      const ExternalWrenches<S>* fext = nullptr) {
  return rnea(model, x, VectorX<S>(VectorX<S>::Zero(model.nv())), fext);
}

/// The gravity term G = rnea at rest (ν = 0, r = 0, ddq = 0); the twin of gravity_force.
template <class S>
VectorX<S> gravity_force(const Model<S>& model, const State<S>& x) {
  State<S> rest = x;
  rest.nu.setZero();
  rest.r.setZero();
  return rnea(model, rest, VectorX<S>(VectorX<S>::Zero(model.nv())));
}

/// The Coriolis/centrifugal term V = rnea with a_g = 0 and ddq = 0; the twin of coriolis_force.
template <class S>
VectorX<S> coriolis_force(const Model<S>& model, const State<S>& x) {
  const VectorX<S> zero = VectorX<S>::Zero(model.nv());
  return inverse_dynamics(model, x, zero, Vector6<S>(Vector6<S>::Zero()));
}

/// The mass matrix M(s) (nv × nv, base first, armature on the diagonal) by RBDA Table 6.2,
/// composite inertias; a moving base is the 6-DoF joint S_0 = 1₆ (§9.3). The twin of crba.
template <class S>
MatrixX<S> crba(const Model<S>& model, const VectorX<S>& s) {
  LIEDYN_CHECK_SIZE("textbook::crba", "s", s, model.nq_joints());
  const int nb = model.num_bodies(), off = model.offset();
  const std::vector<JointTerms<S>> J =
      all_joint_terms(model, s, VectorX<S>(VectorX<S>::Zero(model.nv_joints())));
  const std::vector<Matrix6<S>> X = parent_transforms(model, J);
  std::vector<Matrix6<S>> Ic(nb);
  for (int i = 0; i < nb; ++i) Ic[i] = model.inertia(i).matrix();  // I^c_i = I_i
  MatrixX<S> H = MatrixX<S>::Zero(model.nv(), model.nv());         // H = 0
  for (int i = nb - 1; i >= 1; --i) {
    const int vi = model.v_index(i), ki = model.joint_nv(i);
    // if λ(i) ≠ 0 (a moving base is a body too): I^c_λ = I^c_λ + ^λX*_i I^c_i ^iX_λ
    Ic[model.parent(i)] += X[i].transpose() * Ic[i] * X[i];
    const Eigen::Matrix<S, 6, Eigen::Dynamic>& Si = J[i].subspace;
    Eigen::Matrix<S, 6, Eigen::Dynamic> F = Ic[i] * Si;  // F = I^c_i S_i
    H.block(vi, vi, ki, ki) = Si.transpose() * F;        // H_ii = S_iᵀ F
    H.block(vi, vi, ki, ki).diagonal().array() += model.joint(i).armature;
    for (int j = i; j != 0;) {   // while λ(j) ≠ 0
      F = X[j].transpose() * F;  //   F = ^λ(j)X*_j F
      j = model.parent(j);       //   j = λ(j)
      if (j > 0) {
        const int vj = model.v_index(j), kj = model.joint_nv(j);
        H.block(vi, vj, ki, kj) = F.transpose() * J[j].subspace;        //   H_ij = Fᵀ S_j
        H.block(vj, vi, kj, ki) = H.block(vi, vj, ki, kj).transpose();  //   H_ji = H_ijᵀ
      } else if (off > 0) {
        H.block(0, vi, 6, ki) = F;              //   H_0i = S_0ᵀ F, S_0 = 1
        H.block(vi, 0, ki, 6) = F.transpose();  //   H_i0 = H_0iᵀ
      }
    }
  }
  if (off > 0) H.template topLeftCorner<6, 6>() = Ic[0];  // H_00 = S_0ᵀ I^c_0 S_0
  return H;
}

/// M(s)⁻¹ as the inverse of this crba's M (dense Cholesky); the twin of immamb.
template <class S>
MatrixX<S> inverse_mass_matrix(const Model<S>& model, const VectorX<S>& s) {
  const MatrixX<S> M = crba(model, s);
  return M.llt().solve(MatrixX<S>::Identity(M.rows(), M.cols()));
}

/// Forward dynamics ddq = M⁻¹ (τ̄ + Σ J_iᵀ f_ext,i − h(x)) by RBDA Table 7.1 (ABA), with the
/// floating base of §9.3 (Table 9.5) for a moving base. The twin of aba.
template <class S>
VectorX<S> aba(const Model<S>& model, const State<S>& x, const VectorX<S>& tau,
               const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("textbook::aba", model, x);
  LIEDYN_CHECK_SIZE("textbook::aba", "tau", tau, model.nv());
  detail::check_wrenches("textbook::aba", model, fext);
  const int nb = model.num_bodies();
  // Branches kept: an oracle of §9.3 verbatim, independent of the joint layer it checks.
  const bool moving = model.has_moving_base();
  const std::vector<JointTerms<S>> J = all_joint_terms(model, x.s, x.r);
  const std::vector<Matrix6<S>> X = parent_transforms(model, J);
  std::vector<Vector6<S>> v(nb), c(nb), pA(nb), a(nb);
  std::vector<Matrix6<S>> IA(nb);
  std::vector<Eigen::Matrix<S, 6, Eigen::Dynamic>> U(nb);
  std::vector<MatrixX<S>> Dinv(nb);
  std::vector<VectorX<S>> u(nb);
  v[0] = moving ? x.nu : Vector6<S>(Vector6<S>::Zero());  // v_0 = 0 (§9.3: the base twist)
  c[0].setZero();
  for (int i = 0; i < nb; ++i) {
    if (i > 0) {
      const Vector6<S> vJ = J[i].subspace * x.r.segment(model.r_index(i), model.joint_nv(i));
      v[i] = X[i] * v[model.parent(i)] + vJ;  // v_i = ^iX_λ v_λ + v_J
      c[i] = J[i].bias + crm(v[i]) * vJ;      // c_i = c_J + v_i × v_J
    }
    IA[i] = model.inertia(i).matrix();  // I^A_i = I_i
    pA[i] = crf(v[i]) * IA[i] * v[i];   // p^A_i = v_i ×* I_i v_i − ^iX*_0 f^x_i
    if (fext) pA[i] -= (*fext)[i].vector();
  }
  for (int i = nb - 1; i >= 1; --i) {
    const int k = model.joint_nv(i);
    const Eigen::Matrix<S, 6, Eigen::Dynamic>& Si = J[i].subspace;
    U[i] = IA[i] * Si;                     // U_i = I^A_i S_i
    MatrixX<S> D = Si.transpose() * U[i];  // D_i = S_iᵀ U_i
    D.diagonal().array() += model.joint(i).armature;
    Dinv[i] = D.inverse();
    u[i] = tau.segment(model.v_index(i), k) - Si.transpose() * pA[i];  // u_i = τ_i − S_iᵀ p^A_i
    // if λ(i) ≠ 0 (a moving base is a body too):
    // I^a = I^A_i − U_i D_i⁻¹ U_iᵀ,  p^a = p^A_i + I^a c_i + U_i D_i⁻¹ u_i
    const Matrix6<S> Ia = IA[i] - U[i] * Dinv[i] * U[i].transpose();
    const Vector6<S> pa = pA[i] + Ia * c[i] + U[i] * (Dinv[i] * u[i]);
    IA[model.parent(i)] += X[i].transpose() * Ia * X[i];  // I^A_λ += ^λX*_i I^a ^iX_λ
    pA[model.parent(i)] += X[i].transpose() * pa;         // p^A_λ += ^λX*_i p^a
  }
  VectorX<S> ddq(model.nv());
  const Vector6<S> minus_ag = minus_gravity(model, x.H);
  if (moving) {
    // §9.3: a'_0 = (I^A_0)⁻¹ (τ̄_b − p^A_0), the base's acceleration with −a_g included.
    a[0] = IA[0].inverse() * (Vector6<S>(tau.template head<6>()) - pA[0]);
    ddq.template head<6>() = a[0] - minus_ag;  // a_0 = a'_0 + a_g
  } else {
    a[0] = minus_ag;  // a_0 = −a_g
  }
  for (int i = 1; i < nb; ++i) {
    const Vector6<S> ai = X[i] * a[model.parent(i)] + c[i];  // a'_i = ^iX_λ a_λ + c_i
    const int vi = model.v_index(i), k = model.joint_nv(i);
    ddq.segment(vi, k) = Dinv[i] * (u[i] - U[i].transpose() * ai);  // q̈_i = D_i⁻¹ (u_i − U_iᵀ a'_i)
    a[i] = ai + J[i].subspace * ddq.segment(vi, k);                 // a_i = a'_i + S_i q̈_i
  }
  return ddq;
}

}  // namespace textbook
}  // namespace liedyn
