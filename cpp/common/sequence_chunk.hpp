// A batch of digitized sequences in one contiguous buffer: what the FASTA reader produces, what
// the packed database stores, and what every filter consumes (CPU or GPU).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/uninitialized.hpp"

namespace gpuseq {

// Non-owning view: sequence i is residues[offsets[i] .. offsets[i+1]) as alphabet codes 0..28.
struct SequenceBatch {
  const uint8_t* residues = nullptr;
  const int64_t* offsets = nullptr;  // count + 1 entries, offsets[0] == 0 not required
  int64_t count = 0;

  int64_t length(int64_t i) const { return offsets[i + 1] - offsets[i]; }
  const uint8_t* sequence(int64_t i) const { return residues + offsets[i]; }
};

// Residues as the FASTA reader fills them, never zeroed first (see UninitializedAllocator).
using ResidueBuffer = std::vector<uint8_t, UninitializedAllocator<uint8_t>>;

// Owning storage with names and descriptions (as Easel splits a FASTA header line).
struct SequenceChunk {
  ResidueBuffer residues;
  std::vector<int64_t> offsets{0};
  std::string names;
  std::vector<int64_t> name_offsets{0};
  std::string descriptions;
  std::vector<int64_t> description_offsets{0};

  int64_t count() const { return static_cast<int64_t>(offsets.size()) - 1; }
  SequenceBatch batch() const { return {residues.data(), offsets.data(), count()}; }
};

}  // namespace gpuseq
