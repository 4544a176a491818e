# RUN: not detc parse %s 2>&1 | FileCheck %s
price = 5€
# CHECK: invalid-character.py:[[@LINE-1]]:10: error: invalid character '€' (U+20AC)
