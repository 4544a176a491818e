# `detc transform --vaccinate` (docs/vaccinate.md) on every construct family:
# the vaccinated script prints exactly what the original prints (Python's
# semantics kept: jumps out of with/try/nested loops, closures, shadowing,
# defaults, comprehensions, walrus, global, except-as, one-line bodies), and
# the cells look as documented. Generators and async functions stay as they
# are, with a note.
# RUN: detc transform %s --emit-python --vaccinate -o %t.py 2>&1 | FileCheck %s --check-prefix=NOTE
# RUN: FileCheck %s < %t.py
# RUN: %python %s > %t.want
# RUN: env PYTHONPATH=%detc_runtime %python %t.py > %t.got
# RUN: diff %t.want %t.got
import contextlib

scale = 10  # shadowed by a local of main()
counter = 0


def bump():
    global counter
    counter += 1
    return counter


def shadow_reader():
    return scale  # the module's, never main()'s local


# NOTE: vaccinate_constructs.py:[[@LINE+1]]:1: note: --vaccinate: 'numbers' is a generator; left as it is (no crash barrier)
def numbers(n):
    for i in range(n):
        yield i


def jumps(items):
    found = None
    for i, item in enumerate(items):
        with contextlib.nullcontext():
            if item < 0:
                continue
            if item > 100:
                found = ("big", i)
                break
        try:
            if item == 7:
                return ("seven", i)
        finally:
            bump()
    else:
        found = ("none", len(items))
    while True:
        if found is not None:
            break
    return found


def closures(base):
    total = 0

    def add(k, scale=base):  # a default that refers to a parameter
        nonlocal total
        total += k * scale
        return total

    for f in [add, add]:
        f(1)
    squares = [y for x in range(4) if (y := x * x) > 1]
    return total, squares, y


def errors(values):
    out = []
    for v in values:
        try:
            out.append(10 // v)
        except ZeroDivisionError as e:
            out.append(type(e).__name__)
        else:
            out.append("ok")
        with contextlib.suppress(KeyError):
            {}[v]
    if values: out.append("inline")
    for v in values: out.append(v)
    return out


def main():
    """Docstring: inside the cell."""
    scale = 3  # shadows the module's scale
    print(shadow_reader(), scale)
    print(jumps([1, -2, 3]), jumps([1, 200, 7]), jumps([7]), counter)
    print(closures(2))
    print(errors([1, 0, 2]))
    print(list(numbers(3)))
    n = 0
    while n < 3:
        n += 1
        if n == 1:
            pass
        elif n == 2:
            print("two")
        else:
            print("three")
    return n


if __name__ == "__main__":
    print(main())

# The function body: locals bound where no code runs, the cell between the
# header's and the body's indentation, a guard per statement line.
# CHECK-LABEL: def jumps(items):
# CHECK-NEXT:  {{^ }}if False: found = i = item = None  # detc: vaccinated (crash barrier)
# CHECK-NEXT:  {{^ }}def _detc_cell_[[F:[0-9]+]](_detc_r):
# CHECK-NEXT:  {{^  }}nonlocal items, found, i, item
# CHECK-NEXT:  {{^  }}if _detc_r <= 0:
# CHECK-NEXT:  {{^    }}found = None
# The loop body is a cell; `continue` and `break` inside `with` become
# codes the loop's driver acts on.
# CHECK:       for i, item in _detc_rt.vaccine.fetches({{[0-9]+}}, 1, enumerate(items)):
# CHECK-NEXT:  {{^     }}def _detc_cell_[[L:[0-9]+]](_detc_r):
# CHECK:       return _detc_rt.vaccine.CONTINUE
# CHECK:       return _detc_rt.vaccine.BREAK
# `return` inside try/finally carries its value out through the cells.
# CHECK:       return _detc_rt.vaccine.Ret((("seven", i)))
# CHECK:       finally:
# CHECK:       {{^     }}_detc_c = _detc_rt.vaccine.run(_detc_cell_[[L]], [[L]])
# CHECK-NEXT:  {{^     }}if _detc_c is _detc_rt.vaccine.BREAK: break
# CHECK-NEXT:  {{^     }}if _detc_c is not None and _detc_c is not _detc_rt.vaccine.CONTINUE: return _detc_c
# CHECK-NEXT:  else:
# CHECK:       {{^ }}_detc_c = _detc_rt.vaccine.run(_detc_cell_[[F]], [[F]])
# CHECK-NEXT:  {{^ }}if _detc_c is not None: return _detc_c.value
# A walrus in a comprehension binds in the function: shared too.
# CHECK-LABEL: def closures(base):
# CHECK:       nonlocal base, total, add, f, squares, y
# A barrier inside `try` lets the handler's exceptions through; inside
# `with suppress(E)`, E; one-line bodies stay in their statement.
# CHECK-LABEL: def errors(values):
# CHECK:       _detc_rt.vaccine.run(_detc_cell_{{[0-9]+}}, {{[0-9]+}}, lambda: (ZeroDivisionError,))
# CHECK:       _detc_rt.vaccine.run(_detc_cell_{{[0-9]+}}, {{[0-9]+}}, lambda: (KeyError,))
# CHECK:       if _detc_r <= {{[0-9]+}}:
# CHECK-NEXT:  {{^        }}if values: out.append("inline")
# CHECK-LABEL: def main():
# CHECK:       nonlocal scale, n
# CHECK-LABEL: if __name__ == "__main__":
