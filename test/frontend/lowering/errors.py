# Constructs CPython's compiler rejects are errors of the lowering (exit 2),
# never a module that does not verify.
# RUN: not detc %s 2>&1 | FileCheck %s
# CHECK: errors.py:[[@LINE+1]]:1: error: 'return' outside function
return 1
for i in range(3):
    pass
# CHECK: errors.py:[[@LINE+1]]:1: error: 'break' outside loop
break
