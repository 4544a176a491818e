# RUN: not detc parse %s 2>&1 | FileCheck %s
def first[T](xs: list[T]) -> T:
    return xs[0]
# CHECK: py312-type-params.py:[[@LINE-2]]:10: error: invalid syntax: type parameters (`def f[T](x: T)`, `class C[T]`: PEP 695) is Python 3.12 syntax; detc reads Python 3.11
