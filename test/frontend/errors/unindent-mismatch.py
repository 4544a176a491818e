# RUN: not detc parse %s 2>&1 | FileCheck %s
if x:
        y = 1
    z = 2
# CHECK: unindent-mismatch.py:[[@LINE-1]]:5: error: unindent does not match any outer indentation level
