// liedyn — model: the workspace Data<S>, sized once from a Model.
//
// Every kernel writes its intermediates and outputs here and allocates nothing once the Data
// exists. One Data per thread; the Model itself is shared read-only. Per-body quantities are
// indexed by body (0 = base) and expressed in that body's frame unless their comment says
// otherwise; matrices and vectors of generalized size follow the model's base-first order.
#pragma once

#include <vector>

#include "liedyn/arithmetic/cholesky6.hpp"
#include "liedyn/model/model.hpp"

namespace liedyn {

/// Per-thread workspace of the kernels for one Model: intermediates and outputs, sized once so
/// that no kernel allocates. Per-body entries are indexed by body; generalized ones are base first.
template <class S>
struct Data {
  /// Allocates every buffer for `model` (see resize).
  explicit Data(const Model<S>& model) { resize(model); }

  /// (Re)sizes every buffer for `model`, zero-filled (this allocates).
  void resize(const Model<S>& model) {
    const int nb = model.num_bodies(), nq = model.nq_joints(), n = model.nv_joints(),
              nv = model.nv();
    num_bodies = nb;
    model_id = model.id();
    H_parent.assign(nb, SE3<S>());
    joint_q.setZero(nq);
    joint_sin.setZero(nq);
    joint_cos.setZero(nq);
    H_world.assign(nb, SE3<S>());
    H_base.assign(nb, SE3<S>());
    v.assign(nb, Motion<S>());
    vJ.assign(nb, Motion<S>());
    a.assign(nb, Motion<S>());
    a_r.assign(nb, Motion<S>());
    a_base.assign(nb, Motion<S>());
    momentum.assign(nb, Force<S>());
    f.assign(nb, Force<S>());
    b_c.assign(nb, Force<S>());
    Ic.assign(nb, SpatialInertia<S>());
    aba_S.setZero(6, n);
    aba_v.assign(nb, Motion<S>());
    aba_c.assign(nb, Motion<S>());
    aba_IA.assign(nb, Matrix6<S>::Zero());
    aba_pA.assign(nb, Force<S>());
    aba_U.setZero(6, n);
    aba_Dinv.setZero(n, 6);
    aba_u.setZero(n);
    aba_a.assign(nb, Motion<S>());
    F.setZero(6, n);
    Fset.assign(1, Matrix6X<S>::Zero(6, n));
    Pset.assign(nb, Matrix6X<S>::Zero(6, n));
    tau.setZero(nv);
    h.setZero(nv);
    ddq.setZero(nv);
    M.setZero(nv, nv);
    Minv.setZero(nv, nv);
    ltdl.setZero(nv, nv);
    ltdl_Linv_.setZero(nv, nv);
    ltdl_base_rows.setZero(6, nv);
    ltdl_scratch.setZero(2 * nv);
    const int nbase = model.has_moving_base() ? 6 : 0;
    ground_axis.assign(n, Motion<S>());
    ground_v.assign(nb, Motion<S>());
    ground_a.assign(nb, Motion<S>());
    ground_u.assign(n, Motion<S>());
    ground_phi.assign(n, Motion<S>());
    ground_w.assign(n, Motion<S>());
    ground_axis_rate.assign(n, Motion<S>());
    ground_Ic.assign(nb, SpatialInertia<S>());
    ground_Bc.assign(nb, SpatialInertia<S>());
    ground_hc.assign(nb, Force<S>());
    ground_fc.assign(nb, Force<S>());
    ground_y.assign(n, Force<S>());
    ground_e.assign(n, Force<S>());
    ground_dA.assign(nb, Motion<S>());
    ground_dF.assign(nb, Force<S>());
    D1.setZero(nv, nbase);
    D2.setZero(nv, n);
    D3.setZero(nv, nbase);
    D4.setZero(nv, n);
    const int N = 2 * nv;
    aza_IA.assign(nb, Matrix6<S>::Zero());
    aza_S.setZero(6, n);
    aza_U.setZero(6, n);
    aza_Dinv.setZero(n, 6);
    aza_p.assign(nb, Vector6<S>::Zero());
    aza_a.assign(nb, Vector6<S>::Zero());
    aza_u.setZero(n);
    lin_K.setZero(nv, N);
    lin_MinvK.setZero(nv, N);
    lin_rows.setZero(nv);
    A.setZero(N, N);
    B.setZero(N, nv);
    tmp_nv.setZero(nv);
    tmp_nv2.setZero(nv);
    centroidal_matrix.setZero(6, nv);
    com_jacobian.setZero(3, nv);
    coriolis.setZero(nv, nv);
    com_dx.setZero(3, N);
    centroidal_momentum_dx.setZero(6, N);
    centroidal_rate_dx.setZero(6, N);
  }

  int num_bodies = 0;
  /// Model::id() of the model this Data was sized for: kernels refuse a Data from another model.
  std::uint64_t model_id = 0;

