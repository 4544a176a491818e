# RUN: not detc parse %s 2>&1 | FileCheck %s
if x:
y = 2
# CHECK: expected-indent.py:[[@LINE-1]]:1: error: expected an indented block
