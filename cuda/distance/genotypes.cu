#include <algorithm>

#include "distance/genotypes.cuh"

namespace gpuseq::cuda {

int32_t* TileBuffer::get(size_t count) {
  if (count > capacity) {
    // Free first (the new buffer may need that memory) and forget the capacity before the
    // allocation that may fail: a smaller retry must allocate, never get the freed pointer.
    data.reset();
    capacity = 0;
    data = device_alloc<int32_t>(count);
    capacity = count;
  }
  return data.get();
}

void copy_tile_to_host(const int32_t* device, const distance::OutputTile& tile, int32_t* host,
                       int threads) {
  const int64_t rows = tile.row_end - tile.row_begin, cols = tile.col_end - tile.col_begin;
  copy_to_host_2d(host, tile.stride * sizeof(int32_t), device, cols * sizeof(int32_t),
                  cols * sizeof(int32_t), rows, threads);
}

void fill_host_tile(const distance::OutputTile& tile, int32_t* host, int32_t value) {
  for (int64_t r = 0; r < tile.row_end - tile.row_begin; ++r)
    std::fill(host + r * tile.stride, host + r * tile.stride + (tile.col_end - tile.col_begin),
              value);
}

namespace {

// Key (distance << 32 | column): distances are not negative, columns below 2^32, so keys are
// unique and order by distance, then column; an empty slot is the largest key.
constexpr uint64_t kEmptyKey = ~uint64_t{0};

// Into an ascending list held in registers (K fixed, the loop unrolled): the largest falls off.
template <int K>
__device__ void insert_key(uint64_t (&best)[K], uint64_t key) {
#pragma unroll
  for (int s = 0; s < K; ++s) {
    const uint64_t low = min(best[s], key);
    key = max(best[s], key);
    best[s] = low;
  }
}

// A warp per row. Each lane keeps the K >= k best keys of its columns (the row's k best are
// among the lanes' K best); lane 0 starts from the row's k best of earlier blocks. The lanes'
// lists are then merged k times by a warp minimum, whose owner drops its head.
template <int K>
__global__ void select_nearest_kernel(const int32_t* distances, int64_t rows, int64_t cols,
                                      int64_t row_begin, int64_t col_begin, int k, bool skip_self,
                                      int64_t* index, int32_t* distance) {
  const int64_t r = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (r >= rows) return;  // the whole warp: rows are warp-uniform
  uint64_t best[K];
#pragma unroll
  for (int s = 0; s < K; ++s) best[s] = kEmptyKey;
  if (lane == 0)
    for (int s = 0; s < k; ++s)
      if (index[r * k + s] >= 0)
        insert_key(best, static_cast<uint64_t>(static_cast<uint32_t>(distance[r * k + s])) << 32 |
                             static_cast<uint64_t>(index[r * k + s]));
  const int64_t i = row_begin + r;
  const int32_t* row = distances + r * cols;
  constexpr int kLoads = 4;  // loads in flight per lane before the compares
  for (int64_t c0 = lane; c0 < cols; c0 += 32 * kLoads) {
    int32_t value[kLoads];
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      const int64_t c = c0 + 32 * u;
      value[u] = c < cols ? __ldcs(row + c) : 0;  // read once: streaming
    }
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      const int64_t c = c0 + 32 * u, j = col_begin + c;
      if (c >= cols || (skip_self && j == i)) continue;
      const uint64_t key =
          static_cast<uint64_t>(static_cast<uint32_t>(value[u])) << 32 | static_cast<uint64_t>(j);
      if (key < best[K - 1]) insert_key(best, key);
    }
  }
  for (int s = 0; s < k; ++s) {
    uint64_t least = best[0];
    for (int offset = 16; offset > 0; offset /= 2)
      least = min(least, __shfl_xor_sync(0xffffffffu, least, offset));
    if (least != kEmptyKey && best[0] == least) {  // unique keys: one lane gave it
#pragma unroll
      for (int t = 0; t + 1 < K; ++t) best[t] = best[t + 1];
      best[K - 1] = kEmptyKey;
    }
    if (lane == 0) {
      const bool found = least != kEmptyKey;
      index[r * k + s] = found ? static_cast<int64_t>(least & 0xffffffffu) : -1;
      distance[r * k + s] =
          found ? static_cast<int32_t>(least >> 32) : distance::kNoNeighbourDistance;
    }
  }
}

}  // namespace

void select_nearest_on_device(const int32_t* distances, const distance::NearestTile& tile,
                              int64_t* index, int32_t* distance) {
  const int64_t rows = tile.row_end - tile.row_begin, cols = tile.col_end - tile.col_begin;
  if (tile.k < 1 || tile.k > kMaxDeviceNearest)
    throw std::invalid_argument("k out of the device selection's range");
  constexpr int kThreads = 256;
  const auto blocks = static_cast<unsigned>((rows * 32 + kThreads - 1) / kThreads);
  auto launch = [&](auto kernel) {
    kernel<<<blocks, kThreads>>>(distances, rows, cols, tile.row_begin, tile.col_begin, tile.k,
                                 tile.skip_self, index, distance);
  };
  if (tile.k <= 8)
    launch(select_nearest_kernel<8>);
  else if (tile.k <= 16)
    launch(select_nearest_kernel<16>);
  else if (tile.k <= 32)
    launch(select_nearest_kernel<32>);
  else
    launch(select_nearest_kernel<64>);
  GPUSEQ_CUDA_CHECK_LAUNCH("select_nearest_kernel");
}

DeviceArray<int> upload_int(const distance::GenotypeMatrix& m, bool attribute_major) {
  std::vector<int> host(static_cast<size_t>(m.instances * m.attributes));
  for (int64_t i = 0; i < m.instances; ++i)
    for (int64_t k = 0; k < m.attributes; ++k)
      host[attribute_major ? k * m.instances + i : i * m.attributes + k] = m.row(i)[k];
  return device_copy(host.data(), host.size());
}

DeviceArray<char4> upload_char4(const distance::GenotypeMatrix& m, int quads) {
  std::vector<char> host(static_cast<size_t>(m.instances) * quads * 4, 0);
  for (int64_t i = 0; i < m.instances; ++i)
    std::copy(m.row(i), m.row(i) + m.attributes, host.begin() + i * quads * 4);
  return device_copy(reinterpret_cast<const char4*>(host.data()), host.size() / 4);
}

DeviceBits upload_bits(const uint64_t* host, int64_t rows, int64_t words64) {
  DeviceBits d;
  d.rows = rows;
  d.k_words = words64 * 2;  // little-endian: a 64-bit word is two 32-bit words, same bits
  d.words =
      device_copy(reinterpret_cast<const uint32_t*>(host), static_cast<size_t>(rows * d.k_words));
  return d;
}

std::vector<uint64_t> repeat_valid(const distance::BitPlanes& p, int64_t r0, int64_t r1) {
  std::vector<uint64_t> out(static_cast<size_t>((r1 - r0) * p.row_words()));
  for (int64_t i = r0; i < r1; ++i)
    for (int plane = 0; plane < p.planes; ++plane)
      std::copy(p.valid_row(i), p.valid_row(i) + p.plane_words,
                out.begin() + (i - r0) * p.row_words() + plane * p.plane_words);
  return out;
}

}  // namespace gpuseq::cuda
