// An allocator for buffers that are written right after they grow.
#pragma once

#include <memory>
#include <new>
#include <utility>

namespace gpuseq {

// std::allocator whose resize leaves new elements default-initialized (for bytes and integers:
// unwritten) instead of zeroing them: a buffer filled right after it grows skips a pass over
// every byte, and pages written by several threads are first touched by those threads, not
// zeroed by one. Used by the distance kernels' bit planes and by the FASTA reader's text and
// residues (326 MB in 64 MB blocks on 2 cores: 0.46-0.47 -> 0.31-0.32 s;
// benchmarks/results/fasta-reader-devhost-20261128).
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

}  // namespace gpuseq
