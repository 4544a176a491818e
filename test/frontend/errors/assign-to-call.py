# RUN: not detc parse %s 2>&1 | FileCheck %s
f() = 1
# CHECK: assign-to-call.py:[[@LINE-1]]:1: error: cannot assign to function call here. Maybe you meant '==' instead of '='?
