#!/usr/bin/env bash
# The GPU check, run on a lent GPU machine (the device tool) from the
# repository root with build/device-kit carried (scripts/device-kit.sh).
# Stages, all by default, or those named as arguments:
#   core   build the runtime core for that machine's python3
#   e2e    test/e2e/cuda.py (keyed values on CUDA == the core's; determinism
#          across workers, kill/resume and JIT restarts on CUDA), beside the
#          runtime's unit tests under that machine's torch
#   bench  keyed draw cost on CUDA (bench/device_draw_cost.py), a
#          checkpoint fingerprint's cost on CUDA (bench/fingerprint_cost.py)
#          and the transformed GPU example's steady-state overhead
#          (bench/transform_overhead.py)
#   profile  where the transformed GPU example's main process spends its
#          time (cProfile, top functions of detc_runtime and overall)
# Each stage has its own time limit, so one that hangs leaves the others
# their time. Writes its log to $OUT (or build/) as device-check.log.
set -uo pipefail
cd "$(dirname "$0")/.."
log="${OUT:-build}/device-check.log"
# The runtime tests' whole log comes back beside it (a failure's traceback).
tests_log="${OUT:-build}/runtime-tests.log"
py=${PYTHON:-python3}
rt=build/device-python
stages=" ${*:-core e2e bench} "
shim=test/device/detc_shim.py
mkdir -p "$rt/detc_runtime"
cp runtime/python/detc_runtime/*.py "$rt/detc_runtime/"
{
  echo "== machine $(date -u +%T)"; nvidia-smi -L 2>&1 | head -2
  $py -c 'import sys, torch; print(sys.version.split()[0], torch.__version__, torch.cuda.is_available())'
  if [[ $stages == *" core "* ]]; then
    echo "== core $(date -u +%T)"
    # That Python's own pybind11 where it has one: Debian's (2.10, in the
    # kit) predates numpy 2's ABI.
    pyb=$($py -c 'import pybind11; print(pybind11.get_include())' 2>/dev/null)
    timeout 180 g++ -O2 -std=c++17 -shared -fPIC -ffp-contract=off \
      -fno-math-errno ${pyb:+-I$pyb} -Ibuild/device-kit/include \
      -Iruntime/include \
      $($py -c 'import sysconfig; print("-I" + sysconfig.get_paths()["include"])') \
      runtime/python/CoreModule.cpp \
      -o "$rt/detc_runtime/_core$($py -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')" \
      && echo built
  fi
  if [[ $stages == *" e2e "* ]]; then
    echo "== e2e on CUDA, runtime tests beside it $(date -u +%T)"
    (PYTHONPATH=$rt timeout 240 $py runtime/python/tests/test_runtime.py \
       > "$tests_log" 2>&1
     echo "runtime tests: exit $?" >> "$tests_log") &
    DETC_E2E_PYTHON=$py timeout 300 $py test/e2e/cuda.py --detc $shim \
      --runtime "$rt"
    echo "e2e: exit $?"
    wait
    tail -4 "$tests_log"
  fi
  if [[ $stages == *" bench "* ]]; then
    echo "== keyed draw cost $(date -u +%T)"
    PYTHONPATH=$rt timeout 90 $py bench/device_draw_cost.py --repeat 10 \
      --cuda-only
    echo "== checkpoint fingerprint vs its write, state on CUDA $(date -u +%T)"
    PYTHONPATH=$rt timeout 120 $py bench/fingerprint_cost.py --repeat 3 \
      --device cuda
    echo "== transformed GPU example, steady-state overhead $(date -u +%T)"
    # Against the original as it is, then against the original with the
    # deterministic kernels the transform turns on: what detc's runtime
    # adds apart from the price of deterministic kernels.
    for vs in "" --deterministic-original; do
      DETC_E2E_PYTHON=$py timeout 240 $py bench/transform_overhead.py $vs \
        --detc $shim --runtime "$rt" --runs 3 --epochs 4 \
        examples/cuda_train.py -- --device cuda --width 64 \
        --batch-size 256 --examples 16384 --workers 4
    done
  fi
  if [[ $stages == *" profile "* ]]; then
    echo "== profile of the transformed GPU example $(date -u +%T)"
    PYTHONPATH=$rt DETC_QUIET=1 timeout 120 $py -m cProfile \
      -o build/cuda_train.prof build/device-kit/transformed/cuda_train.py \
      --device cuda --width 64 --batch-size 256 --examples 16384 \
      --workers 4 --epochs 3 --out build/cuda_train.pt
    $py -c 'import pstats, sys; p = pstats.Stats(sys.argv[1]); p.sort_stats("cumulative").print_stats("detc_runtime", 25); p.sort_stats("tottime").print_stats(15)' \
      build/cuda_train.prof | grep -v "^$" | head -60
  fi
  echo "== done $(date -u +%T)"
} 2>&1 | tee "$log"
