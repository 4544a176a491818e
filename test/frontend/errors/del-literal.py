# RUN: not detc parse %s 2>&1 | FileCheck %s
del 1
# CHECK: del-literal.py:[[@LINE-1]]:5: error: cannot delete literal
