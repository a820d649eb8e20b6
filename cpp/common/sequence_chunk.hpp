// A batch of digitized sequences in one contiguous buffer: what the FASTA reader produces, what
// the packed database stores, and what every filter consumes (CPU or GPU).
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace gpuseq {

// Non-owning view: sequence i is residues[offsets[i] .. offsets[i+1]) as alphabet codes 0..28.
struct SequenceBatch {
  const uint8_t* residues = nullptr;
  const int64_t* offsets = nullptr;  // count + 1 entries, offsets[0] == 0 not required
  int64_t count = 0;

  int64_t length(int64_t i) const { return offsets[i + 1] - offsets[i]; }
  const uint8_t* sequence(int64_t i) const { return residues + offsets[i]; }
};

// An allocator whose resize leaves new elements default-initialized (for bytes: unwritten), for
// buffers written right after they grow: the FASTA reader's text and residues skip a zeroing
// pass over every byte (326 MB in 64 MB blocks on 2 cores: 0.46-0.47 -> 0.31-0.32 s;
// benchmarks/results/fasta-reader-devhost-20261128).
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

// Residues as the reader fills them (see DefaultInitAllocator).
using ResidueBuffer = std::vector<uint8_t, DefaultInitAllocator<uint8_t>>;

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
