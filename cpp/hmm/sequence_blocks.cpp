#include "hmm/sequence_blocks.hpp"

#include <algorithm>
#include <climits>
#include <functional>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

namespace gpuseq::hmm {

namespace {

// Positions by decreasing length (equal lengths in position order), and their lengths.
struct LengthOrder {
  std::vector<int32_t> position;
  std::vector<int64_t> length;
};

// Positions by decreasing length; with sorted_lengths, their lengths too, from the counting
// sort's buckets where it runs (a gather of the lengths by position: 60 against 56 ms for a plan
// of 1.4 M targets on the 2-core build machine).
std::vector<int32_t> sort_longest_first(const std::vector<int64_t>& lengths,
                                        std::vector<int64_t>* sorted_lengths) {
  std::vector<int32_t> position(lengths.size());
  int64_t longest = 0;
  for (int64_t L : lengths) longest = std::max(longest, L);
  if (longest > (int64_t{1} << 20) || longest > 8 * static_cast<int64_t>(lengths.size()) + 4096) {
    std::iota(position.begin(), position.end(), 0);
    std::stable_sort(position.begin(), position.end(),
                     [&](int32_t a, int32_t b) { return lengths[a] > lengths[b]; });
    if (sorted_lengths != nullptr) {
      sorted_lengths->resize(lengths.size());
      for (size_t k = 0; k < lengths.size(); ++k) (*sorted_lengths)[k] = lengths[position[k]];
    }
    return position;
  }
  // Counting sort: places [start[d], start[d + 1]) hold length longest - d.
  std::vector<int64_t> start(static_cast<size_t>(longest) + 2, 0);
  for (int64_t L : lengths) ++start[static_cast<size_t>(longest - L) + 1];
  for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
  if (sorted_lengths != nullptr) {
    sorted_lengths->resize(lengths.size());
    for (size_t d = 0; d + 1 < start.size(); ++d)
      std::fill(sorted_lengths->begin() + start[d], sorted_lengths->begin() + start[d + 1],
                longest - static_cast<int64_t>(d));
  }
  for (size_t p = 0; p < lengths.size(); ++p)
    position[start[static_cast<size_t>(longest - lengths[p])]++] = static_cast<int32_t>(p);
  return position;
}

LengthOrder longest_first(const std::vector<int64_t>& lengths) {
  LengthOrder order;
  order.position = sort_longest_first(lengths, &order.length);
  return order;
}

// Columns by height for the greedy placement, as buckets of `width` rows (1 unless the
// heights are huge), first in first out within a bucket. The placement always extends a lowest
// column, so the lowest non-empty bucket only moves up: every operation is O(1) amortized,
// where a heap took 100 ns a target (16 ms of a 180,000-target chunk's 18).
class ColumnsByHeight {
 public:
  ColumnsByHeight(int64_t columns, int64_t max_height)
      : width_(std::max<int64_t>(1, max_height / kMaxBuckets + 1)),
        head_(static_cast<size_t>(max_height / width_ + 1), -1),
        tail_(head_.size(), -1),
        next_(static_cast<size_t>(columns), -1) {}

  void push(int32_t column, int64_t height) {
    const size_t b = static_cast<size_t>(height / width_);
    next_[column] = -1;
    if (tail_[b] < 0)
      head_[b] = column;
    else
      next_[tail_[b]] = column;
    tail_[b] = column;
  }

  int32_t pop_lowest() {
    while (head_[lowest_] < 0) ++lowest_;
    const int32_t column = head_[lowest_];
    head_[lowest_] = next_[column];
    if (head_[lowest_] < 0) tail_[lowest_] = -1;
    return column;
  }

