# count.sh INC S H : compile ssv_multi_kernel<16,S,H> with headers from INC, print per-kernel stats
INC=$1; S=$2; H=$3; shift 3
cat > /tmp/regs/one.cu <<EOT
#include "hmm/msv_multi.cuh"
namespace h = gpuseq::cuda::hmm;
template __global__ void h::ssv_multi_kernel<16, $S, $H>(const uint32_t*, int, int, h::BlockList);
EOT
/usr/local/cuda/bin/nvcc -std=c++17 -arch=sm_90a -cubin "$@" -Xptxas -v -I$INC -I/work/main/cuda -I/work/main/cpp /tmp/regs/one.cu -o /tmp/regs/one.cubin 2>&1 | grep -E "registers|spill" | grep -v "0 bytes spill stores, 0 bytes spill loads" | head -2
/tmp/cuobj/x/nvidia/cu13/bin/nvdisasm -c /tmp/regs/one.cubin > /tmp/regs/one.sass
n=$(grep -c ";" /tmp/regs/one.sass); lds=$(grep -c "LDS" /tmp/regs/one.sass); mov=$(grep -c "IMAD.MOV\|  MOV " /tmp/regs/one.sass)
echo "S=$S H=$H total $n LDS $lds MOV $mov"