  // --- kinematics -------------------------------------------------------------------------
  std::vector<SE3<S>> H_parent;  ///< ^{λ(i)}H_i(s_i); its inverse action is the paper's ^iX_{λ(i)}
  VectorX<S> joint_q;            ///< s, copied contiguous for the batched sin/cos
  VectorX<S> joint_sin;          ///< sin of each entry of s (joint i's at q_index(i))
  VectorX<S> joint_cos;          ///< cos of each entry of s
  std::vector<SE3<S>> H_world;   ///< ^A H_i (forward kinematics)
  std::vector<SE3<S>> H_base;    ///< ^0 H_i: body i in the base frame (crba, derivatives)
  std::vector<Motion<S>> v;      ///< twist of body i, ^i v_{A,i}
  std::vector<Motion<S>> vJ;     ///< joint velocity Γ_i r_i

  // --- inverse dynamics (EIDAmb, Table 4; RNEA) --------------------------------------------
  std::vector<Motion<S>> a;        ///< RNEA: body acceleration incl. gravity
  std::vector<Motion<S>> a_r;      ///< a^r_i: relative to the base acceleration, with gravity
  std::vector<Motion<S>> a_base;   ///< ^i a_{A,0}: the base acceleration seen in body i
  std::vector<Force<S>> momentum;  ///< m_i = M_i v_i
  std::vector<Force<S>> f;         ///< RNEA: body wrench
  std::vector<Force<S>> b_c;       ///< b^c_i: composite bias wrench
  std::vector<SpatialInertia<S>>
      Ic;  ///< EIDAmb, crba: composite rigid-body inertia of subtree(i), in frame i

  // --- articulated bodies (ABA, IMMAmb) ---------------------------------------------------
  // ABA works in the mixed frames [i] (base frame's orientation, origin at body i; aba.hpp).
  // Joint i's columns and rates sit at r_index(i) (joint_nv(i) of them), like the velocities r.
  Matrix6X<S> aba_S;               ///< ABA: motion subspaces S_i = R_i Γ_i (6 × nv_joints), [i]
  std::vector<Motion<S>> aba_v;    ///< ABA: twist of body i, [i]
  std::vector<Motion<S>> aba_c;    ///< ABA: velocity-product acceleration c_i, [i]
  std::vector<Matrix6<S>> aba_IA;  ///< ABA: articulated inertia M^A_i, [i]
  std::vector<Force<S>> aba_pA;    ///< ABA: articulated bias wrench p^A_i, [i]
  Matrix6X<S> aba_U;               ///< ABA: U_i = M^A_i S_i (6 × nv_joints), [i]
  Eigen::Matrix<S, Eigen::Dynamic, 6> aba_Dinv;  ///< ABA: D_i⁻¹ (k_i × k_i) in rows r_index(i)…,
                                                 ///< columns 0…k_i − 1; D_i = S_iᵀ U_i + armature
  VectorX<S> aba_u;              ///< ABA: u_i = τ_i − S_iᵀ p^A_i (nv_joints)
  std::vector<Motion<S>> aba_a;  ///< ABA: a'_i, body acceleration incl. gravity, [i]
  Matrix6X<S> F;  ///< _0F: base–joint block of M (joint j's columns from r_index(j)), base frame
  std::vector<Matrix6X<S>> Fset;  ///< IMMAmb's 𝓕_i: one 6 × n buffer, Fset[0], shared (see immamb)
  std::vector<Matrix6X<S>> Pset;  ///< IMMAmb's 𝓟_i (6 × n each, frame 0)

  // --- EIDAmb derivatives: "ground" quantities, expressed in the base frame 0 frozen at the
  // current instant (eidamb_derivatives.hpp). Per body, or per joint column: one entry per
  // velocity coordinate of the joints, joint i's from r_index(i) (column d hangs from Vpar_d,
  // Apar_d: the parent's motion, plus a successive joint's earlier columns) ----------------
  std::vector<Motion<S>> ground_axis;  ///< per column: S_d = ^0X_i Γ_i e_d
  std::vector<Motion<S>> ground_v;     ///< per body: V_i = ^0X_i v_i
  std::vector<Motion<S>> ground_a;  ///< per body: A_i = ^0X_i a_i (with gravity, base acceleration)
  std::vector<Motion<S>> ground_u;  ///< per column: u_d = S_d × Vpar_d
  std::vector<Motion<S>> ground_phi;         ///< per column: φ_d = S_d × Apar_d − u_d × Vpar_d
  std::vector<Motion<S>> ground_w;           ///< per column: W_d = (Vpar_d + Vpost_d) × S_d
  std::vector<Motion<S>> ground_axis_rate;   ///< per column: Ṡ_d = Vpost_d × S_d (coriolis.hpp)
  std::vector<SpatialInertia<S>> ground_Ic;  ///< composite inertia of subtree(i)
  std::vector<SpatialInertia<S>>
      ground_Bc;                    ///< composite inertia variation Σ (V_j×̄* I_j − I_j V_j×)
  std::vector<Force<S>> ground_hc;  ///< composite momentum
  std::vector<Force<S>> ground_fc;  ///< composite wrench F^c_i (τ_d = S_d · F^c_i)
  std::vector<Force<S>> ground_y;   ///< per column: I^c_i S_d (for the linearization's second pass)
  std::vector<Force<S>> ground_e;   ///< per column: B^c_i S_d − S_d ×̄* h^c_i (likewise)
  std::vector<Motion<S>> ground_dA;  ///< scratch: the change of A_i with the accelerations
  std::vector<Force<S>> ground_dF;   ///< scratch: Σ over subtree(i) of I_j (ΔA_j − ΔA_i)
  MatrixX<S> D1;  ///< ∂ĪD/∂η (nv × 6), twist of the chosen representation held fixed
  MatrixX<S> D2;  ///< ∂ĪD/∂δs (nv × nv_joints), each joint's δs on its own group
  MatrixX<S> D3;  ///< ∂ĪD/∂(base twist) in the chosen representation (nv × 6)
  MatrixX<S> D4;  ///< ∂ĪD/∂r (nv × nv_joints)

