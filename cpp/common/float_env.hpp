// The calling thread's handling of denormal floats.
#pragma once

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace gpuseq {

#if defined(__SSE2__)
constexpr unsigned kFtzDaz = 0x8040;  // MXCSR bits 15 (flush-to-zero) and 6 (denormals-are-zero)
#endif

// Flush-to-zero and denormals-are-zero on (or off) for the calling thread, as hmmsearch sets
// them at start-up (HMMER's impl_Init). Returns false where the CPU has no such mode.
inline bool set_flush_denormals(bool on) {
#if defined(__SSE2__)
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(on ? (csr | kFtzDaz) : (csr & ~kFtzDaz));
  return true;
#else
  (void)on;
  return false;
#endif
}

// Whether the calling thread flushes denormals (false where the CPU has no such mode).
inline bool flush_denormals_on() {
#if defined(__SSE2__)
  return (_mm_getcsr() & kFtzDaz) == kFtzDaz;
#else
  return false;
#endif
}

// Flush-to-zero and denormals-are-zero for the calling thread while in scope; the thread's
// previous mode comes back on destruction. Create and destroy it on the same thread.
class FlushDenormalsScope {
 public:
  FlushDenormalsScope() {
#if defined(__SSE2__)
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | kFtzDaz);
#endif
  }
  ~FlushDenormalsScope() {
#if defined(__SSE2__)
    _mm_setcsr((_mm_getcsr() & ~kFtzDaz) | (saved_ & kFtzDaz));
#endif
  }
  FlushDenormalsScope(const FlushDenormalsScope&) = delete;
  FlushDenormalsScope& operator=(const FlushDenormalsScope&) = delete;

 private:
  unsigned saved_ = 0;
};

}  // namespace gpuseq
