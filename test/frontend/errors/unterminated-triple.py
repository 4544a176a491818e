# RUN: not detc parse %s 2>&1 | FileCheck %s
# CHECK: unterminated-triple.py:[[@LINE+1]]:5: error: unterminated triple-quoted string literal
x = """abc
