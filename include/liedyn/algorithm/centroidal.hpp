// liedyn — algorithm: the centre of mass and the centroidal dynamics of a moving-base (or
// welded-base) tree, with their derivatives with respect to the state.
//
// Frames (docs/centroidal.md):
//   * CoM position p_com: in the inertial frame A (ComFrame::Inertial), or ^0p_com, relative to
//     the base origin in the base axes (ComFrame::Base). CoM velocity, acceleration and Jacobian
//     are those of the motion relative to A — ṗ_com, p̈_com, J_com with ṗ_com = J_com ν̄ —
//     expressed in A's axes (Inertial) or in the base axes (Base: Rᵀ ṗ_com, Rᵀ J_com with
//     R = ^A R_0). The Base velocity is NOT d/dt ^0p_com, which differs by the base's own motion.
//   * Centroidal momentum h_G = [m ṗ_com; k_G], linear first: the whole robot's momentum in the
//     centroidal frame G — origin at the CoM, axes those of A (Pinocchio's ccrba convention) —
//     so k_G is the angular momentum about the CoM. h_G = A_G ν̄ with ν̄ = [ν; r] (body base
//     twist, base first; r alone for a welded base) and the centroidal momentum matrix A_G
//     (6 × nv). ḣ_G = A_G q̈ + Ȧ_G ν̄ with q̈ = [ν̇; ṙ]; Ȧ_G ν̄ is the drift (q̈ = 0).
//   * Newton–Euler of the whole robot: ḣ_G = [m g; 0] + Σ (external wrenches, incl. the base
//     wrench τ̄_b of a moving base, carried to G). Gravity has no moment about the CoM.
//
// How: in the base frame 0 the whole robot's momentum is h_0 = Σ_i ^0X*_i I_i v_i and the rate
// of its inertial momentum f_0 = Σ_i ^0X*_i (I_i a_i + v_i ×̄* I_i v_i) (RNEA's base-frame total
// wrench without gravity). With c = ^0p_com and R = ^A R_0, both carry to G by the wrench
// transform Φ f = [R f_lin; R (f_ang − c × f_lin)]; d/dt of the transform adds ṗ_com × m ṗ_com
// = 0 to the moment, so ḣ_G = Φ f_0. Only R enters, never the base position.
//
// Derivatives (centroidal_derivatives): columns follow the state tangent δx = (η, δs, δt, δr)
// of linearization.hpp (δt the base twist in the chosen representation; welded base (δs, δr)),
// H = H̄ exp(η^). Computed from the base-frame ("ground") composites of eidamb_derivatives'
// pass: with S_k, V_k, u_k = S_k × V_λ(k) in frame 0 and subtree composites I^c_k, h^c_k,
// F^c_k, B^c_k,
//   ∂h_0/∂s_k = S_k ×̄* h^c_k − I^c_k u_k,   ∂h_0/∂r_k = I^c_k S_k,   ∂h_0/∂ν = I^c_0,
//   ∂(m c)/∂s_k = ω_k × (m c)^c_k + m^c_k v_k   (S_k = [v_k; ω_k]),
// and for ḣ_G = Φ F^c_0 + [m g; 0] (F^c_0 with gravity as the base acceleration) the base rows
// of ∂ĪD/∂x (eidamb_derivatives.hpp): P_k, Q_k per joint, I^c_0 ad(a_g0) for η, I^c_0 ν× +
// (·×̄* h^c_0) + B^c_0 for ν. The η columns also rotate Φ: ∂(R x)/∂φ = −R x^.
//
// Data written: data.kinematics and, by function, data.inverse_dynamics, tau (drift and rate: an
// RNEA pass), data.derivatives (matrix, derivatives), M, tau (derivatives: the derivative pass)
// and the outputs data.centroidal.matrix, com_jacobian, com_dx, momentum_dx, rate_dx. No
// allocation. Cost O(n) (O(n·d) for the derivatives, d the tree depth).
#pragma once

#include "liedyn/algorithm/eidamb_derivatives.hpp"
#include "liedyn/algorithm/kinematics.hpp"
#include "liedyn/algorithm/rnea.hpp"

