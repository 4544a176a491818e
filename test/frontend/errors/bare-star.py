# RUN: not detc parse %s 2>&1 | FileCheck %s
def f(a, *): pass
# CHECK: bare-star.py:[[@LINE-1]]:11: error: named arguments must follow bare *
