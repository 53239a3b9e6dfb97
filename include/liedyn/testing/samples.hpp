// liedyn — testing (test support, installed but not in <liedyn/liedyn.hpp>): sample models
// built in code — the paper's Figure-4-like branched robot, and random chains and trees of any
// size with valid random inertias (for tests, benchmarks and the demo).
#pragma once

#include <cmath>
#include <random>
#include <string>

#include "liedyn/model/builder.hpp"

namespace liedyn {

namespace detail {
// figure4_model's bodies, generated from tests/data/fig4_like_case.json (parents, joint types,
// axes, pitches, placements and inertias), so that the reference numbers apply to the model.
struct Figure4Row {
  int parent;
  char type;
  double axis[3];
  double pitch;
  double R[9];
  double p[3];
  double m;
  double h[3];
  double Io[9];
};
inline constexpr Figure4Row kFigure4Rows[] = {
    {-1,
     'B',
     {0.0, 0.0, 0.0},
     0.0,
     {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0},
     {0.0, 0.0, 0.0},
     1.4554425309821815,
     {-0.0384542073167495, 0.18641967265189746, 0.03053521840190949},
     {0.15042354470729075, -0.11566956604781878, -0.1333446260610907, -0.11566956604781878,
      0.1713314837687663, 0.1122274077486466, -0.1333446260610907, 0.1122274077486466,
      0.33469082349290497}},
    {0,
     'R',
     {0.5117795708180095, -0.7505702462776024, -0.4180023639838814},
     0.2330015489141402,
     {0.8500562943130625, -0.09275240095205581, 0.5184604986075345, -0.44195766376186296,
      -0.6610599877220404, 0.6063605495702143, 0.2864920940286142, -0.744578192502685,
      -0.6029308379147105},
     {0.04371187899112555, -0.030280610488329248, 0.08084575801758395},
     0.5503783629581965,
     {-0.1371444855081676, -0.08060482158588295, -0.05990967360205988},
     {0.10614211214247837, -0.02460232167733486, 0.0030076914947347374, -0.02460232167733486,
      0.17700661525158673, 0.04756808495127819, 0.0030076914947347357, 0.04756808495127819,
      0.11341161959786225}},
    {1,
     'P',
     {0.3957860896479424, -0.43238883962843333, 0.8101810060757829},
     0.06667250219177535,
     {0.2140026996046236, -0.08843223893206886, 0.9728219691595141, 0.8698437443025144,
      0.4704187006871191, -0.1485870335581963, -0.44449376267807744, 0.8780011305011539,
      0.1775931017212683},
     {0.33763147223143686, 0.03023744429715405, -0.570709540395893},
     1.9958149036838164,
     {-0.36791864860802537, -0.18270720493357118, 0.08789374182800455},
     {0.09501851098539224, -0.06605783370537242, 0.04432281631804936, -0.06605783370537242,
      0.11493885801494161, 0.0029042681697441603, 0.04432281631804936, 0.002904268169744162,
      0.15749540632040465}},
    {2,
     'H',
     {-0.08319989872380684, -0.47409006407222953, -0.8765365868007665},
     0.19653076620318322,
     {0.129624871649464, 0.9006361784354976, -0.41479135326446026, -0.426225173980988,
      0.42831149098904686, 0.7967944325556097, 0.8952817957016306, 0.07351014065992578,
      0.43939363389268804},
     {0.10736683188356587, 0.14346877966813779, 0.5289829879067333},
     1.0366927950636053,
     {-0.2610528331290532, 0.3138947739094966, 0.2790518709776583},
     {0.22910295415763637, 0.13364258021111988, 0.14533569909152722, 0.13364258021111985,
      0.6215665951295621, -0.0624397808575963, 0.14533569909152724, -0.0624397808575963,
      0.34664170640084657}},
    {0,
     'H',
     {-0.007964943697554745, 0.5963631120378834, 0.8026752757325878},
     0.1881528776303218,
     {0.5727039955078439, -0.8196960574543348, -0.01041666564555635, -0.7086829473957311,
      -0.5014485387926606, 0.49630418395698117, -0.4120420046546844, -0.27685327582769437,
      -0.8680861996735252},
     {0.16950854114133893, 0.14849096709450355, 0.15310286410830437},
     1.8147263462160557,
     {0.23826447206270027, -0.4676046983431596, 0.14340768251669125},
     {0.25539116396034933, 0.10124235108702491, -0.018179849849433945, 0.10124235108702491,
      0.16245376466910977, -0.029014842489589708, -0.018179849849433945, -0.029014842489589715,
      0.3407491594725539}},
    {4,
     'R',
     {0.16285073002305958, -0.18298901740919057, -0.9695332171919514},
     0.05248864020182299,
     {0.4676623666470303, -0.16390149478612323, 0.8685782698346608, -0.5754644953229985,
      0.6894172630803128, 0.4399368727323243, -0.6709191646128058, -0.7055778747762185,
      0.2280950178796759},
     {0.033390142442803944, -0.3398423822440573, -0.2042489871592507},
     1.507992316934539,
     {0.4775729870615634, 0.39821884481990355, 0.19101817782606223},
     {0.4156343789772981, -0.17604896378686544, 0.11522782067465767, -0.17604896378686544,
      0.43091481580699054, -0.011103961408522843, 0.11522782067465767, -0.011103961408522843,
      0.4291770874607519}},
    {4,
     'P',
     {-0.007609832276618963, -0.9800915253270304, 0.19840033375691918},
     0.14519262707772235,
     {-0.5514560183016788, 0.6571255531662109, -0.5138893531246387, 0.8098598287885809,
      0.569454791430654, -0.14088398855512554, 0.20005828549047577, -0.49386966690886336,
      -0.8462088598649504},
     {-0.11903361557733215, -0.21200336528726338, -0.09446185194117682},
     1.636593267962437,
     {0.6554204444423471, 0.061705848269523175, -0.20725623706443969},
     {0.19685426513359183, -0.15102133258456202, 0.023453577551009144, -0.15102133258456202,
      0.42928123662724504, 0.014509308255850157, 0.023453577551009144, 0.014509308255850157,
      0.46006363379714516}},
    {0,
     'R',
     {0.9984906529746705, -0.027374875161304525, 0.047613360857210095},
     0.13607393274058133,
     {0.34143275301906484, 0.0950482144472517, 0.9350879702446243, 0.9103054821849592,
      -0.28115108561199875, -0.30380585274678756, 0.23402479413478994, 0.9549449743255279,
      -0.18251709985802833},
     {0.01906909248467184, 0.3666619155298383, 0.1483787340377641},
     1.7954601353683637,
     {-0.15540994715359546, -0.2641061863260062, 0.0896959354063522},
     {0.13496326169796138, -0.11803021822546225, 0.08893688380977866, -0.11803021822546227,
      0.23872375572887045, -0.06866728899828556, 0.08893688380977867, -0.06866728899828556,
      0.18034020511819213}},
};
}  // namespace detail

/// The Figure-4-like branched moving-base robot of the paper's validation (shared reference
/// case): base 0 and 7 bodies, parents [−, 0, 1, 2, 0, 4, 4, 0], joints [R, P, H, H, R, P, R]
/// about non-aligned unit axes. Gravity (0, 0, −9.81). Deterministic: the same numbers as the
/// reference data, so its τ̄, M, M⁻¹, D1..D4, A and B apply.
template <class S = double>
Model<S> figure4_model() {
  using detail::Figure4Row;
  const Figure4Row* rows = detail::kFigure4Rows;
  auto to_inertia = [](const Figure4Row& r) {
    Matrix3<double> Io;
    Io << r.Io[0], r.Io[1], r.Io[2], r.Io[3], r.Io[4], r.Io[5], r.Io[6], r.Io[7], r.Io[8];
    return SpatialInertia<double>::from_moments(r.m, Vector3<double>(r.h[0], r.h[1], r.h[2]), Io);
  };
  // Its random inertias are positive definite but violate the triangle inequalities.
  ModelBuilder<double> b(BaseType::Moving, "base");
  b.set_inertia_check(InertiaCheck::PositiveDefinite);
  b.set_base_inertia(to_inertia(rows[0]));
  for (int i = 1; i < 8; ++i) {
    const Figure4Row& r = rows[i];
    Matrix3<double> R;
    R << r.R[0], r.R[1], r.R[2], r.R[3], r.R[4], r.R[5], r.R[6], r.R[7], r.R[8];
    const SE3<double> X(R, Vector3<double>(r.p[0], r.p[1], r.p[2]));
    const Vector3<double> axis(r.axis[0], r.axis[1], r.axis[2]);
    const std::string name = std::to_string(i);
    JointSpec<double> j = r.type == 'R' ? JointSpec<double>::revolute("joint" + name, axis, X)
                          : r.type == 'P'
                              ? JointSpec<double>::prismatic("joint" + name, axis, X)
                              : JointSpec<double>::helical("joint" + name, axis, r.pitch, X);
    b.add_body(r.parent, "body" + name, j, to_inertia(r));
  }
  return b.build().template cast<S>();
}

/// Options of random_model().
struct RandomModelOptions {
  /// 0: a chain (λ(i) = i − 1); otherwise λ(i) is drawn uniformly from
  /// [max(0, i − branching), i − 1], so larger values give bushier, shallower trees.
  int branching = 0;
  bool moving_base = true;
  bool axis_aligned = false;  ///< axes along ±x, ±y, ±z only
  /// Joint placements are pure translations (R = I), as most URDF files write them: with
  /// axis_aligned this gives the joints' fast cases real robots take.
  bool unrotated_placements = false;
  bool revolute_only = false;  ///< else a mix of revolute, prismatic and helical joints
  /// Every joint type in equal shares: revolute, prismatic, helical, spherical, free, planar and
  /// universal (overrides revolute_only).
  bool every_joint_type = false;
  double armature = 0.0;
  bool gravity_off = false;  ///< g = 0 (e.g. for momentum-conservation tests)
};

/// A random tree of `num_joints` joints with valid random inertias (masses in [0.5, 3] kg,
/// principal moments satisfying the triangle inequalities, rotated), random placements and
/// axes, and joint limits [−π, π]. Deterministic for a given generator state.
template <class S = double, class Rng>
Model<S> random_model(int num_joints, Rng& rng, const RandomModelOptions& opt = {}) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  // z, y, x: the order GCC evaluated Vector3's arguments in, made explicit (see below).
  auto rand3 = [&] {
    const double z = u(rng), y = u(rng), x = u(rng);
    return Vector3<double>(x, y, z);
  };
  auto rand_inertia = [&] {
    const double m = 0.5 + 2.5 * u01(rng);
    // Principal moments a, b, c with a + b ≥ c etc.: from a random solid box.
    const double x = 0.05 + 0.3 * u01(rng), y = 0.05 + 0.3 * u01(rng), z = 0.05 + 0.3 * u01(rng);
    const Vector3<double> d(m * (y * y + z * z) / 12, m * (x * x + z * z) / 12,
                            m * (x * x + y * y) / 12);
    const Matrix3<double> R = SO3<double>::exp(Vector3<double>(rand3() * M_PI)).matrix();
    return SpatialInertia<double>::from_mass_com_inertia(
        m, Vector3<double>(rand3() * 0.2), Matrix3<double>(R * d.asDiagonal() * R.transpose()));
  };
  auto rand_axis = [&] {
    if (opt.axis_aligned) {
      Vector3<double> e = Vector3<double>::Zero();
      e(static_cast<int>(u01(rng) * 3) % 3) = u01(rng) < 0.5 ? -1.0 : 1.0;
      return e;
    }
    return Vector3<double>(rand3().normalized());
  };
  auto random_one_dof_joint = [&](const std::string& name, const SE3<double>& X) {
    const double pick = opt.revolute_only ? 0.0 : u01(rng);
    const double pitch = pick >= 0.8 ? 0.1 * u(rng) : 0.0;
    const Vector3<double> axis = rand_axis();
    return pick < 0.6   ? JointSpec<double>::revolute(name, axis, X)
           : pick < 0.8 ? JointSpec<double>::prismatic(name, axis, X)
                        : JointSpec<double>::helical(name, axis, pitch, X);
  };
  auto random_joint_of_every_type = [&](const std::string& name, const SE3<double>& X) {
    const double pitch = 0.1 * u(rng);
    const Vector3<double> axis = rand_axis(), cross = axis.cross(rand_axis());
    // The second axis well away from the first (axis-aligned draws repeat often).
    const Vector3<double> second = cross.norm() > 0.1 ? cross.normalized() : axis.unitOrthogonal();
    switch (static_cast<int>(u01(rng) * 7) % 7) {
      case 0: return JointSpec<double>::revolute(name, axis, X);
      case 1: return JointSpec<double>::prismatic(name, axis, X);
      case 2: return JointSpec<double>::helical(name, axis, pitch, X);
      case 3: return JointSpec<double>::spherical(name, X);
      case 4: return JointSpec<double>::free(name, X);
      case 5: return JointSpec<double>::planar(name, X);
      default: return JointSpec<double>::universal(name, axis, second, X);
    }
  };
  ModelBuilder<double> b(opt.moving_base ? BaseType::Moving : BaseType::Welded, "base",
                         rand_inertia());
  if (opt.gravity_off) b.set_gravity(Vector3<double>::Zero());
  for (int i = 1; i <= num_joints; ++i) {
    int parent = i - 1;
    if (opt.branching > 0) {
      const int lo = std::max(0, i - opt.branching);
      parent = lo + static_cast<int>(u01(rng) * (i - lo)) % (i - lo);
    }
    // Every draw is its own statement, in the order GCC evaluated the function arguments that
    // held them (translation before rotation, pitch before axis): a seed gives the same model as
    // before, and now under every compiler (Clang evaluates arguments left to right).
    const Vector3<double> p(rand3() * 0.3);
    const Matrix3<double> R = SO3<double>::exp(Vector3<double>(rand3() * 0.8)).matrix();
    const SE3<double> X(opt.unrotated_placements ? Matrix3<double>::Identity() : R, p);
    const std::string id = std::to_string(i);
    JointSpec<double> j = opt.every_joint_type ? random_joint_of_every_type("joint" + id, X)
                                               : random_one_dof_joint("joint" + id, X);
    j.with_limits(-M_PI, M_PI).with_armature(opt.armature);
    b.add_body(parent, "body" + id, j, rand_inertia());
  }
  return b.build().template cast<S>();
}

}  // namespace liedyn
