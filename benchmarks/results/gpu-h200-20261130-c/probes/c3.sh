# Session 66, call 3: thread_exit.cu (built on the build host: nvcc -O2 -std=c++17 -arch=sm_90,
# carried as .carry/tools/thread_exit): a thread that used CUDA ends while another allocates.
# Five processes per mode side by side (15 on 16 cores, as the fuzzing's load), 60 s each.
set -uo pipefail
X=$PWD/.carry/tools/thread_exit; O=/tmp/o3; mkdir -p $O
for m in ptds stream plain; do for i in 1 2 3 4 5; do
  ( timeout 120 $X $m 60 > $O/$m-$i.log 2>&1; echo "$m $i rc $?" >> $O/rc.txt ) &
done; done
wait; sort $O/rc.txt | tr '\n' ';'; echo; cat $O/*.log
tar -C $O -czf $OUT/call-3.tar.gz .