namespace liedyn {

/// The frame of centre-of-mass quantities: Inertial (A's origin and axes) or Base (the base's
/// origin and axes for the position; for velocity, acceleration and Jacobian the motion
/// relative to A expressed in the base axes). See centroidal.hpp.
enum class ComFrame { Inertial, Base };

namespace detail {

// Total mass and first mass moment Σ m_i ^0p_i (base frame) from data.kinematics.H_base.
template <class S>
void base_frame_mass_moment(const Model<S>& model, const Data<S>& data, S& mass,
                            Vector3<S>& moment) {
  mass = S(0);
  moment.setZero();
  for (int i = 0; i < model.num_bodies(); ++i) {
    const SpatialInertia<S>& I = model.inertia(i);
    const SE3<S>& X = data.kinematics.H_base[i];
    mass += I.mass();
    moment += X.rotation() * I.first_moment() + I.mass() * X.translation();
  }
  LIEDYN_CHECK(mass > S(0), "liedyn: centroidal: the model has no mass");
}

// Φ f: a base-frame wrench (about the base origin) carried to the centroidal frame G.
template <class S>
Vector6<S> base_to_centroidal(const Matrix3<S>& R, const Vector3<S>& c, const Vector6<S>& f) {
  const Vector3<S> l = f.template head<3>();
  Vector6<S> out;
  out << R * l, R * (Vector3<S>(f.template tail<3>()) - c.cross(l));
  return out;
}

// CoM position ^0p_com from data.kinematics.H_base.
template <class S>
Vector3<S> base_frame_com(const Model<S>& model, const Data<S>& data) {
  S mass;
  Vector3<S> moment;
  base_frame_mass_moment(model, data, mass, moment);
  return moment / mass;
}

}  // namespace detail

/// Centre-of-mass position at the joint positions and base pose of x: p_com in A (Inertial) or
/// ^0p_com relative to the base (Base). Writes data.kinematics.H_parent, data.kinematics.H_base.
template <class S>
Vector3<S> center_of_mass(const Model<S>& model, Data<S>& data, const State<S>& x,
                          ComFrame frame = ComFrame::Inertial) {
  detail::check_state("center_of_mass", model, x);
  detail::check_data_pairing("center_of_mass", model, data);
  detail::update_poses(model, data, x.s);
  const Vector3<S> c = detail::base_frame_com(model, data);
  if (frame == ComFrame::Base) return c;
  const SE3<S>& H = base_pose(model, x);
  return H.rotation() * c + H.translation();
}

/// Centroidal momentum h_G = [m ṗ_com; k_G] in the centroidal frame (CoM origin, inertial
/// axes), linear first. Writes data.kinematics.H_parent, data.kinematics.H_base, data.kinematics.v,
/// data.kinematics.vJ.
template <class S>
Vector6<S> centroidal_momentum(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("centroidal_momentum", model, x);
  detail::check_data_pairing("centroidal_momentum", model, data);
  detail::update_poses(model, data, x.s);
  forward_velocity(model, data, x);
  Vector6<S> h0 = Vector6<S>::Zero();
  for (int i = 0; i < model.num_bodies(); ++i)
    h0 += data.kinematics.H_base[i].act(model.inertia(i) * data.kinematics.v[i]).vector();
  const Vector3<S> c = detail::base_frame_com(model, data);
  return detail::base_to_centroidal(base_pose(model, x).rotation(), c, h0);
}

/// CoM velocity ṗ_com (relative to A), in A's axes (Inertial) or the base axes (Base).
template <class S>
Vector3<S> center_of_mass_velocity(const Model<S>& model, Data<S>& data, const State<S>& x,
                                   ComFrame frame = ComFrame::Inertial) {
  const Vector6<S> h = centroidal_momentum(model, data, x);
  const Vector3<S> v = h.template head<3>() / model.total_mass();
  return frame == ComFrame::Base ? Vector3<S>(base_pose(model, x).rotation().transpose() * v) : v;
}

/// The centroidal momentum matrix A_G (6 × nv, h_G = A_G ν̄; Pinocchio's ccrba), into
/// data.centroidal.matrix. Column j: the momentum, in the centroidal frame, of a unit velocity
/// of coordinate j. Writes data.kinematics.H_parent, data.kinematics.H_base, data.derivatives.Ic.
template <class S>
const Matrix6X<S>& centroidal_momentum_matrix(const Model<S>& model, Data<S>& data,
                                              const State<S>& x) {
  detail::check_state("centroidal_momentum_matrix", model, x);
  detail::check_data_pairing("centroidal_momentum_matrix", model, data);
  detail::update_poses(model, data, x.s);
  const int nb = model.num_bodies(), off = model.offset();
  data.derivatives.Ic[0] = model.inertia(0);
  for (int i = 1; i < nb; ++i)
    data.derivatives.Ic[i] = model.inertia(i).transformed(data.kinematics.H_base[i]);
  for (int i = nb - 1; i >= 1; --i) data.derivatives.Ic[model.parent(i)] += data.derivatives.Ic[i];
  const SpatialInertia<S>& I0 = data.derivatives.Ic[0];
  LIEDYN_CHECK(I0.mass() > S(0), "liedyn: centroidal_momentum_matrix: the model has no mass");
  const Vector3<S> c = I0.first_moment() / I0.mass();
  const Matrix3<S>& R = base_pose(model, x).rotation();
  Matrix6X<S>& A = data.centroidal.matrix;
  if (off > 0) {
    const Matrix6<S> I0m = I0.matrix();
    for (int m = 0; m < 6; ++m) A.col(m) = detail::base_to_centroidal(R, c, Vector6<S>(I0m.col(m)));
  }
  // Joint k's columns: Φ I^c_k S_k, S_k = ^0X_k Γ_k(q_k) (n_k columns, base frame).
  for (int k = 1; k < nb; ++k) {
    const int n = model.joint_nv(k), vk = model.v_index(k);
    Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> Sk(6, n);
    model.joint(k).subspace_in(data.kinematics.H_base[k],
                               x.s.segment(model.q_index(k), model.joint_nq(k)), Sk);
    for (int a = 0; a < n; ++a)
      A.col(vk + a) = detail::base_to_centroidal(
          R, c, (data.derivatives.Ic[k] * Motion<S>(Vector6<S>(Sk.col(a)))).vector());
  }
  return A;
}

/// The CoM Jacobian J_com (3 × nv, ṗ_com = J_com ν̄), in A's axes (Inertial) or the base axes
/// (Base: Rᵀ J_com), into data.centroidal.com_jacobian. Also leaves A_G in data.centroidal.matrix
/// (its linear rows are m J_com in A's axes).
template <class S>
const Eigen::Matrix<S, 3, Eigen::Dynamic>& center_of_mass_jacobian(
    const Model<S>& model, Data<S>& data, const State<S>& x, ComFrame frame = ComFrame::Inertial) {
  centroidal_momentum_matrix(model, data, x);
  const S inv_mass = S(1) / data.derivatives.Ic[0].mass();
  const Matrix3<S> Rt = base_pose(model, x).rotation().transpose();
  for (int j = 0; j < model.nv(); ++j) {
    const Vector3<S> l = data.centroidal.matrix.col(j).template head<3>() * inv_mass;
    data.centroidal.com_jacobian.col(j) = frame == ComFrame::Base ? Vector3<S>(Rt * l) : l;
  }
  return data.centroidal.com_jacobian;
}

namespace detail {
// ḣ_G from the RNEA pass just run (without gravity): its whole-tree wrench f_0, about the base
// origin, carried to the centroidal frame.
template <class S>
Vector6<S> centroidal_rate_from_rnea(const Model<S>& model, Data<S>& data, const State<S>& x) {
  update_base_poses(model, data);
  return base_to_centroidal(base_pose(model, x).rotation(), base_frame_com(model, data),
                            Vector6<S>(data.inverse_dynamics.f[0].vector()));
}
}  // namespace detail

/// The drift Ȧ_G ν̄ of the centroidal momentum (ḣ_G at q̈ = 0), centroidal frame.
/// Writes the RNEA fields (data.kinematics.v, a, f, tau, H_parent) and data.kinematics.H_base.
template <class S>
Vector6<S> centroidal_momentum_drift(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("centroidal_momentum_drift", model, x);
  detail::check_data_pairing("centroidal_momentum_drift", model, data);
  detail::rnea_pass<S, VectorX<S>>(model, data, x, nullptr, detail::kWithoutGravity,
                                   static_cast<const ExternalWrenches<S>*>(nullptr));
  return detail::centroidal_rate_from_rnea(model, data, x);
}

/// The centroidal momentum rate ḣ_G = A_G q̈ + Ȧ_G ν̄ for accelerations q̈ = [ν̇; ṙ] (size nv),
/// centroidal frame. Writes the RNEA fields and data.kinematics.H_base.
template <class S, class Derived>
Vector6<S> centroidal_momentum_rate(const Model<S>& model, Data<S>& data, const State<S>& x,
                                    const Eigen::MatrixBase<Derived>& ddq) {
  detail::check_state("centroidal_momentum_rate", model, x);
  detail::check_data_pairing("centroidal_momentum_rate", model, data);
  LIEDYN_CHECK_SIZE("centroidal_momentum_rate", "ddq", ddq, model.nv());
  detail::rnea_pass(model, data, x, &ddq, detail::kWithoutGravity,
                    static_cast<const ExternalWrenches<S>*>(nullptr));
  return detail::centroidal_rate_from_rnea(model, data, x);
}

/// CoM acceleration p̈_com for accelerations q̈ (size nv), in A's axes (Inertial) or the base
/// axes (Base: Rᵀ p̈_com).
template <class S, class Derived>
Vector3<S> center_of_mass_acceleration(const Model<S>& model, Data<S>& data, const State<S>& x,
                                       const Eigen::MatrixBase<Derived>& ddq,
                                       ComFrame frame = ComFrame::Inertial) {
  const Vector6<S> hdot = centroidal_momentum_rate(model, data, x, ddq);
  const Vector3<S> a = hdot.template head<3>() / model.total_mass();
  return frame == ComFrame::Base ? Vector3<S>(base_pose(model, x).rotation().transpose() * a) : a;
}

namespace detail {

// The whole tree's centroidal frame G as the derivative pass leaves it: A's axes (R = ^AR_0,
// the base's rotation), the CoM c in the base frame, and the linear parts l of h_0 and fl of
// F^c_0 (base frame) that moving c turns into moments.
template <class S>
struct CentroidalFrame {
  const Matrix3<S>& R;
  Vector3<S> c;
  S mass;
  Vector3<S> l, fl;
  // Φ f (base_to_centroidal).
  Vector6<S> from_base(const Vector6<S>& f) const { return base_to_centroidal(R, c, f); }
  // The moment's change when the CoM moves by dc in frame 0: −R (dc × f_lin).
  Vector3<S> moment_shift(const Vector3<S>& dc, const Vector3<S>& f_lin) const {
    return Vector3<S>(-(R * dc.cross(f_lin)));
  }
};

// The δs and δr columns of ∂p_com/∂x, ∂h_G/∂x and ∂ḣ_G/∂x, one column c of each joint k at a
// time: moving it moves subtree(k) rigidly along S_c (eidamb_derivatives.hpp).
template <class S>
void centroidal_joint_columns(const Model<S>& model, Data<S>& data, const CentroidalFrame<S>& G) {
  const int nb = model.num_bodies(), n = model.nv_joints(), off = model.offset();
  const int cs = off, cr = 2 * off + n;  // first columns of δs, δr
  auto& dp = data.centroidal.com_dx;
  auto& dh = data.centroidal.momentum_dx;
  auto& df = data.centroidal.rate_dx;
  for (int k = 1; k < nb; ++k) {
    const SpatialInertia<S>& Ic = data.derivatives.Ic[k];
    const Force<S>& hc = data.derivatives.hc[k];
    for (int c = model.r_index(k); c < model.r_index(k + 1); ++c) {
      const Motion<S>& Sc = data.derivatives.axis[c];
      const Motion<S>& uc = data.derivatives.u[c];
      const Vector3<S> dc =
          (Vector3<S>(Sc.angular().cross(Ic.first_moment())) + Ic.mass() * Sc.linear()) / G.mass;
      const int s_col = cs + c, r_col = cr + c;
      dp.col(s_col) = G.R * dc;
      dp.col(r_col).setZero();
      Vector6<S> d = G.from_base((Sc.cross(hc) - Ic * uc).vector());
      d.template tail<3>() += G.moment_shift(dc, G.l);
      dh.col(s_col) = d;
      dh.col(r_col) = G.from_base((Ic * Sc).vector());
      // The base rows of ∂ĪD/∂δs and ∂ĪD/∂r (eidamb_derivatives.hpp).
      const Force<S> P = position_derivative_wrench(data, k, c, data.derivatives.fc[k]);
      const Force<S> Q = Ic * data.derivatives.w[c] + Sc.cross(hc) + data.derivatives.Bc[k] * Sc;
      d = G.from_base(P.vector());
      d.template tail<3>() += G.moment_shift(dc, G.fl);
      df.col(s_col) = d;
      df.col(r_col) = G.from_base(Q.vector());
    }
  }
}

// The η and body-twist columns: p_com = t + R c moves with both η = (ρ, φ); Φ with φ only
// (∂(R x)/∂φ = −R x^); h_G and ḣ_G through the base's composite (eidamb_derivatives.hpp's base
// rows).
template <class S>
void centroidal_base_columns(const Model<S>& model, Data<S>& data, const State<S>& x,
                             const CentroidalFrame<S>& G) {
  const int ct = model.offset() + model.nv_joints();  // first column of δt
  auto& dp = data.centroidal.com_dx;
  auto& dh = data.centroidal.momentum_dx;
  auto& df = data.centroidal.rate_dx;
  const Vector6<S> h0 = data.derivatives.hc[0].vector(), F0 = data.derivatives.fc[0].vector();
  const Vector3<S> kG = h0.template tail<3>() - G.c.cross(G.l);
  const Vector3<S> fG = F0.template tail<3>() - G.c.cross(G.fl);
  dp.template block<3, 3>(0, 0) = G.R;
  dp.template block<3, 3>(0, 3) = -G.R * hat(G.c);
  dh.template block<6, 3>(0, 0).setZero();
  dh.template block<3, 3>(0, 3) = -G.R * hat(G.l);
  dh.template block<3, 3>(3, 3) = -G.R * hat(kG);
  const Motion<S> nu(x.nu);
  const Motion<S> a_g0 = gravity_in_base(model, x.H);
  const Matrix6<S> I0m = data.derivatives.Ic[0].matrix();
  const Matrix6<S> dF_deta = I0m * a_g0.cross_matrix();
  const Matrix6<S> dF_dnu = I0m * nu.cross_matrix() + cross_star_of_force(data.derivatives.hc[0]) +
                            data.derivatives.Bc[0].matrix();
  for (int m = 0; m < 6; ++m) {
    df.col(m) = G.from_base(Vector6<S>(dF_deta.col(m)));
    dh.col(ct + m) = G.from_base(Vector6<S>(I0m.col(m)));
    df.col(ct + m) = G.from_base(Vector6<S>(dF_dnu.col(m)));
  }
  df.template block<3, 3>(0, 3) -= G.R * hat(G.fl);
  df.template block<3, 3>(3, 3) -= G.R * hat(fG);
  dp.template block<3, 6>(0, ct).setZero();
}

// The η and δt columns for another twist representation: δν = N_η η + N_t δt (twist_maps,
// state.hpp).
template <class S>
void centroidal_columns_in_representation(const Model<S>& model, Data<S>& data, const State<S>& x,
                                          TwistRepresentation rep) {
  const int ct = model.offset() + model.nv_joints();
  auto& dh = data.centroidal.momentum_dx;
  auto& df = data.centroidal.rate_dx;
  Matrix6<S> N_eta, N_t, T;
  twist_maps(rep, x.H, x.nu, N_eta, N_t, T);
  const Matrix6<S> dh_nu = dh.template middleCols<6>(ct), df_nu = df.template middleCols<6>(ct);
  dh.template leftCols<6>() += dh_nu * N_eta;
  df.template leftCols<6>() += df_nu * N_eta;
  dh.template middleCols<6>(ct) = dh_nu * N_t;
  df.template middleCols<6>(ct) = df_nu * N_t;
}

}  // namespace detail

/// Derivatives with respect to the state, columns δx = (η, δs, δt, δr) with δt the base twist in
/// `rep` (η holds that twist fixed; welded base: (δs, δr)), into data.centroidal.com_dx = ∂p_com/∂x
/// (3 × 2nv, p_com in A), data.centroidal.momentum_dx = ∂h_G/∂x and data.centroidal.rate_dx =
/// ∂ḣ_G/∂x at fixed accelerations q̈ = [ν̇; ṙ] (ν̇ the body acceleration, whatever `rep`)
/// (6 × 2nv each, centroidal frame). Also leaves the derivative
/// pass's D1..D4, M and τ̄ = ĪD(x, q̈) (body twist) in data. For a welded base x.H must be the
/// welded pose (gravity is taken in x.H's axes, as rnea does).
template <class S, class Derived>
void centroidal_derivatives(const Model<S>& model, Data<S>& data, const State<S>& x,
                            const Eigen::MatrixBase<Derived>& ddq,
                            TwistRepresentation rep = TwistRepresentation::Body) {
  detail::check_state("centroidal_derivatives", model, x);
  detail::check_data_pairing("centroidal_derivatives", model, data);
  LIEDYN_CHECK_SIZE("centroidal_derivatives", "ddq", ddq, model.nv());
  detail::update_poses(model, data, x.s);
  detail::ground_derivative_pass<true>(model, data, x, ddq, TwistRepresentation::Body,
                                       static_cast<const ExternalWrenches<S>*>(nullptr));
  const SpatialInertia<S>& I0 = data.derivatives.Ic[0];
  const S mass = I0.mass();
  LIEDYN_CHECK(mass > S(0), "liedyn: centroidal_derivatives: the model has no mass");
  const detail::CentroidalFrame<S> G{base_pose(model, x).rotation(), I0.first_moment() / mass, mass,
                                     data.derivatives.hc[0].vector().template head<3>(),
                                     data.derivatives.fc[0].vector().template head<3>()};
  detail::centroidal_joint_columns(model, data, G);
  if (!model.has_moving_base()) return;
  detail::centroidal_base_columns(model, data, x, G);
  if (rep != TwistRepresentation::Body)
    detail::centroidal_columns_in_representation(model, data, x, rep);
}

}  // namespace liedyn
