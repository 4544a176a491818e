# RUN: not detc parse %s 2>&1 | FileCheck %s
a, b += 1
# CHECK: augassign-tuple.py:[[@LINE-1]]:1: error: 'tuple' is an illegal expression for augmented assignment
