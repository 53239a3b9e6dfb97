// liedyn command-line tool: what the translation units share.
//
// The tool is split into several translation units so that a 2-core build compiles them in
// parallel and none of them is huge: main.cpp (CLI11 only), model_io.cpp (the URDF loader),
// info.cpp, state_json.cpp + eval.cpp (nlohmann-json and the double kernels), check.cpp (the
// kernels again plus long-double finite differences). This header includes neither CLI11 nor
// nlohmann-json nor Eigen, so main.cpp stays light.
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

namespace liedyn_cli {

/// A user-facing error (bad input file, unavailable quantity, ...): main() prints
/// "liedyn: error: <what>" on stderr and exits with kExitError.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Exit codes. Usage errors (bad options) use CLI11's own codes (100 and up).
constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;  ///< `liedyn check`: a comparison exceeded its tolerance
constexpr int kExitError = 2;        ///< bad input, unreadable file, unavailable quantity, ...

struct InfoOptions {
  std::string urdf;
  bool fixed_base = false;
  std::string inertia = "lenient";  ///< --inertia (model_io.hpp, LoadOptions)
  std::vector<std::string> lock;    ///< --lock NAME=POS,...
};

struct EvalOptions {
  std::string urdf;
  std::string state;
  bool fixed_base = false;
  std::string representation = "body";  ///< body | inertial | mixed (D1, D3, A, B)
  double discrete_dt = 0.0;             ///< > 0: A and B of the discrete step (linearize_discrete)
  std::vector<std::string> only;        ///< keys to print (empty: every available key)
  std::string inertia = "lenient";      ///< --inertia (model_io.hpp, LoadOptions)
  std::vector<std::string> lock;        ///< --lock NAME=POS,...
  std::string constraints;              ///< CONSTRAINTS.json (empty: none)
  std::string mimic = "ignore";         ///< ignore | enforce: the URDF's <mimic> tags as couplings
  std::string equality = "ignore";      ///< ignore | enforce: an MJCF file's <equality> elements
};

struct CheckOptions {
  std::string urdf;
  bool fixed_base = false;
  int states = 3;
  unsigned seed = 1;
  double dt = 0.01;                 ///< time step of the discrete-linearization check
  std::string inertia = "lenient";  ///< --inertia (model_io.hpp, LoadOptions)
  std::vector<std::string> lock;    ///< --lock NAME=POS,...
  std::string constraints;  ///< CONSTRAINTS.json: also check the constraint kernels (empty: none)
  std::string equality = "ignore";  ///< ignore | enforce: an MJCF file's <equality> elements
};

/// The keys `liedyn eval` can print, in output order.
const std::vector<std::string>& eval_keys();

int run_info(const InfoOptions& opt, std::ostream& out);
int run_eval(const EvalOptions& opt, std::ostream& out, std::ostream& err);
int run_check(const CheckOptions& opt, std::ostream& out);

/// Drops a leading "liedyn: " (library messages carry it; main() adds its own prefix).
inline std::string strip_liedyn_prefix(const std::string& s) {
  const std::string p = "liedyn: ";
  return s.compare(0, p.size(), p) == 0 ? s.substr(p.size()) : s;
}

}  // namespace liedyn_cli
