#include "distance/engine.hpp"

// ---- CPU engines --------------------------------------------------------------------------------

namespace gpuseq::distance {

namespace {

class CpuLoopEngine : public DistanceEngine {
 public:
  explicit CpuLoopEngine(const DistanceProblem& p) : p_(p) {}
  void compute(const OutputTile& tile) override {
    distances_cpu_loop(p_.x, p_.y, p_.metric, tile, p_.threads);
  }

 private:
  DistanceProblem p_;
};

class CpuBitPlaneEngine : public DistanceEngine {
 public:
  explicit CpuBitPlaneEngine(const DistanceProblem& p)
      : p_(p),
        x_(encode_bit_planes(p.x, p.alphabet_size, p.metric, p.missing)),
        y_(p.y.values == p.x.values ? BitPlanes() :
               encode_bit_planes(p.y, p.alphabet_size, p.metric, p.missing)) {}
  void compute(const OutputTile& tile) override {
    distances_bit_planes(x_, y_.instances > 0 ? y_ : x_, p_.metric, tile, p_.threads);
  }

 private:
  DistanceProblem p_;
  BitPlanes x_, y_;
};

}  // namespace

std::unique_ptr<DistanceEngine> make_cpu_engine(const std::string& kernel,
                                                const DistanceProblem& problem) {
  if (kernel == "cpu") return std::make_unique<CpuLoopEngine>(problem);
  if (kernel == "bitplane") return std::make_unique<CpuBitPlaneEngine>(problem);
  throw std::invalid_argument("unknown CPU distance kernel '" + kernel + "'");
}

}  // namespace gpuseq::distance
