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

__global__ void select_nearest_kernel(const int32_t* distances, int64_t rows, int64_t cols,
                                      int64_t row_begin, int64_t col_begin, int k,
                                      bool skip_self, int64_t* index, int32_t* distance) {
  const int64_t r = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (r >= rows) return;  // the whole warp: rows are warp-uniform
  // Key (distance << 32 | column): distances are not negative, columns below 2^31, so keys
  // are unique and order by distance, then column; an empty slot is the largest key.
  constexpr uint64_t kEmpty = ~uint64_t{0};
  uint64_t best[kMaxDeviceNearest];
  for (int s = 0; s < k; ++s) best[s] = kEmpty;
  const int64_t i = row_begin + r;
  const int32_t* row = distances + r * cols;
  for (int64_t c = lane; c < cols; c += 32) {
    const int64_t j = col_begin + c;
    if (skip_self && j == i) continue;
    const uint64_t key = static_cast<uint64_t>(static_cast<uint32_t>(row[c])) << 32 |
                         static_cast<uint64_t>(j);
    if (key >= best[k - 1]) continue;
    int s = k - 1;
    for (; s > 0 && best[s - 1] > key; --s) best[s] = best[s - 1];
    best[s] = key;
  }
  int head = 0;  // this lane's next key
  for (int s = 0; s < k; ++s) {
    const uint64_t mine = head < k ? best[head] : kEmpty;
    uint64_t least = mine;
    for (int offset = 16; offset > 0; offset /= 2)
      least = min(least, __shfl_xor_sync(0xffffffffu, least, offset));
    if (least != kEmpty && mine == least) ++head;  // unique keys: one lane gave it
    if (lane == 0) {
      const bool found = least != kEmpty;
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
  const int64_t blocks = (rows * 32 + kThreads - 1) / kThreads;
  select_nearest_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(
      distances, rows, cols, tile.row_begin, tile.col_begin, tile.k, tile.skip_self, index,
      distance);
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

std::vector<uint64_t> repeat_valid(const distance::BitPlanes& p) {
  std::vector<uint64_t> out(static_cast<size_t>(p.instances * p.row_words()));
  for (int64_t i = 0; i < p.instances; ++i)
    for (int plane = 0; plane < p.planes; ++plane)
      std::copy(p.valid_row(i), p.valid_row(i) + p.plane_words,
                out.begin() + i * p.row_words() + plane * p.plane_words);
  return out;
}

}  // namespace gpuseq::cuda
