# RUN: detc parse %s | FileCheck %s

match command.split():
    case [action]:
        pass
    case ["go", direction] | ["move", direction]:
        pass
    case Point(x=0, y=0) if verbose:
        pass
    case {"x": -1.5+2j, **rest}:
        pass
    case Color.RED | None:
        pass
    case (1 | 2) as n, *_:
        pass
    case _:
        pass
# CHECK: Match <[[@LINE-15]]:1-[[@LINE-1]]:13>
# CHECK: MatchSequence
# CHECK-NEXT: patterns: MatchAs {{.*}} name='action'
# CHECK: MatchOr
# CHECK: MatchClass {{.*}} kwd_attrs=['x', 'y']
# CHECK: guard: Name {{.*}} id='verbose'
# CHECK: MatchMapping {{.*}} rest='rest'
# CHECK: BinOp {{.*}} op=Add
# CHECK-NEXT: left: UnaryOp {{.*}} op=USub
# CHECK: MatchValue
# CHECK-NEXT: value: Attribute {{.*}} attr='RED'
# CHECK: MatchSingleton {{.*}} value='None'
# CHECK: MatchSequence
# CHECK-NEXT: patterns: MatchAs {{.*}} name='n'
# CHECK-NEXT: pattern: MatchOr
# CHECK: MatchStar
# CHECK: match_case
# CHECK-NEXT: pattern: MatchAs <[[@LINE-19]]:10-[[@LINE-19]]:11>
match = 1; case = match(case)
# CHECK: Assign {{.*}}
# CHECK-NEXT: targets: Name {{.*}} id='match' ctx=Store
