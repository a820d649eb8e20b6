// The calling thread's handling of denormal floats.
#pragma once

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace gpuseq {

// Flush-to-zero and denormals-are-zero on (or off) for the calling thread, as hmmsearch sets
// them at start-up (HMMER's impl_Init). Returns false where the CPU has no such mode.
inline bool set_flush_denormals(bool on) {
#if defined(__SSE2__)
  constexpr unsigned kFtzDaz = 0x8040;  // MXCSR bits 15 (FTZ) and 6 (DAZ)
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(on ? (csr | kFtzDaz) : (csr & ~kFtzDaz));
  return true;
#else
  (void)on;
  return false;
#endif
}

}  // namespace gpuseq
