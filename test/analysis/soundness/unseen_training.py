# A script whose training runs in code detc cannot read (torchtitan's
# shape: a config system, here a package detc cannot find, builds a
# trainer object, and `trainer.train()` runs the whole training): detc
# sees no gradient, no optimizer step and no loop over a DataLoader, so it
# had nothing to report ("0 warning(s); unsafe generators: none") and the
# transform emitted only its header. It now says the training may run
# where it cannot see (detc-unseen-training), at the call of a name
# training libraries train by (an `entry-method` of python.api), the
# script's other calls of code detc could not read in notes.
# `trainer.train()` on a value detc cannot trace is no longer taken as
# nn.Module's mode switch: it may run the training.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# RUN: detc transform --python none %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=TRANSFORM
# RUN: detc analyze --python none %S/Inputs/unseen_training_helpers.py 2>&1 | FileCheck %s --check-prefix=HELPERS --implicit-check-not=warning:
# RUN: detc analyze --python none %S/Inputs/unseen_training_inference.py 2>&1 | FileCheck %s --check-prefix=INFER
# RUN: detc analyze --python none %S/Inputs/unseen_training_visible.py 2>&1 | FileCheck %s --check-prefix=VISIBLE --implicit-check-not=warning:
import torch

# CHECK: unseen_training.py:[[@LINE+1]]:8: warning: cannot resolve import 'confkit'
import confkit


def main():
    torch.manual_seed(0)
    # CHECK: unseen_training.py:[[@LINE+8]]:5: warning: detc found no training step in the code it could read (no backward, no optimizer step, no loop over a DataLoader); the training may run in code it could not read, such as 'trainer.train' here
    # CHECK-NEXT: {{^}}    trainer.train()
    # CHECK: unseen_training.py:[[@LINE+6]]:5: note: 'trainer.train' is a value 'confkit.parse_args.build' returned
    # CHECK: unseen_training.py:[[@LINE+2]]:14: note: also code detc could not read: 'confkit.parse_args', module 'confkit'
    # CHECK: unseen_training.py:[[@LINE+2]]:15: note: also code detc could not read: 'config.build'
    config = confkit.parse_args()
    trainer = config.build()
    # CHECK: unseen_training.py:[[@LINE+2]]:5: note: also code detc could not read: 'trainer.export'
    trainer.train()
    trainer.export("out")


if __name__ == "__main__":
    main()
# CHECK: 1 warning(s)

# The transform says it too: what it emits keys and checkpoints only what
# detc sees.
# TRANSFORM: unseen_training.py: warning: detc found no training step in the code it could read; the training may run in code it could not read, at {{.*}}unseen_training.py:[[@LINE-10]]:5: 'trainer.train' is a value 'confkit.parse_args.build' returned{{.*}} [detc-unseen-training]

# An inference script that calls code detc cannot read but no name
# training libraries train by: no finding.
# INFER-NOT: detc-unseen-training
# INFER: 0 warning(s); unsafe generators (ERR): none

# A module of helpers (nothing runs at its top level) trains nothing of
# its own: no finding, whatever it calls.
# HELPERS: unseen_training_helpers.py:3:8: warning: cannot resolve import 'confkit'
# HELPERS-NOT: detc-unseen-training
# HELPERS: 0 warning(s)

# A training step detc sees (the backward below the unread trainer's
# setup): the usual findings, not this one.
# VISIBLE: unseen_training_visible.py:4:8: warning: cannot resolve import 'confkit'
# VISIBLE-NOT: detc-unseen-training
# VISIBLE: unseen_training_visible.py:10:9: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# VISIBLE: unsafe generators (ERR): 'torch' (global)
