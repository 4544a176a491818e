#!/usr/bin/env bash
# The GPU check, run on a lent GPU machine (the device tool) from the
# repository root with build/device-kit carried (scripts/device-kit.sh):
# builds the runtime core for that machine's python3, then runs the keyed
# draws' device tests and test/e2e/cuda.py (determinism across workers and
# kill/resume of examples/cuda_train.py on CUDA) with the kit's transforms.
# Writes its log to $OUT (or build/) as device-check.log.
set -uo pipefail
cd "$(dirname "$0")/.."
log="${OUT:-build}/device-check.log"
py=${PYTHON:-python3}
rt=build/device-python
mkdir -p "$rt/detc_runtime"
cp runtime/python/detc_runtime/*.py "$rt/detc_runtime/"
{
  echo "== machine"; nvidia-smi -L 2>&1 | head -2
  $py -c 'import sys, torch; print(sys.version.split()[0], torch.__version__, torch.cuda.is_available())'
  echo "== core"
  g++ -O2 -std=c++17 -shared -fPIC -ffp-contract=off -fno-math-errno \
    -Ibuild/device-kit/include -Iruntime/include \
    $($py -c 'import sysconfig; print("-I" + sysconfig.get_paths()["include"])') \
    runtime/python/CoreModule.cpp \
    -o "$rt/detc_runtime/_core$($py -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')" \
    && echo built
  echo "== runtime tests"
  PYTHONPATH=$rt timeout 300 $py runtime/python/tests/test_device_streams.py 2>&1 | tail -5
  PYTHONPATH=$rt timeout 300 $py runtime/python/tests/test_runtime.py 2>&1 | tail -3
  echo "== e2e on CUDA"
  DETC_E2E_PYTHON=$py timeout 900 $py test/e2e/cuda.py \
    --detc test/device/detc_shim.py --runtime "$rt"
  echo "== draw cost"
  PYTHONPATH=$rt timeout 120 $py bench/device_draw_cost.py --repeat 10
} 2>&1 | tee "$log"
