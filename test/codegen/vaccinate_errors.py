# What --vaccinate cannot split is an error at the place, exit 2, nothing
# written: a block indented by fewer than 3 columns more than its header
# (the cell's `def` and guards go between the two levels), and a function
# name --vaccinate=NAME does not find.
# RUN: rm -f %t.py
# RUN: not detc transform %s --emit-python --vaccinate -o %t.py 2>&1 | FileCheck %s
# RUN: test ! -e %t.py
# RUN: not detc transform %s --emit-python --vaccinate=main,trian -o %t.py 2>&1 | FileCheck %s --check-prefix=NAME
# RUN: test ! -e %t.py
import torch


def train(steps):
  total = 0
# CHECK: vaccinate_errors.py:[[@LINE-1]]:3: error: --vaccinate: this block is indented by fewer than 3 spaces more than its header (or with tabs); the cell's `def` and guards go between the two levels. Re-indent it with 4 spaces
  for step in range(steps):
    total += step
  return total


def main():
    print(train(3))


main()
# NAME: vaccinate_errors.py:1:1: error: --vaccinate: no function 'trian' at the top level of the script
