// liedyn tests — liedyn::test::allocation_count() under ThreadSanitizer, whose runtime defines
// the global operator new and delete itself (alloc_hook.cpp's replacements would collide at
// link time). The sanitizer's allocation hook sees every heap allocation, malloc and new alike,
// on every thread: a stricter count than alloc_hook.cpp's (operator new only).
//
// Exactly one translation unit of an executable may define allocation_count().
#include <sanitizer/allocator_interface.h>

#include <atomic>
#include <cstddef>

namespace {

std::atomic<std::size_t> g_allocations{0};

void on_allocation(const volatile void*, std::size_t) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
}
void on_free(const volatile void*) {}

// Installed before main() (the hook must be set from one thread, before any other starts).
const int g_installed = __sanitizer_install_malloc_and_free_hooks(on_allocation, on_free);

}  // namespace

namespace liedyn {
namespace test {
std::size_t allocation_count() noexcept {
  (void)g_installed;
  return g_allocations.load(std::memory_order_relaxed);
}
}  // namespace test
}  // namespace liedyn
