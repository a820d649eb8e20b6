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

  std::vector<int32_t> order(lengths.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return lengths[a] > lengths[b]; });

  // Longest first onto the shortest column so far (lowest index on ties).
  using Column = std::pair<int64_t, int32_t>;  // (rows so far, column)
  std::priority_queue<Column, std::vector<Column>, std::greater<Column>> shortest;
  for (int64_t c = 0; c < columns; ++c) shortest.push({0, static_cast<int32_t>(c)});
  std::vector<int64_t> height(static_cast<size_t>(columns), 0);
  std::vector<int32_t> column_of(lengths.size(), -1);
  std::vector<int64_t> row_of(lengths.size(), 0);
  std::vector<int32_t> placed;  // in placement order: top down within every column
  for (int32_t p : order) {
    if (lengths[p] + 1 > limit) {
      plan.single.push_back(p);
      continue;
    }
    const auto [rows, c] = shortest.top();
    shortest.pop();
    column_of[p] = c;
    row_of[p] = rows;
    height[c] = rows + lengths[p] + 1;
    shortest.push({height[c], c});
    placed.push_back(p);
  }
  std::sort(plan.single.begin(), plan.single.end());

  plan.column_start.assign(static_cast<size_t>(columns) + 1, 0);
  for (int32_t p : placed) ++plan.column_start[column_of[p] + 1];
  for (int64_t c = 0; c < columns; ++c) plan.column_start[c + 1] += plan.column_start[c];
  plan.column_items.resize(placed.size());
  std::vector<int32_t> next(plan.column_start.begin(), plan.column_start.end() - 1);
  for (int32_t p : placed) plan.column_items[next[column_of[p]]++] = p;

  // Heights: the longest column of each warp, in whole 128-byte loads of S-byte rows.
  const int64_t rows_per_load = std::max(1, 128 / S);
  plan.warp_rows.assign(plan.warps, 0);
  plan.warp_offset.assign(static_cast<size_t>(plan.warps) + 1, 0);
  for (int w = 0; w < plan.warps; ++w) {
    int64_t rows = 0;
    for (int c = 0; c < S; ++c) rows = std::max(rows, height[static_cast<size_t>(w) * S + c]);
    rows = (rows + rows_per_load - 1) / rows_per_load * rows_per_load;
    if (rows > INT32_MAX) throw std::length_error("a sequence block is over 2^31 rows");
    plan.warp_rows[w] = static_cast<int32_t>(rows);
    plan.warp_offset[w + 1] = plan.warp_offset[w] + rows * S;
  }
  for (int32_t p : placed)
    plan.item_offset[p] = plan.warp_offset[column_of[p] / S] + row_of[p] * S + column_of[p] % S;
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
    uint8_t* column = blocks.data() + plan.item_offset[p];
    for (int64_t i = 0; i < L; ++i) column[i * S] = seq[i];
    column[L * S] = kBlockEndMarker;
  }
  return blocks;
}

}  // namespace gpuseq::hmm
