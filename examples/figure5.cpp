// liedyn example — Figure 5 of Bos, Traversaro, Pucci, Saccon (J. Geometric Mechanics 2022):
// how accurately geometric finite differences reproduce the exact derivatives of the extended
// inverse dynamics, as a function of the step δ.
//
// On the Figure-4-like branched robot (base + 7 bodies; revolute, prismatic and helical joints)
// at the shared reference state (tests/data/fig4_like_case.json: moving base, s = 0.3, random
// velocities, accelerations from forward dynamics of a fixed input), for δ = 1e-1 … 1e-13:
//   error = [D1 D2 D3 D4]_finite-difference − [D1 D2 D3 D4]_analytic   (13 × 26 entries)
// with central and forward differences (liedyn::numdiff: H ← H exp(±δ e_k^) with the base twist
// of the chosen representation held fixed, s, twist, r ± δ e_k; the same step for every
// coordinate), computed in double and in long double. The analytic derivatives come from
// eidamb_derivatives in long double, so the error shown is the finite differences' alone.
// Each curve is a "V": truncation error (δ² central, δ forward) on the right, round-off
// (ε |ĪD| / δ) on the left; long double moves the bottom down.
//
//   liedyn_figure5 [OUT.csv] [body|inertial|mixed]
// writes OUT.csv (default figure5.csv in the working directory), prints the table, and, when
// gnuplot is installed, renders OUT.png (default figure5.png): log-log error vs δ, solid double,
// dashed long double. The default twist representation is the inertial one (the paper's input
// w; D1 as in its Table 5, holding w fixed).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <liedyn/algorithm/aba.hpp>
#include <liedyn/algorithm/eidamb.hpp>
#include <liedyn/algorithm/eidamb_derivatives.hpp>
#include <liedyn/numdiff.hpp>
#include <liedyn/testing/samples.hpp>

using namespace liedyn;
using LD = long double;

namespace {

/// The reference state of fig4_like_case.json, with its base twist in the INERTIAL
/// representation, and the input τ̄ whose forward dynamics gives the accelerations.
struct ReferenceCase {
  State<double> x;
  VectorX<double> u;
};

ReferenceCase reference_case(const Model<double>& model) {
  ReferenceCase c;
  c.x = State<double>(model);
  Matrix3<double> R;
  R << -0.4017206363440202, 0.7985801699590784, -0.44820781171626717,  //
      -0.9152678349560219, -0.36620789287204003, 0.1678587784214349,   //
      -0.030088546496489565, 0.47766252872331294, 0.8780280109560166;
  c.x.H = SE3<double>(
      R, Vector3<double>(-1.3077531969011476, 1.0868307847683634, -0.050604063111342405));
  c.x.s = VectorX<double>::Constant(7, 0.3);
  c.x.r = VectorX<double>(7);
  c.x.r << 0.6131890778590062, -0.1521929584082903, -1.473887948041959, 1.028854347803183,
      -1.934959636609707, -0.23993667125803605, -0.20452248839966083;
  Vector6<double> w;
  w << -0.2831250656795347, 1.643251614242697, -1.2826492440738984, -0.5856577998413593,
      -0.47258767675848407, 0.5863372815313004;
  c.x.set_base_twist(w, TwistRepresentation::Inertial);
  c.u = VectorX<double>(13);
  c.u << 0.0012301533574825742, 0.2987455375084699, -0.2741378553622176, -0.8905918387572742,
      -0.45467078517172255, -0.9916465549964624, 0.060143602597438485, 1.3402152455545335,
      -0.49220651855132963, -0.6204748998199404, 0.4898420501851982, 0.35688700816006075,
      0.10541424899789856;
  return c;
}

/// [D1 D2 D3 D4] (nv × 2nv) from eidamb_derivatives.
template <class S>
MatrixX<S> analytic_derivatives(const Model<S>& model, const State<S>& x, const VectorX<S>& ddq,
                                TwistRepresentation rep) {
  Data<S> data(model);
  eidamb_derivatives(model, data, x, ddq, rep);
  MatrixX<S> K(model.nv(), 2 * model.nv());
  K << data.derivatives.D1, data.derivatives.D2, data.derivatives.D3, data.derivatives.D4;
  return K;
}

struct Errors {
  double max_abs = 0, mean_abs = 0;
};

/// The state in long double, with the rotation re-projected onto SO(3) in long double. The
/// reference rotation, given to 17 digits, is orthonormal only to ~1e-16; in long double the
/// inertial/mixed twist round trip ν → w → ν = RᵀR ν would then miss ν by ~1e-16 |ν|, an offset
/// the forward differences divide by δ (it cancels in central ones). One Newton–Schulz step
/// R ← R (3I − RᵀR)/2 makes RᵀR = I to ε_ld; the point moves by ~1e-16, far below double's floor.
State<LD> to_long_double(const State<double>& x_d) {
  State<LD> x = x_d.cast<LD>();
  const Matrix3<LD> R = x.H.rotation();
  x.H.rotation() = R * (LD(3) * Matrix3<LD>::Identity() - R.transpose() * R) / LD(2);
  return x;
}

/// Max and mean |FD − K| with the finite differences of ĪD(·, ddq) taken in scalar S at step δ.
template <class S>
Errors fd_errors(const Model<S>& model, const State<S>& x, const VectorX<S>& ddq,
                 TwistRepresentation rep, numdiff::DifferenceScheme scheme, double delta,
                 const MatrixX<LD>& K) {
  Data<S> data(model);
  auto f = [&](const State<S>& y) -> VectorX<S> { return eidamb(model, data, y, ddq); };
  numdiff::NumDiffOptions<S> opt;
  opt.scheme = scheme;
  opt.step = S(delta);
  opt.relative_step = false;  // the same δ for every coordinate, as in the paper
  opt.twist_representation = rep;
  const MatrixX<S> J = numdiff::state_jacobian(model, f, x, opt);
  const MatrixX<LD> E = (J.template cast<LD>() - K).cwiseAbs();
  return Errors{static_cast<double>(E.maxCoeff()), static_cast<double>(E.mean())};
}

bool parse_rep(const std::string& s, TwistRepresentation& rep) {
  for (TwistRepresentation r :
       {TwistRepresentation::Body, TwistRepresentation::Inertial, TwistRepresentation::Mixed}) {
    if (s == to_string(r)) {
      rep = r;
      return true;
    }
  }
  return false;
}

/// A path as a single-quoted gnuplot string ('' stands for a quote inside it).
std::string gnuplot_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("''") : std::string(1, ch);
  return out + "'";
}

