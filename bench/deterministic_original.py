#!/usr/bin/env python3
"""Runs a training script as `python SCRIPT ARGS...` would, with the
deterministic-kernel settings a transformed script's header makes
(`detc_runtime.configure`: torch.use_deterministic_algorithms(True),
CUBLAS_WORKSPACE_CONFIG, cuDNN deterministic and not benchmarking).
bench/transform_overhead.py --deterministic-original runs the original
this way, so that its figure is what detc's runtime adds, apart from the
price of deterministic kernels (which a user wanting bit-identical runs
pays with or without detc).

usage: deterministic_original.py SCRIPT [ARGS...]
"""
import os
import runpy
import sys

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import torch  # noqa: E402

torch.use_deterministic_algorithms(True)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False

if __name__ == "__main__":
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
