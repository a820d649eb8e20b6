// GPU MRF segmentation (the CUDA twin of cpp/mrf/segment.cpp), as the bindings see it: plain
// C++, no CUDA headers. Defined in cuda/mrf/segment.cu.
#pragma once

#include <cstdint>

#include "mrf/segment.hpp"

namespace gpuseq::cuda {

enum class MrfKernel {
  kTiled,  // the default: a block per 64 x 8 x 8 tile, its labels (bytes) and their one-voxel
           // halo in shared memory
  kPaper,  // Walters et al. 2009's layout: a thread per x column walking y and z, neighbours
           // read from global memory (x-fastest, so a warp's reads are coalesced)
};

// mrf::segment on the current CUDA device: the same checks, the same labels (in place) and
// the same SegmentResult bit for bit. distance::DeviceOutOfMemory when the volume does not fit
// in the device's free memory.
mrf::SegmentResult segment_mrf(const float* intensity, uint8_t* labels, mrf::VolumeShape shape,
                               const mrf::SegmentOptions& options, MrfKernel kernel);

}  // namespace gpuseq::cuda
