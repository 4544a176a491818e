# RUN: detc parse %s | FileCheck %s

x = -a ** -b * c @ d // e % f
# CHECK: BinOp {{.*}} op=Mod
# CHECK: BinOp {{.*}} op=FloorDiv
# CHECK: BinOp {{.*}} op=MatMult
# CHECK: BinOp {{.*}} op=Mult
# CHECK-NEXT: left: UnaryOp {{.*}} op=USub
# CHECK-NEXT: operand: BinOp {{.*}} op=Pow
y = not a and b or c and not d
# CHECK: BoolOp {{.*}} op=Or
# CHECK-NEXT: values: BoolOp {{.*}} op=And
# CHECK-NEXT: values: UnaryOp {{.*}} op=Not
z = a not in b is not c
# CHECK: Compare {{.*}} ops=['NotIn', 'IsNot']
s = m[1:2, ::3, ...]
# CHECK: Subscript <[[@LINE-1]]:5-[[@LINE-1]]:21>
# CHECK-NEXT: value: Name
# CHECK-NEXT: slice: Tuple <[[@LINE-3]]:7-[[@LINE-3]]:20>
# CHECK-NEXT: elts: Slice <[[@LINE-4]]:7-[[@LINE-4]]:10>
# CHECK: Slice <[[@LINE-5]]:12-[[@LINE-5]]:15>
# CHECK: Constant {{.*}} kind=Ellipsis
c = [x for x in range(3) if x for y in x if y]
# CHECK: ListComp
# CHECK-COUNT-2: comprehension
d = {k: v for k, v in items}; e = {*a, b}; f = {**a, 'k': 1}
# CHECK: DictComp
# CHECK: Set
# CHECK: Dict
g = (x for x in y); h = f(x for x in y); t = (); u = (1,)
# CHECK: GeneratorExp <[[@LINE-1]]:5-[[@LINE-1]]:19>
# CHECK: Call <[[@LINE-2]]:25-[[@LINE-2]]:40>
# CHECK: GeneratorExp <[[@LINE-3]]:26-[[@LINE-3]]:40>
# CHECK: Tuple <[[@LINE-4]]:46-[[@LINE-4]]:48>
# CHECK: Tuple <[[@LINE-5]]:54-[[@LINE-5]]:58>
n = [0x_ff, 0o17, 0b1, 1_000.5e-3, 3j, 1., .5]
# CHECK: Constant {{.*}} kind=int value='0x_ff'
# CHECK: Constant {{.*}} kind=int value='0o17'
# CHECK: Constant {{.*}} kind=int value='0b1'
# CHECK: Constant {{.*}} kind=float value='1_000.5e-3'
# CHECK: Constant {{.*}} kind=complex value='3j'
# CHECK: Constant {{.*}} kind=float value='1.'
# CHECK: Constant {{.*}} kind=float value='.5'
b = b'\x00\xff' rb'\d' ; r = 'a\tb' "\N{BULLET}" r'\n'
# CHECK: Constant {{.*}} kind=bytes value='\000\377\\d'
# CHECK: Constant <[[@LINE-2]]:30-[[@LINE-2]]:55> kind=str value='a\tb\342\200\242\\n'
