# RUN: not detc parse %s 2>&1 | FileCheck %s
def f(x)
    return x
# CHECK: missing-colon.py:[[@LINE-2]]:9: error: invalid syntax: expected ':'
