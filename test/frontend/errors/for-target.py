# RUN: not detc parse %s 2>&1 | FileCheck %s
for f() in x: pass
# CHECK: for-target.py:[[@LINE-1]]:5: error: cannot assign to function call
