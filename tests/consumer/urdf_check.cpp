// Builds only if liedyn::urdf carries tinyxml2's include path and library.
#include <tinyxml2.h>
#include <liedyn/version.hpp>

#include <cstdio>

int main() {
  tinyxml2::XMLDocument doc;
  if (doc.Parse("<robot name=\"r\"/>") != tinyxml2::XML_SUCCESS) return 1;
  std::printf("liedyn %s with tinyxml2: robot '%s'\n", liedyn::version_string,
              doc.RootElement()->Attribute("name"));
  return 0;
}
