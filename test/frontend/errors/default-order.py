# RUN: not detc parse %s 2>&1 | FileCheck %s
def f(a=1, b): pass
# CHECK: default-order.py:[[@LINE-1]]:12: error: non-default argument follows default argument
