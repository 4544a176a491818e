# RUN: not detc parse %s 2>&1 | FileCheck %s
f(a=1, b)
# CHECK: keyword-order.py:[[@LINE-1]]:8: error: positional argument follows keyword argument
