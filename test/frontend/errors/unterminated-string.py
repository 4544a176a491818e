# RUN: not detc parse %s 2>&1 | FileCheck %s
x = 'abc
# CHECK: unterminated-string.py:[[@LINE-1]]:5: error: unterminated string literal (detected at line [[@LINE-1]])