/// A path as a single-quoted POSIX shell word.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace

int main(int argc, char** argv) {
  const std::string csv_path = argc > 1 ? argv[1] : "figure5.csv";
  TwistRepresentation rep = TwistRepresentation::Inertial;
  if (argc > 2 && !parse_rep(argv[2], rep)) {
    std::fprintf(stderr, "usage: %s [OUT.csv] [body|inertial|mixed]\n", argv[0]);
    return 2;
  }
  const std::string::size_type dot = csv_path.rfind('.');
  const std::string::size_type slash = csv_path.find_last_of("/\\");
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const std::string png_path = (has_ext ? csv_path.substr(0, dot) : csv_path) + ".png";

  const Model<double> model = figure4_model<double>();
  const ReferenceCase rc = reference_case(model);
  const Model<LD> model_ld = model.cast<LD>();
  const State<LD> x_ld = to_long_double(rc.x);
  // The accelerations of forward dynamics at the input u (docs/conventions.md §3), computed in long
  // double and rounded once: both scalars then differentiate at the same accelerations.
  Data<LD> data_ld(model_ld);
  const VectorX<double> ddq =
      aba(model_ld, data_ld, x_ld, VectorX<LD>(rc.u.cast<LD>())).cast<double>();
  const VectorX<LD> ddq_ld = ddq.cast<LD>();

  const MatrixX<LD> K = analytic_derivatives(model_ld, x_ld, ddq_ld, rep);
  const MatrixX<double> K_double = analytic_derivatives(model, rc.x, ddq, rep);
  const double k_max = static_cast<double>(K.cwiseAbs().maxCoeff());
  const double k_round = static_cast<double>((K_double.cast<LD>() - K).cwiseAbs().maxCoeff());

  std::printf(
      "liedyn Figure 5: finite differences vs analytic [D1 D2 D3 D4] (%d x %d entries, max |entry| "
      "%.1f)\n",
      static_cast<int>(K.rows()), static_cast<int>(K.cols()), k_max);
  std::printf("Figure-4-like robot at the reference state; base twist: %s (D1 holds it fixed)\n",
              to_string(rep));
  std::printf(
      "analytic reference in long double; the double analytic result differs from it by %.1e (max "
      "abs)\n\n",
      k_round);

  using numdiff::DifferenceScheme;
  struct Row {
    double delta;
    Errors e[4];  // double central, double forward, long double central, long double forward
  };
  std::vector<Row> rows;
  for (int p = 1; p <= 13; ++p) {
    Row r;
    r.delta = std::pow(10.0, -p);
    r.e[0] = fd_errors(model, rc.x, ddq, rep, DifferenceScheme::Central, r.delta, K);
    r.e[1] = fd_errors(model, rc.x, ddq, rep, DifferenceScheme::Forward, r.delta, K);
    r.e[2] = fd_errors(model_ld, x_ld, ddq_ld, rep, DifferenceScheme::Central, r.delta, K);
    r.e[3] = fd_errors(model_ld, x_ld, ddq_ld, rep, DifferenceScheme::Forward, r.delta, K);
    rows.push_back(r);
  }

  const char* names[4] = {"double central", "double forward", "long double central",
                          "long double forward"};
  std::printf("%8s | %-21s | %-21s | %-21s | %-21s\n", "", names[0], names[1], names[2], names[3]);
  std::printf("%8s |", "delta");
  for (int c = 0; c < 4; ++c) std::printf(" %10s %10s |", "max", "mean");
  std::printf("\n");
  for (const Row& r : rows) {
    std::printf("%8.0e |", r.delta);
    for (int c = 0; c < 4; ++c) std::printf(" %10.2e %10.2e |", r.e[c].max_abs, r.e[c].mean_abs);
    std::printf("\n");
  }
  std::printf("\nbottom of each V (smallest max abs error):\n");
  for (int c = 0; c < 4; ++c) {
    const Row* best = &rows[0];
    for (const Row& r : rows)
      if (r.e[c].max_abs < best->e[c].max_abs) best = &r;
    std::printf("  %-20s %.2e at delta = %.0e (mean %.2e)\n", names[c], best->e[c].max_abs,
                best->delta, best->e[c].mean_abs);
  }

  std::ofstream csv(csv_path);
  if (!csv) {
    std::fprintf(stderr, "cannot write %s\n", csv_path.c_str());
    return 1;
  }
  csv << "delta,double_central_max,double_central_mean,double_forward_max,double_forward_mean,"
         "longdouble_central_max,longdouble_central_mean,longdouble_forward_max,longdouble_forward_"
         "mean\n";
  char buf[64];
  for (const Row& r : rows) {
    std::snprintf(buf, sizeof buf, "%.0e", r.delta);
    csv << buf;
    for (int c = 0; c < 4; ++c) {
      std::snprintf(buf, sizeof buf, ",%.6e,%.6e", r.e[c].max_abs, r.e[c].mean_abs);
      csv << buf;
    }
    csv << "\n";
  }
  csv.close();
  std::printf("\nwrote %s\n", csv_path.c_str());

  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    std::printf("gnuplot not found: no plot (the CSV has the data)\n");
    return 0;
  }
  const std::string script_path = png_path + ".gp";
  {
    std::ofstream gp(script_path);
    const std::string data = gnuplot_quote(csv_path);
    gp << "set terminal pngcairo size 1000,700 enhanced font 'DejaVu Sans,11'\n"
       << "set output " << gnuplot_quote(png_path) << "\n"
       << "set datafile separator ','\n"
       << "set logscale xy\n"
       << "set format x '10^{%L}'\nset format y '10^{%L}'\n"
       << "set xrange [1e-13:1e-1]\n"
       << "set grid xtics ytics mxtics mytics lc rgb '#dddddd'\n"
       << "set xlabel 'finite-difference step {/Symbol d}'\n"
       << "set ylabel 'absolute error of [D_1 D_2 D_3 D_4]'\n"
       // Double quotes: gnuplot expands \n only there.
       << "set title \"Geometric finite differences vs analytic derivatives (Figure-4-like robot, "
       << to_string(rep) << " twist)\\nsolid: double, dashed: long double\"\n"
       << "set key outside right top box\n"
       << "plot " << data
       << " using 1:2 with linespoints lw 2 pt 7 ps 0.8 lc rgb '#1f77b4' title 'central, max "
          "(double)', \\\n"
       << "  '' using 1:3 with linespoints lw 2 pt 6 ps 0.8 lc rgb '#6baed6' title 'central, mean "
          "(double)', \\\n"
       << "  '' using 1:4 with linespoints lw 2 pt 5 ps 0.8 lc rgb '#d62728' title 'forward, max "
          "(double)', \\\n"
       << "  '' using 1:5 with linespoints lw 2 pt 4 ps 0.8 lc rgb '#ff9896' title 'forward, mean "
          "(double)', \\\n"
       << "  '' using 1:6 with linespoints dt 2 lw 2 pt 7 ps 0.8 lc rgb '#1f77b4' title 'central, "
          "max (long double)', \\\n"
       << "  '' using 1:7 with linespoints dt 2 lw 2 pt 6 ps 0.8 lc rgb '#6baed6' title 'central, "
          "mean (long double)', \\\n"
       << "  '' using 1:8 with linespoints dt 2 lw 2 pt 5 ps 0.8 lc rgb '#d62728' title 'forward, "
          "max (long double)', \\\n"
       << "  '' using 1:9 with linespoints dt 2 lw 2 pt 4 ps 0.8 lc rgb '#ff9896' title 'forward, "
          "mean (long double)'\n";
  }
  const std::string cmd = "gnuplot " + shell_quote(script_path);
  if (std::system(cmd.c_str()) != 0) {
    std::fprintf(stderr, "gnuplot failed (script: %s)\n", script_path.c_str());
    return 1;
  }
  std::remove(script_path.c_str());
  std::printf("wrote %s\n", png_path.c_str());
  return 0;
}
