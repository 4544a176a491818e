# What --vaccinate cannot split is an error at the place, exit 2, nothing
# written: a block indented by fewer than 3 columns more than its header
# that detc could not re-indent (the cell's `def` and guards go between the
# two levels; a 2-space script is re-indented, vaccinate_two_space.py, but
# not one whose indentation holds a form feed), and a function name
# --vaccinate=NAME does not find.
# RUN: rm -f %t.py
# RUN: sed -e 's/^  total = 0$/\f  total = 0/' %s > %t.ff.py
# RUN: not detc transform %t.ff.py --emit-python --vaccinate -o %t.py 2>&1 | FileCheck %s
# RUN: test ! -e %t.py
# RUN: not detc transform %s --emit-python --vaccinate=main,trian -o %t.py 2>&1 | FileCheck %s --check-prefix=NAME
# RUN: test ! -e %t.py
import torch


def train(steps):
  total = 0
# CHECK: vaccinate_errors.py.tmp.ff.py:[[@LINE-1]]:4: error: --vaccinate: this block is indented by fewer than 3 spaces more than its header (or with tabs); the cell's `def` and guards go between the two levels. Re-indent it with 4 spaces
  for step in range(steps):
    total += step
  return total


def main():
    print(train(3))


main()
# NAME: vaccinate_errors.py:1:1: error: --vaccinate: no function 'trian' at the top level of the script
