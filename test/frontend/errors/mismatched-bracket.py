# RUN: not detc parse %s 2>&1 | FileCheck %s
x = [1, 2)
# CHECK: mismatched-bracket.py:[[@LINE-1]]:10: error: closing parenthesis ')' does not match opening parenthesis '['
