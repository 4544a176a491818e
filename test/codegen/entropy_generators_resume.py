# A generator made without a seed in every step of the training loop
# (`rng = np.random.default_rng()`): seeded from the run's seed, the site
# and how many were made there before, a count the checkpoint saves. A run
# resumed from the checkpoint of step 2, whose fast-forward makes none of
# the generators of steps 0-2, goes on with step 3's: it ends where the
# uninterrupted run does.
# RUN: rm -rf %t.dir && mkdir -p %t.dir
# RUN: detc transform %s --emit-python -o %t.dir/out.py
# RUN: cd %t.dir && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python out.py > whole
# RUN: rm -f %t.dir/ck.pt*
# RUN: cd %t.dir && not env CRASH_AT=2 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python out.py
# RUN: cd %t.dir && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python out.py --detc-resume ck.pt > resumed
# RUN: diff %t.dir/whole %t.dir/resumed
import os
import sys

import numpy as np
import torch


def main():
    w = torch.zeros(1)
    for step in range(6):
        rng = np.random.default_rng()
        w = w + float(rng.uniform())
        torch.save({"w": w, "step": step}, "ck.pt")
        if os.environ.get("CRASH_AT") == str(step):
            sys.exit(1)
    print(float(w))


if __name__ == "__main__":
    main()
