// liedyn — the command-line tool: argument parsing (CLI11) and error reporting.
//
//   liedyn info  ROBOT.urdf [--fixed-base]
//   liedyn eval  ROBOT.urdf --state STATE.json [--fixed-base]
//                [--representation body|inertial|mixed] [--discrete DT] [--constraints FILE]
//                [--mimic ignore|enforce] [--equality ignore|enforce] [--only KEY,...]
//   liedyn check ROBOT.urdf [--states N] [--seed S] [--dt DT] [--fixed-base]
//                [--constraints FILE] [--equality ignore|enforce]
// each with [--inertia strict|lenient|balance] [--lock NAME=POS,...] (docs/loading.md).
//
// Exit codes: 0 success; 1 `check` found a comparison above its tolerance; 2 an error (bad
// STATE.json, unreadable or unsupported URDF, unavailable quantity, ...), reported as
// "liedyn: error: <message>" on stderr; CLI11's own codes (100 and up) for usage errors.
#include <cmath>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "liedyn/version.hpp"

namespace {

// A finite, strictly positive number (CLI::PositiveNumber would accept "inf").
CLI::Validator positive_finite() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v) || !(v > 0.0))
          return "must be a finite number > 0, got '" + s + "'";
        return std::string();
      },
      "POSITIVE");
}

// --inertia and --lock, shared by info, eval and check (docs/loading.md).
void add_load_options(CLI::App* app, std::string& inertia, std::vector<std::string>& lock) {
  app->add_option("--inertia", inertia,
                  "Link inertias a rigid body cannot have: strict refuses, lenient (default) loads "
                  "as written "
                  "and reports, balance adds the least isotropic inertia")
      ->check(CLI::IsMember({"strict", "lenient", "balance"}));
  app->add_option("--lock", lock, "Weld these joints at these positions (rad or m)")
      ->delimiter(',')
      ->type_name("NAME=POS,...");
}

// --equality, shared by eval and check (docs/loading.md, "Equality constraints").
void add_equality_option(CLI::App* app, std::string& equality) {
  app->add_option("--equality", equality,
                  "ignore (default: the tree alone) or enforce (an MJCF file's <equality> "
                  "constraints — connect, weld, joint — appended after --constraints' rows)")
      ->check(CLI::IsMember({"ignore", "enforce"}));
}

int report(const std::string& message) {
  std::cerr << "liedyn: error: " << liedyn_cli::strip_liedyn_prefix(message) << '\n';
  return liedyn_cli::kExitError;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace liedyn_cli;
  CLI::App app{"liedyn — dynamics of moving-base robots and their exact linearization (liedyn " +
               std::string(liedyn::version_string) + ")"};
  app.set_version_flag("--version", std::string("liedyn ") + liedyn::version_string);
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 success, 1 a `check` comparison failed, 2 an error (bad input, unreadable "
      "file, ...), "
      "100+ usage errors.\nSee README.md (\"Command-line tool\", \"STATE.json\") for the state "
      "file format.");

  InfoOptions info_opt;
  CLI::App* info = app.add_subcommand("info",
                                      "Describe a robot: tree, joints, masses, centre of mass, "
                                      "singular joints, mimic relations");
  info->add_option("urdf", info_opt.urdf, "URDF file, or MJCF file (.xml)")->required();
  info->add_flag("--fixed-base", info_opt.fixed_base, "Weld the root link to the world");
  add_load_options(info, info_opt.inertia, info_opt.lock);

  EvalOptions eval_opt;
  CLI::App* eval = app.add_subcommand(
      "eval", "Evaluate the dynamics and the linearization at a state (JSON on stdout)");
  eval->add_option("urdf", eval_opt.urdf, "URDF file, or MJCF file (.xml)")->required();
  eval->add_option("--state", eval_opt.state, "STATE.json (see README.md)")->required();
  eval->add_flag("--fixed-base", eval_opt.fixed_base,
                 "Weld the root link (at the state's base pose, if given)");
  eval->add_option(
          "--representation", eval_opt.representation,
          "Base-twist variable of D1, D3, A, B, constrained_A, constrained_B and dlambda_dx "
          "(default: body)")
      ->check(CLI::IsMember({"body", "inertial", "mixed"}));
  eval->add_option(
          "--discrete", eval_opt.discrete_dt,
          "A and B (and constrained_A, constrained_B) of one semi-implicit Euler step of length DT "
          "instead of the continuous ones; dlambda_dx, dlambda_dtau stay continuous")
      ->check(positive_finite())
      ->type_name("DT");
  eval->add_option(
          "--constraints", eval_opt.constraints,
          "CONSTRAINTS.json: contacts, loops, couplings (adds constrained_ddq, lambda, "
          "constrained_A, "
          "constrained_B, dlambda_dx, dlambda_dtau, constraint_jacobian, constraint_drift, "
          "impulse_v_after, impulse)")
      ->type_name("FILE");
  eval->add_option("--mimic", eval_opt.mimic,
                   "ignore (default: mimic joints stay independent) or enforce (the URDF's <mimic> "
                   "tags become "
                   "couplings, appended after --constraints' rows)")
      ->check(CLI::IsMember({"ignore", "enforce"}));
  add_equality_option(eval, eval_opt.equality);
  eval->add_option("--only", eval_opt.only, "Print only these keys (comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember(eval_keys()))
      ->type_name("KEY,...");
  add_load_options(eval, eval_opt.inertia, eval_opt.lock);

  CheckOptions check_opt;
  CLI::App* check = app.add_subcommand("check",
                                       "Check the analytic derivatives against finite differences, "
                                       "and the kernels against each other, "
                                       "at random states");
  check->add_option("urdf", check_opt.urdf, "URDF file, or MJCF file (.xml)")->required();
  check->add_option("--states", check_opt.states, "Number of random states (default 3)")
      ->check(CLI::Range(1, 100000));
  check->add_option("--seed", check_opt.seed, "Seed of the random states (default 1)");
  check
      ->add_option("--dt", check_opt.dt,
                   "Time step of the discrete-linearization check (default 0.01)")
      ->check(positive_finite());
  check->add_flag("--fixed-base", check_opt.fixed_base, "Weld the root link to the world");
  add_load_options(check, check_opt.inertia, check_opt.lock);
  check
      ->add_option(
          "--constraints", check_opt.constraints,
          "CONSTRAINTS.json: also check J, constrained and impulse dynamics for these constraints")
      ->type_name("FILE");
  add_equality_option(check, check_opt.equality);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  try {
    if (info->parsed()) return run_info(info_opt, std::cout);
    if (eval->parsed()) return run_eval(eval_opt, std::cout, std::cerr);
    if (check->parsed()) return run_check(check_opt, std::cout);
  } catch (const std::bad_alloc&) {
    return report("out of memory");
  } catch (const std::exception& e) {
    // liedyn::ModelError, std::invalid_argument (library argument checks), liedyn_cli::Error
    // (STATE.json and nlohmann-json errors are converted to it), file errors.
    return report(e.what());
  } catch (...) {
    return report("unknown error");
  }
  return kExitError;  // not reached: require_subcommand(1)
}
