// Genotype data and distance tiles on the device: the GPU twin of cpp/distance/genotypes.*,
// which encodes the data (bit planes) and computes on the CPU. Here the encodings are uploaded
// in the layouts the kernels read, and output tiles are copied back.
#pragma once

#include <vector_types.h>

#include <cstdint>
#include <vector>

#include "common/check.cuh"
#include "distance/engine.hpp"
#include "distance/genotypes.hpp"

namespace gpuseq::cuda {

// Device buffer for one output tile, grown on demand.
struct TileBuffer {
  DeviceArray<int32_t> data;
  size_t capacity = 0;
  int32_t* get(size_t count);
};

// Through pinned staging, the host rows written by `threads` threads (cuda/common/device.cu).
void copy_tile_to_host(const int32_t* device, const distance::OutputTile& tile, int32_t* host,
                       int threads);
void fill_host_tile(const distance::OutputTile& tile, int32_t* host, int32_t value);

// k nearest on the device (the twin of engine.cpp's host merge, same order and empty slots):
// `distances` is a block of the tile's columns, rows x cols on the device; index/distance are
// device arrays of rows x k holding the k best of the earlier blocks (index -1: empty), which
// this merges the block into.
inline constexpr int kMaxDeviceNearest = 64;
void select_nearest_on_device(const int32_t* distances, const distance::NearestTile& tile,
                              int64_t* index, int32_t* distance);

// The paper's layouts: int32 attribute-major ("naive") or instance-major ("coalesced"), and
// char4 rows of `quads` groups of four attributes, zero-padded ("char4", "register", "shared").
DeviceArray<int> upload_int(const distance::GenotypeMatrix& m, bool attribute_major);
DeviceArray<char4> upload_char4(const distance::GenotypeMatrix& m, int quads);

// A bit matrix on the device: rows of k_words 32-bit words.
struct DeviceBits {
  DeviceArray<uint32_t> words;
  int64_t rows = 0, k_words = 0;
  const uint32_t* row(int64_t i) const { return words.get() + i * k_words; }
};

DeviceBits upload_bits(const uint64_t* host, int64_t rows, int64_t words64);

// Valid-attribute mask of rows [r0, r1) repeated once per value plane, so that its product
// with a plane row counts set bits where the other instance has a value.
std::vector<uint64_t> repeat_valid(const distance::BitPlanes& p, int64_t r0, int64_t r1);

}  // namespace gpuseq::cuda
