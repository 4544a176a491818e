# Every call path into a function is an instance of its own in the
# statement graph: paths that multiply (each level calls the next twice;
# a model zoo behind one factory) make a graph past what memory holds.
# Code that only computes and draws is summarized after a while
# (summarized_calls.py); code the analyses follow statement by statement
# (here a checkpoint written in the leaf) is not.
# Past --max-statements detc stops with exit 2 and names the function
# expanded most, before the analyses run (timm's train.py ran out of
# memory at 8 GB after 45 s; it stops in 11 s at 1.4 GB by default).
# RUN: not detc analyze --python none %s --max-statements=5000 2>&1 | FileCheck %s --check-prefix=STOP
# RUN: not detc transform --python none %s --emit-python --max-statements=5000 -o %t.py 2>&1 | FileCheck %s --check-prefix=STOP
# RUN: not test -e %t.py
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --check-prefix=FULL
# STOP: error: {{.*}}expansion_limit.py: the program is too large to analyse: expanding its calls made more than 5{{[0-9][0-9][0-9]}} statements ('level0' was expanded {{[0-9]+}} times: each call path into it is analysed on its own); no findings were computed
# FULL: 0 warning(s)
import torch


def level0(x):
    torch.save(x, "x.pt")
    return x


def level1(x):
    return level0(x) + level0(x)


def level2(x):
    return level1(x) + level1(x)


def level3(x):
    return level2(x) + level2(x)


def level4(x):
    return level3(x) + level3(x)


def level5(x):
    return level4(x) + level4(x)


def level6(x):
    return level5(x) + level5(x)


def level7(x):
    return level6(x) + level6(x)


def level8(x):
    return level7(x) + level7(x)


def level9(x):
    return level8(x) + level8(x)


def level10(x):
    return level9(x) + level9(x)


print(level10(1))