 private:
  static constexpr int64_t kMaxBuckets = int64_t{1} << 20;
  int64_t width_;
  std::vector<int32_t> head_, tail_, next_;
  size_t lowest_ = 0;
};

}  // namespace

std::vector<int32_t> longest_first_order(const std::vector<int64_t>& lengths) {
  return sort_longest_first(lengths, nullptr);
}

TargetLengthIndex index_target_lengths(const SequenceBatch& batch, int64_t order_from) {
  TargetLengthIndex index;
  const int64_t n = batch.count;
  index.length_class.assign(static_cast<size_t>(n), -1);
  int64_t longest = 0, non_empty = 0;
  for (int64_t i = 0; i < n; ++i) {
    longest = std::max(longest, batch.length(i));
    non_empty += batch.length(i) > 0;
  }
  index.non_empty.reserve(static_cast<size_t>(non_empty));
  const bool order = non_empty >= order_from;
  if (longest > (int64_t{1} << 24)) {  // a sort of the lengths
    for (int64_t i = 0; i < n; ++i)
      if (batch.length(i) > 0) {
        index.non_empty.push_back(static_cast<int32_t>(i));
        index.lengths.push_back(batch.length(i));
      }
    std::vector<int64_t> lengths = index.lengths;  // per non-empty target
    std::sort(index.lengths.begin(), index.lengths.end());
    index.lengths.erase(std::unique(index.lengths.begin(), index.lengths.end()),
                        index.lengths.end());
    for (int32_t i : index.non_empty)
      index.length_class[i] = static_cast<int32_t>(
          std::lower_bound(index.lengths.begin(), index.lengths.end(), batch.length(i)) -
          index.lengths.begin());
    if (order) index.longest_first = longest_first_order(lengths);
    return index;
  }
  // Targets per length, then each length's class in place of its count.
  std::vector<int32_t> class_of(static_cast<size_t>(longest) + 1, 0);
  for (int64_t i = 0; i < n; ++i)
    if (const int64_t L = batch.length(i); L > 0) {
      ++class_of[L];
      index.non_empty.push_back(static_cast<int32_t>(i));
    }
  std::vector<int32_t> first_place;  // per class: its first place longest first
  for (int64_t L = 1; L <= longest; ++L)
    if (class_of[L] > 0) {
      first_place.push_back(class_of[L]);
      class_of[L] = static_cast<int32_t>(index.lengths.size());
      index.lengths.push_back(L);
    }
  int32_t place = 0;  // the classes' counts become their first places, the longest first
  for (size_t c = first_place.size(); c-- > 0;) {
    const int32_t count = first_place[c];
    first_place[c] = place;
    place += count;
  }
  for (int32_t i : index.non_empty) index.length_class[i] = class_of[batch.length(i)];
  if (order) {
    index.longest_first.resize(index.non_empty.size());
    for (size_t j = 0; j < index.non_empty.size(); ++j)
      index.longest_first[first_place[index.length_class[index.non_empty[j]]]++] =
          static_cast<int32_t>(j);
  }
  return index;
}

SequenceBlockPlan plan_sequence_blocks(const std::vector<int64_t>& lengths, int sequences_per_warp,
                                       int max_warps) {
  const int S = sequences_per_warp;
  if (S < 1 || S > 128 || (S & (S - 1)) != 0)
    throw std::invalid_argument("sequences per warp must be a power of two from 1 to 128, not " +
                                std::to_string(S));
  if (max_warps < 1) throw std::invalid_argument("sequence blocks need at least one warp");
  const int64_t n = static_cast<int64_t>(lengths.size());
  SequenceBlockPlan plan;
  plan.sequences_per_warp = S;
  plan.item_offset.assign(lengths.size(), -1);
  plan.warps = static_cast<int>(std::min<int64_t>(max_warps, (n + S - 1) / S));
  const int64_t columns = static_cast<int64_t>(plan.warps) * S;

  // Rows a target takes: its residues and its end marker.
  int64_t total = 0;
  for (int64_t L : lengths) total += L + 1;
  const int64_t mean = columns ? (total + columns - 1) / columns : 0;
  const int64_t limit = kBlockLimitOverMean * mean;

  // Longest first (ties in index order): a counting sort when the lengths are protein-sized
  // (every chunk of a search; a comparison sort is 10x slower).
  const LengthOrder order = longest_first(lengths);

  // Longest first onto a shortest column so far: the first `columns` targets take the empty
  // columns in order, the others a lowest column (first come first served on ties).
  // Placements are kept in placement order, top down within every column (sequential arrays:
  // 2x faster than per-target ones).
  if (columns > INT32_MAX) throw std::length_error("sequence blocks: too many columns");
  // No column grows past the lowest one by more than the longest target placed (the limit).
  ColumnsByHeight lowest(columns, mean + limit + 1);
  std::vector<int64_t> height(static_cast<size_t>(columns), 0);
  std::vector<int32_t> placed, placed_column;
  std::vector<int64_t> placed_row;
  placed.reserve(lengths.size());
  placed_column.reserve(lengths.size());
  placed_row.reserve(lengths.size());
  int64_t filled = 0;
  for (size_t k = 0; k < lengths.size(); ++k) {
    const int32_t p = order.position[k];
    const int64_t L = order.length[k];
    if (L + 1 > limit) {
      plan.single.push_back(p);
      continue;
    }
    const int32_t c = filled < columns ? static_cast<int32_t>(filled++) : lowest.pop_lowest();
    placed.push_back(p);
    placed_column.push_back(c);
    placed_row.push_back(height[c]);
    height[c] += L + 1;
    lowest.push(c, height[c]);
  }
  std::sort(plan.single.begin(), plan.single.end());

  plan.column_start.assign(static_cast<size_t>(columns) + 1, 0);
  for (int32_t c : placed_column) ++plan.column_start[c + 1];
  for (int64_t c = 0; c < columns; ++c) plan.column_start[c + 1] += plan.column_start[c];
  plan.column_items.resize(placed.size());
  std::vector<int32_t> next(plan.column_start.begin(), plan.column_start.end() - 1);
  for (size_t k = 0; k < placed.size(); ++k) plan.column_items[next[placed_column[k]]++] = placed[k];

  // Heights: the longest column of each warp, in whole groups of rows.
  plan.warp_rows.assign(plan.warps, 0);
  plan.warp_offset.assign(static_cast<size_t>(plan.warps) + 1, 0);
  for (int w = 0; w < plan.warps; ++w) {
    int64_t rows = 0;
    for (int c = 0; c < S; ++c) rows = std::max(rows, height[static_cast<size_t>(w) * S + c]);
    rows = (rows + kBlockRowsPerWord - 1) / kBlockRowsPerWord * kBlockRowsPerWord;
    if (rows > INT32_MAX) throw std::length_error("a sequence block is over 2^31 rows");
    plan.warp_rows[w] = static_cast<int32_t>(rows);
    plan.warp_offset[w + 1] = plan.warp_offset[w] + rows * S;
  }
  for (size_t k = 0; k < placed.size(); ++k) {
    const int32_t c = placed_column[k];
    plan.item_offset[placed[k]] = plan.warp_offset[c / S] + block_byte(placed_row[k], c % S, S);
  }
  return plan;
}

std::vector<uint8_t> fill_sequence_blocks(const SequenceBlockPlan& plan, const SequenceBatch& batch,
                                          const std::vector<int32_t>& ids) {
  if (ids.size() != plan.item_offset.size())
    throw std::invalid_argument("sequence blocks: the ids are not those of the plan");
  const int S = plan.sequences_per_warp;
  std::vector<uint8_t> blocks(static_cast<size_t>(plan.bytes()), kBlockPadMarker);
  for (size_t p = 0; p < ids.size(); ++p) {
    if (plan.item_offset[p] < 0) continue;
    const uint8_t* seq = batch.sequence(ids[p]);
    const int64_t L = batch.length(ids[p]);
    // From the first residue's byte: its row in its group, and the column's byte in the group's
    // first row.
    const int64_t first_row = plan.item_offset[p] % kBlockRowsPerWord;
    uint8_t* column = blocks.data() + plan.item_offset[p] - first_row;
    for (int64_t i = 0; i <= L; ++i)
      column[block_byte(first_row + i, 0, S)] = i < L ? seq[i] : kBlockEndMarker;
  }
  return blocks;
}

}  // namespace gpuseq::hmm
