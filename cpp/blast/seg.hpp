// SEG low-complexity masking (Wootton & Federhen 1993) as NCBI's blast_seg.c computes it; the
// composition stage masks subjects with window 10, locut 1.8, hicut 2.1 (spec: blastp.md 14.2).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace gpuseq::blast {

struct SegParameters {
  int window = 12;
  double locut = 2.2;
  double hicut = 2.5;
  int maxtrim = 50;
  int maxbogus = 2;  // windows with more non-standard letters get no entropy
};

// The composition stage's parameters for subjects (BLASTP_MASK_INSTRUCTIONS "S 10 1.8 2.1").
inline constexpr SegParameters kCompositionSegParameters{10, 1.8, 2.1, 50, 2};

// SeqBufferSeg: the low-complexity segments of an NCBIstdaa sequence, [begin, end] inclusive,
// after NCBI's merge of overlapping segments; in no particular order.
std::vector<std::pair<int32_t, int32_t>> seg_segments(const uint8_t* codes, int32_t length,
                                                      const SegParameters& parameters);

// The segments replaced by X (Blast_MaskTheResidues); returns whether anything was masked.
bool seg_mask(uint8_t* codes, int32_t length, const SegParameters& parameters);

}  // namespace gpuseq::blast
