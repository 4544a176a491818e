# RUN: not detc parse %s 2>&1 | FileCheck %s
x = b'a' 'b'
# CHECK: bytes-mix.py:[[@LINE-1]]:10: error: cannot mix bytes and nonbytes literals
