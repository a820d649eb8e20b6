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
