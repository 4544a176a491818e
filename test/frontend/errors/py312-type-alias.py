# RUN: not detc parse %s 2>&1 | FileCheck %s
type Vector = list[float]
# CHECK: py312-type-alias.py:[[@LINE-1]]:6: error: invalid syntax: a `type X = ...` alias (PEP 695) is Python 3.12 syntax; detc reads Python 3.11
