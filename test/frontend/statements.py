# RUN: detc parse %s | FileCheck %s
# Statements with exact ranges (1-based columns, end exclusive).

import torch as ch, numpy.random as npr
# CHECK: Import <[[@LINE-1]]:1-[[@LINE-1]]:40>
# CHECK-NEXT: names: alias <[[@LINE-2]]:8-[[@LINE-2]]:19> name='torch' asname='ch'
# CHECK-NEXT: names: alias <[[@LINE-3]]:21-[[@LINE-3]]:40> name='numpy.random' asname='npr'
from ..utils import (a as b,
                     c)
# CHECK: ImportFrom <[[@LINE-2]]:1-[[@LINE-1]]:24> module='utils' level=2
a = b = x if y else z
# CHECK: Assign <[[@LINE-1]]:1-[[@LINE-1]]:22>
# CHECK-NEXT: targets: Name {{.*}} id='a' ctx=Store
# CHECK-NEXT: targets: Name {{.*}} id='b' ctx=Store
# CHECK-NEXT: value: IfExp
x: list[int] = []
# CHECK: AnnAssign {{.*}} simple=1
(y): int
# CHECK: AnnAssign {{.*}} simple=0
x += 1; del x[0], y.z
# CHECK: AugAssign <[[@LINE-1]]:1-[[@LINE-1]]:7>
# CHECK-NEXT: target: Name {{.*}} ctx=Store
# CHECK: Delete <[[@LINE-3]]:9-[[@LINE-3]]:22>
# CHECK-NEXT: targets: Subscript {{.*}} ctx=Del
# CHECK: targets: Attribute {{.*}} attr='z' ctx=Del
for i, (j, *k) in enumerate(data):
    if i < 2 < j: continue
    elif (n := len(k)) > 3:
        break
    else:
        pass
else:
    print(*a, **b, sep="")
# CHECK: For <[[@LINE-8]]:1-[[@LINE-1]]:27>
# CHECK-NEXT: target: Tuple {{.*}} ctx=Store
# CHECK: Starred {{.*}} ctx=Store
# CHECK: If <[[@LINE-10]]:5-[[@LINE-6]]:13>
# CHECK: Compare {{.*}} ops=['Lt', 'Lt']
# CHECK: If <[[@LINE-11]]:5-[[@LINE-8]]:13>
# CHECK: NamedExpr
with open(p) as f, lock:
    yield from f
# CHECK: With <[[@LINE-2]]:1-[[@LINE-1]]:17>
# CHECK: withitem
# CHECK: optional_vars: Name {{.*}} id='f' ctx=Store
with (open(a) as f,
      open(b) as g,):
    pass
# CHECK: With
# CHECK-COUNT-2: withitem
async def main(a, /, b=1, *, c, d=2, **kw) -> None:
    async with s:
        async for x in y:
            await z
# CHECK: AsyncFunctionDef <[[@LINE-4]]:1-[[@LINE-1]]:20> name='main'
# CHECK: posonlyargs: arg {{.*}} arg='a'
# CHECK: args: arg {{.*}} arg='b'
# CHECK: kwonlyargs: arg {{.*}} arg='c'
# CHECK: AsyncWith
# CHECK: AsyncFor
# CHECK: Await
try:
    pass
except (A, B) as e:
    raise C from e
finally:
    assert x, "message"
# CHECK: Try <[[@LINE-6]]:1-[[@LINE-1]]:24>
# CHECK: ExceptHandler <[[@LINE-5]]:1-[[@LINE-4]]:19> name='e'
# CHECK: Raise
# CHECK: Assert
global g; nonlocal h
# CHECK: Global {{.*}} names=['g']
# CHECK: Nonlocal {{.*}} names=['h']
lambda x, *y, z=1, **w: (x, y)
# CHECK: Lambda <[[@LINE-1]]:1-[[@LINE-1]]:31>
if True: x = \
    1
# CHECK: If <[[@LINE-2]]:1-[[@LINE-1]]:6>