  // --- AZA: articulated-body factorization at s for solving M x = y (aza.hpp) --------------
  std::vector<Matrix6<S>> aza_IA;  ///< articulated inertia M^A_i, mixed frame [i] (aza.hpp)
  Matrix6X<S> aza_S;  ///< S_i = ^0X_i Γ_i(q_i) (6 × nv_joints, joint i's from r_index(i); frame 0)
  Matrix6X<S> aza_U;  ///< U_i = M^A_i S_i (6 × nv_joints, as aza_S; frame 0)
  Eigen::Matrix<S, Eigen::Dynamic, 6> aza_Dinv;  ///< D_i⁻¹ = (S_iᵀ M^A_i S_i + armature_i 1)⁻¹
                                                 ///< (k_i × k_i) in rows r_index(i)…, columns 0…
  std::vector<Vector6<S>> aza_p;  ///< per-solve bias wrench (frame 0)
  std::vector<Vector6<S>> aza_a;  ///< per-solve body acceleration (frame 0)
  VectorX<S> aza_u;               ///< per-solve u_i (nv_joints)
  detail::Cholesky6<S> aza_base;  ///< factorization of the base's articulated inertia

  // --- linearization (linearization.hpp) ---------------------------------------------------
  MatrixX<S> lin_K;      ///< [D1 D2 D3 D4] (nv × 2nv; the Sweeps route only, else scratch)
  MatrixX<S> lin_MinvK;  ///< scratch: M⁻¹ [D1 D2 D3 D4] (the Sweeps route), −M⁻¹ [D1 D2 D3 D4]
                         ///< (linearize_discrete)
  Eigen::VectorXi lin_rows;  ///< scratch: the rows of one column pattern of D2/D4 (nv)
  MatrixX<S> A;  ///< δẋ = A δx + B δτ̄ (2nv × 2nv), or the discrete step's Jacobian
  MatrixX<S> B;  ///< (2nv × nv), input τ̄ (all generalized forces, base first)

  // --- outputs ------------------------------------------------------------------------------
  VectorX<S> tau;              ///< generalized force τ̄ = [τ̄_b; τ]
  VectorX<S> h;                ///< bias h(x)
  VectorX<S> ddq;              ///< forward dynamics [ν̇; ṙ]
  MatrixX<S> M;                ///< mass matrix, both triangles
  MatrixX<S> Minv;             ///< its inverse, both triangles
  MatrixX<S> ltdl;             ///< M = Lᵀ D L (ltdl.hpp): D on the diagonal, L strictly below
  Matrix6X<S> ltdl_base_rows;  ///< scratch of ltdl_factorize and ltdl_inverse (6 × nv)
                               ///< (moving base)
  VectorX<S> ltdl_scratch;     ///< scratch of ltdl_factorize and ltdl_inverse (2 nv)
  VectorX<S> tmp_nv, tmp_nv2;  ///< scratch of size nv

  // --- centroidal quantities, energy (centroidal.hpp, coriolis.hpp) ------------------------
  Matrix6X<S> centroidal_matrix;  ///< A_G (6 × nv): h_G = A_G ν̄, centroidal frame (CoM origin,
                                  ///< inertial axes)
  Eigen::Matrix<S, 3, Eigen::Dynamic> com_jacobian;  ///< J_com (3 × nv), frame as requested
  MatrixX<S> coriolis;  ///< C(x) (nv × nv): C ν̄ = velocity products, Ṁ − 2C skew-symmetric
  Eigen::Matrix<S, 3, Eigen::Dynamic> com_dx;  ///< ∂p_com/∂x (3 × 2nv), inertial frame
  Matrix6X<S> centroidal_momentum_dx;          ///< ∂h_G/∂x (6 × 2nv)
  Matrix6X<S> centroidal_rate_dx;              ///< ∂ḣ_G/∂x at the given q̈ (6 × 2nv)

 private:
  // Scratch that keeps values between calls, so that no kernel depends on a public member
  // keeping one: L⁻¹ is zero outside each column's subtree and ltdl_inverse writes only that
  // part (its zeros are set once, here).
  MatrixX<S> ltdl_Linv_;
  template <class T>
  friend const MatrixX<T>& ltdl_inverse(const Model<T>& model, Data<T>& data);
};

}  // namespace liedyn
