# RUN: not detc parse %s 2>&1 | FileCheck %s
x = 1
    y = 2
# CHECK: unexpected-indent.py:[[@LINE-1]]:5: error: unexpected indent
