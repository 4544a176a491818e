# --vaccinate with --diff: the diff applies to the input and gives the -o
# output, also for the lines a loop at the end of the file gets after its
# last line; the script runs and prints what the original prints.
# RUN: detc transform %s --emit-python --vaccinate -o %t.py
# RUN: detc transform %s --emit-python --vaccinate --diff > %t.diff
# RUN: FileCheck %s < %t.diff
# RUN: cp %s %t.in.py
# RUN: patch -s %t.in.py %t.diff
# RUN: cmp %t.in.py %t.py
# RUN: %python %s > %t.want
# RUN: env PYTHONPATH=%detc_runtime %python %t.py > %t.got
# RUN: diff %t.want %t.got
# CHECK: +{{ }}_detc_c = _detc_rt.vaccine.run(_detc_cell_{{[0-9]+}}, {{[0-9]+}})  # detc: vaccinated (crash barrier)
# CHECK-NEXT: +{{ }}if _detc_c is _detc_rt.vaccine.BREAK: break  # detc: vaccinated (crash barrier)
def last(n):
    total = 0
    for i in range(n):
        total += i
    return total


for k in range(3):
    print(last(k))
