// liedyn tests — replaces every global operator new / new[] / delete / delete[] of the test
// executable (plain, sized, nothrow and over-aligned variants) so that allocations can be
// counted: liedyn::test::allocation_count() (declared in support/test_support.hpp) returns
// how many allocation calls were made. Memory comes from std::malloc / std::aligned_alloc and
// goes back with std::free, so AddressSanitizer (which intercepts malloc and free) still sees
// every block; replacing the global allocation functions is explicitly allowed with ASan.
//
// Exactly one translation unit of an executable may define these.
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {

std::atomic<std::size_t> g_allocations{0};

// The allocation loop of [new.delete.single]: retry through the new-handler, throw
// std::bad_alloc when there is none. `alignment` 0 means the default alignment.
void* allocate(std::size_t size, std::size_t alignment) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (size == 0) size = 1;  // operator new(0) must return a unique non-null pointer
  for (;;) {
    void* p = nullptr;
    if (alignment == 0) {
      p = std::malloc(size);
    } else {
#if defined(_MSC_VER)
      p = _aligned_malloc(size, alignment);
#else
      // aligned_alloc wants a size that is a multiple of the alignment.
      const std::size_t rounded = (size + alignment - 1) / alignment * alignment;
      p = std::aligned_alloc(alignment, rounded);
#endif
    }
    if (p) return p;
    const std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

void* allocate_nothrow(std::size_t size, std::size_t alignment) noexcept {
  try {
    return allocate(size, alignment);
  } catch (...) {
    return nullptr;
  }
}

void deallocate(void* p) noexcept { std::free(p); }

void deallocate_aligned(void* p) noexcept {
#if defined(_MSC_VER)
  _aligned_free(p);
#else
  std::free(p);
#endif
}

std::size_t to_size(std::align_val_t a) { return static_cast<std::size_t>(a); }

}  // namespace

namespace liedyn {
namespace test {
// Declared in support/test_support.hpp (not included here: this TU needs no Eigen).
std::size_t allocation_count() noexcept;
std::size_t allocation_count() noexcept { return g_allocations.load(std::memory_order_relaxed); }
}  // namespace test
}  // namespace liedyn

// --- allocation ------------------------------------------------------------
void* operator new(std::size_t size) { return allocate(size, 0); }
void* operator new[](std::size_t size) { return allocate(size, 0); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_nothrow(size, 0);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_nothrow(size, 0);
}
void* operator new(std::size_t size, std::align_val_t al) { return allocate(size, to_size(al)); }
void* operator new[](std::size_t size, std::align_val_t al) { return allocate(size, to_size(al)); }
void* operator new(std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return allocate_nothrow(size, to_size(al));
}
void* operator new[](std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return allocate_nothrow(size, to_size(al));
}

// --- deallocation ----------------------------------------------------------
void operator delete(void* p) noexcept { deallocate(p); }
void operator delete[](void* p) noexcept { deallocate(p); }
void operator delete(void* p, std::size_t) noexcept { deallocate(p); }
void operator delete[](void* p, std::size_t) noexcept { deallocate(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { deallocate(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { deallocate(p); }
void operator delete(void* p, std::align_val_t) noexcept { deallocate_aligned(p); }
void operator delete[](void* p, std::align_val_t) noexcept { deallocate_aligned(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { deallocate_aligned(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { deallocate_aligned(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  deallocate_aligned(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  deallocate_aligned(p);
}
