// liedyn — model: what the XML loaders (urdf.hpp, mjcf.hpp) share: strict number parsing, quoting
// input for messages, reading a file. Internal (detail::xml); needs no XML library itself.
#pragma once

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace liedyn {
namespace detail {
namespace xml {

/// Drops the leading "liedyn: " of a builder message (the loader adds its own prefix).
inline std::string strip_prefix(const char* what) {
  std::string s(what);
  const std::string p = "liedyn: ";
  return s.compare(0, p.size(), p) == 0 ? s.substr(p.size()) : s;
}

/// Quotes a piece of input for a message, shortened if long.
inline std::string quote(const char* text) {
  std::string s(text);
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return "'" + s + "'";
}

/// XML whitespace.
inline bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

/// The number of whitespace-separated tokens in `text`.
inline int count_tokens(const char* text) {
  int count = 0;
  for (const char* p = text; *p;) {
    while (*p && is_space(*p)) ++p;
    if (!*p) break;
    ++count;
    while (*p && !is_space(*p)) ++p;
  }
  return count;
}

/// Parses exactly `n` whitespace-separated finite decimal numbers. On failure returns false and
/// sets `why`.
inline bool parse_numbers(const char* text, int n, double* out, std::string& why) {
  int count = 0;
  const char* p = text;
  while (true) {
    while (*p && is_space(*p)) ++p;
    if (!*p) break;
    const char* start = p;
    while (*p && !is_space(*p)) ++p;
    const std::string token(start, p);
    if (count == n) {
      why = "expected " + std::to_string(n) + (n == 1 ? " number" : " numbers") + ", got more";
      return false;
    }
    // Decimal text only: rejects nan, inf, hexadecimal and stray characters before strtod sees
    // them.
    if (token.find_first_not_of("0123456789+-.eE") != std::string::npos) {
      why = quote(token.c_str()) + " is not a finite decimal number";
      return false;
    }
    char* end = nullptr;
    const double v = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size() || end == token.c_str()) {
      why = quote(token.c_str()) + " is not a number";
      return false;
    }
    if (!std::isfinite(v)) {
      why = quote(token.c_str()) + " is out of range";
      return false;
    }
    out[count++] = v;
  }
  if (count != n) {
    why = "expected " + std::to_string(n) + (n == 1 ? " number" : " numbers") + ", got " +
          std::to_string(count);
    return false;
  }
  return true;
}

/// Reads a whole file into `text`. Returns nullptr, or what went wrong ("cannot open the file",
/// "cannot read the file").
inline const char* read_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot open the file";
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) return "cannot read the file";
  text = s.str();
  return nullptr;
}

}  // namespace xml
}  // namespace detail
}  // namespace liedyn
