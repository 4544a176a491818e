# A seed call without a seed, or given None, seeds from the operating
# system's entropy: `random.seed()`, `torch.seed()`, a generator's
# `seed()`, and — the common shape — `random.seed(args.seed)` with
# `--seed` defaulting to None. The transformed script said "deterministic
# run" and two runs differed. Each such call is wrapped: given None, it
# seeds from the run's seed (DETC_SEED, --seed) and its site, and says so
# once; given a seed, it runs as written; a literal seed is left alone.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python %t.py > %t.a 2> %t.err
# RUN: FileCheck %s --check-prefix=WARN < %t.err
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python %t.py > %t.b 2> /dev/null
# RUN: diff %t.a %t.b
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 DETC_SEED=1 %python %t.py > %t.c 2> /dev/null
# RUN: not diff %t.a %t.c
# Given a seed (--seed 5), the calls given it draw the script's own values
# (the first line): the untransformed script's, whatever DETC_SEED says.
# What the calls without one draw (the second line) follows DETC_SEED.
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python %t.py --seed 5 > %t.s5 2> %t.err5
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 DETC_SEED=1 %python %t.py --seed 5 > %t.s5b 2> /dev/null
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python %s --seed 5 > %t.orig5
# RUN: head -n 1 %t.s5 > %t.s5.1
# RUN: head -n 1 %t.s5b > %t.s5b.1
# RUN: head -n 1 %t.orig5 > %t.orig5.1
# RUN: diff %t.s5.1 %t.s5b.1
# RUN: diff %t.s5.1 %t.orig5.1
# RUN: head -n 1 %t.a > %t.a.1
# RUN: not diff %t.a.1 %t.s5.1
# RUN: sed -n 2p %t.s5 > %t.s5.2
# RUN: sed -n 2p %t.s5b > %t.s5b.2
# RUN: not diff %t.s5.2 %t.s5b.2
# RUN: FileCheck %s --check-prefix=GIVEN < %t.err5
import argparse
import random

import numpy as np
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=None)
args = parser.parse_args()

# CHECK: _detc_rt.entropy_seeded({{[0-9]+}}, random.seed, 'a')(args.seed)
random.seed(args.seed)
# CHECK: _detc_rt.entropy_seeded({{[0-9]+}}, np.random.seed, 'seed')(args.seed)
np.random.seed(args.seed)
# CHECK: rng = _detc_rt.entropy_seeded({{[0-9]+}}, np.random.default_rng, 'seed')(seed=args.seed)
rng = np.random.default_rng(seed=args.seed)
# CHECK: mine = _detc_rt.entropy_seeded({{[0-9]+}}, random.Random, 'x')(args.seed)
mine = random.Random(args.seed)
# CHECK: state = _detc_rt.entropy_seeded({{[0-9]+}}, np.random.RandomState, 'seed')(args.seed)
state = np.random.RandomState(args.seed)
print(random.random(), np.random.rand(), rng.random(), mine.random(),
      state.rand())

# DIAG-DAG: entropy_seed_calls.py:[[@LINE+2]]:1: note: this call seeds from the operating system's entropy (a different sequence every run): the transformed script seeds from --seed or DETC_SEED (0 by default) and its site instead [detc-seed]
# CHECK: _detc_rt.entropy_seeded({{[0-9]+}}, random.seed, 'a')()
random.seed()
# DIAG-DAG: entropy_seed_calls.py:[[@LINE+2]]:1: note: this call seeds
# CHECK: _detc_rt.entropy_seeded({{[0-9]+}}, random.seed, 'a')(None)
random.seed(None)
# DIAG-DAG: entropy_seed_calls.py:[[@LINE+2]]:1: note: this call seeds
# CHECK: _detc_rt.entropy_seeded({{[0-9]+}}, torch.seed)()
torch.seed()
g = torch.Generator()
# DIAG-DAG: entropy_seed_calls.py:[[@LINE+2]]:1: note: this call seeds
# CHECK: _detc_rt.entropy_seeded({{[0-9]+}}, g.seed)()
g.seed()
print(random.random(), torch.rand(1).item(), torch.rand(1, generator=g).item())

# A literal seed is a seed: left as written.
# CHECK: random.seed(7)
random.seed(7)
print(random.random())
# WARN: detc-runtime: warning: random.seed() was given the seed None, which seeds from the operating system's entropy
# WARN: detc-runtime: warning: numpy.random.seed() was given the seed None
# WARN: detc-runtime: warning: numpy.random._generator.default_rng() was given the seed None
# GIVEN-NOT: numpy.random.seed() was given
# GIVEN: random.seed() was given the seed None
# GIVEN-NOT: default_rng() was given
