# The emitted code binds names starting with `_detc_` (the runtime module
# `_detc_rt`, checkpoint helpers `_detc_ckpt`, vaccination cells); a script
# that binds or reads one would shadow them (the emitted script died with
# AttributeError). Refused at transform time, at each use; nothing written.
# RUN: rm -f %t.py
# RUN: not detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s
# RUN: not test -e %t.py
# CHECK: reserved_names.py:[[@LINE+7]]:8: error: the script uses the name '_detc_ckpt'; names starting with '_detc_' are detc's own
# CHECK: reserved_names.py:[[@LINE+7]]:1: error: the script uses the name '_detc_rt'
# CHECK: reserved_names.py:[[@LINE+7]]:1: error: the script uses the name '_detc_cell_1'
# CHECK: reserved_names.py:[[@LINE+7]]:7: error: the script uses the name '_detc_x'
# CHECK: reserved_names.py:[[@LINE+7]]:5: error: the script uses the name '_detc_rt'
# CHECK-NOT: error
# The attribute `model._detc_keyed` and a string are not names: allowed.
import torch as _detc_ckpt
_detc_rt = 3
def _detc_cell_1(): pass
def f(_detc_x): return "_detc_rt"
x = _detc_rt
model = object()
y = getattr(model, "_detc_keyed", None)
