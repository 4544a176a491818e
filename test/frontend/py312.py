# RUN: detc parse %s | FileCheck %s
# Python 3.12 (PEP 695, PEP 701) and 3.13 (PEP 696) syntax, with CPython's
# node kinds, fields and positions (1-based columns, end exclusive).

type Pair[K: (str, bytes), *Ts, **P = [int]] = dict[K, tuple[*Ts]]
# CHECK: TypeAlias <[[@LINE-1]]:1-[[@LINE-1]]:67>
# CHECK-NEXT: name: Name <[[@LINE-2]]:6-[[@LINE-2]]:10> id='Pair' ctx=Store
# CHECK-NEXT: type_params: TypeVar <[[@LINE-3]]:11-[[@LINE-3]]:26> name='K'
# CHECK-NEXT: bound: Tuple
# CHECK: type_params: TypeVarTuple <[[@LINE-5]]:28-[[@LINE-5]]:31> name='Ts'
# CHECK-NEXT: type_params: ParamSpec <[[@LINE-6]]:33-[[@LINE-6]]:44> name='P'
# CHECK-NEXT: default_value: List
# CHECK: value: Subscript

def first[T: int = bool](xs: list[T]) -> T:
    return xs[0]
# CHECK: FunctionDef <[[@LINE-2]]:1-[[@LINE-1]]:17> name='first'
# CHECK: type_params: TypeVar <[[@LINE-3]]:11-[[@LINE-3]]:24> name='T'
# CHECK-NEXT: bound: Name {{.*}} id='int'
# CHECK-NEXT: default_value: Name {{.*}} id='bool'

class Box[T](Base):
    type = 1
# CHECK: ClassDef <[[@LINE-2]]:1-[[@LINE-1]]:13> name='Box'
# `type` stays a name everywhere else.
# CHECK: Assign
# CHECK-NEXT: targets: Name {{.*}} id='type' ctx=Store
# CHECK: type_params: TypeVar <[[@LINE-6]]:11-[[@LINE-6]]:12> name='T'

print(f"{cfg["lr"]:{width}.{prec}f} {"\n".join(f"{x!r}" for x in xs)}")
# CHECK: JoinedStr
# CHECK: value: Subscript
# CHECK: value: Name {{.*}} id='cfg'
# CHECK: slice: Constant {{.*}} value='lr'
# CHECK: format_spec: JoinedStr
# CHECK: value: Name {{.*}} id='width'
# CHECK: value: Call
# CHECK: value: Constant {{.*}} value='\n'
# CHECK: elt: JoinedStr

label = f"{step = # the step
}"
# CHECK: Assign <[[@LINE-2]]:1-[[@LINE-1]]:3>
# CHECK: Constant {{.*}} value='step = \n'
# CHECK: FormattedValue {{.*}} conversion='r'

ｗｉｄｔｈ = µ
# PEP 3131: identifiers in NFKC, as CPython reads them.
# CHECK: Name <[[@LINE-2]]:1-[[@LINE-2]]:16> id='width' ctx=Store
# (U+00B5 MICRO SIGN reads as U+03BC GREEK SMALL LETTER MU, \316\274.)
# CHECK: Name {{.*}} id='\316\274' ctx=Load
