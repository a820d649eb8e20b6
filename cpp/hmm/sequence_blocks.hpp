// Warp-based sequence data blocks (CUDAMPF++, Jiang et al. 2018, section 3.2): the targets of
// one launch of the S-lane SSV/MSV kernels (cuda/hmm/msv_multi.cuh) laid out so that a warp
// reads one row of all its S sequences with one coalesced load.
//
// Warp w owns a block of rows x S bytes, in groups of kBlockRowsPerWord = 4 rows: in a group,
// column c's 4 bytes (one per row) make word c, so a thread reads 4 rows of its column with one
// 32-bit load and takes a row's residue with a shift (block_byte gives the byte of row r,
// column c). Row-major bytes, as the paper has them, cost a shuffle a row to hand each thread
// its residue. A column is the concatenation of its sequences, each followed by
// kBlockEndMarker, then kBlockPadMarker down to the block's height (its longest column, rounded
// up to whole groups). The kernel walks the rows; at an end marker it records that sequence's
// score and starts afresh.
// Targets are placed longest first, each on a column that is shortest so far (ties: the one that
// got there first), so columns grow top to bottom in decreasing length, the longest targets share
// the first warps and the block heights come out even. A target longer than the block limit would
// hold its warp S times longer than a warp of its own takes: it is left to the warp-per-target
// kernel (`single`). Pure host code; the GPU fills the same layout from its resident targets.
#pragma once

#include <cstdint>
#include <vector>

#include "common/sequence_chunk.hpp"

namespace gpuseq::hmm {

// Codes after the 29 residue codes (common/alphabet.hpp): score tables give them minus infinity.
inline constexpr uint8_t kBlockEndMarker = 29;
inline constexpr uint8_t kBlockPadMarker = 30;

// A target whose length + 1 exceeds this many mean column heights goes to the warp-per-target
// kernel: its warp would otherwise work S times longer than every other. Provisional, to be
// measured: the longest target kept sets the S-lane kernel's time (on 285k log-normal targets,
// 100M residues, S = 64 on 2112 warps: blocks of at most 1480 rows, 728 on average, 1.8% of
// the residues left to a warp each); 1 would halve that and leave more to the other kernel.
inline constexpr int kBlockLimitOverMean = 2;

// Rows whose bytes of one column form a word (see above).
inline constexpr int kBlockRowsPerWord = 4;

// Byte of row r, column c of a block of S columns, from the block's first byte.
inline constexpr int64_t block_byte(int64_t row, int column, int S) {
  return (row / kBlockRowsPerWord * S + column) * kBlockRowsPerWord + row % kBlockRowsPerWord;
}

struct SequenceBlockPlan {
  int sequences_per_warp = 1;          // S: columns per warp
  int warps = 0;                       // blocks (one per warp)
  std::vector<int64_t> warp_offset;    // warps + 1: first byte of each warp's block
  std::vector<int32_t> warp_rows;      // rows of each block (a multiple of 4; 0 if empty)
  std::vector<int32_t> column_start;   // warps * S + 1: each column's range in column_items
  std::vector<int32_t> column_items;   // positions of the placed targets, column by column, top down
  std::vector<int64_t> item_offset;    // per position: byte of its first residue; -1 if in single
  std::vector<int32_t> single;         // positions left to the warp-per-target kernel, ascending
  int64_t bytes() const { return warp_offset.empty() ? 0 : warp_offset.back(); }
};

// Positions 0..n-1 by decreasing lengths[p], equal lengths in position order: a counting sort
// where the lengths are protein-sized (1.4 M targets in milliseconds, where a comparison sort
// takes a fifth of a second), a stable comparison sort otherwise. The blocks below and the GPU
// kernels' longest-first launch order both take it.
std::vector<int32_t> longest_first_order(const std::vector<int64_t>& lengths);

// The lengths of a set of targets, indexed once for every model searched against them: the
// non-empty targets ascending, their distinct lengths ascending, each target's index among those
// (-1: empty) and, when there are order_from non-empty targets or more, the positions in non_empty
// longest first (longest_first_order's order). A counting pass where the longest target allows
// it: with it, the GPU upload's host work for 1.4 M targets took 40 ms where a pass per array and
// a sort took 85 (2-core build machine; results/gpu-h200-20261130-h).
struct TargetLengthIndex {
  std::vector<int32_t> non_empty;
  std::vector<int64_t> lengths;
  std::vector<int32_t> length_class;
  std::vector<int32_t> longest_first;
};
TargetLengthIndex index_target_lengths(const SequenceBatch& batch, int64_t order_from);

// Plans the blocks of targets with these lengths (positions 0..n-1) for S = sequences_per_warp
// (a power of two, 1 to 128) on at most max_warps warps (the resident warps of the device).
SequenceBlockPlan plan_sequence_blocks(const std::vector<int64_t>& lengths, int sequences_per_warp,
                                       int max_warps);

// The blocks' bytes on the host: position p is target ids[p] of `batch` (the GPU builds the same
// bytes itself, cuda/hmm/gpu_filters.cu; this one is for tests).
std::vector<uint8_t> fill_sequence_blocks(const SequenceBlockPlan& plan, const SequenceBatch& batch,
                                          const std::vector<int32_t>& ids);

}  // namespace gpuseq::hmm
