// Placeholder demo: prints the library version.  To be replaced by the real
// liedyn demo.
#include <liedyn/version.hpp>

#include <cstdio>

int main() {
  std::printf("liedyn %s demo\n", liedyn::version_string);
  return 0;
}
