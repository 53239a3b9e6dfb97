#include <liedyn/version.hpp>

#include <cstdio>

int main() {
  std::printf("liedyn %s\n", liedyn::version_string);
  return 0;
}
