"""Programs in Python 3.12 and 3.13 syntax, for newer_python.py.

VALID: each is parsed by detc and by the CPython of its version, and the
two ASTs must agree (compare_ast.py). INVALID: both must reject. The
cases are generated from the grammar's pieces (every kind of type
parameter with and without bound and default, on def, class and alias;
f-strings nesting their own quotes, f-strings, backslashes, comments and
line breaks in their fields, format specs with nested fields), so that a
change to one piece of the grammar meets every combination.
"""
import itertools

# (source, the first Python minor version that reads it)
VALID = []
INVALID = []


def _type_params():
    kinds = []
    for bound, default in itertools.product(["", ": int", ": (int, str)"],
                                            ["", " = int", " = list[T]"]):
        kinds.append((f"T{bound}{default}", 13 if default else 12))
    for default in ["", " = *tuple[int, ...]", " = tuple[int]"]:
        kinds.append((f"*Ts{default}", 13 if default else 12))
    for default in ["", " = [int, str]", " = ..."]:
        kinds.append((f"**P{default}", 13 if default else 12))
    return kinds


def _generate():
    params = _type_params()
    for (a, va), (b, vb) in itertools.product(params, repeat=2):
        if a.split(":")[0].split("=")[0].strip("* ") == \
                b.split(":")[0].split("=")[0].strip("* "):
            continue
        v = max(va, vb)
        VALID.append((f"def f[{a}, {b}](x: int) -> None:\n    pass\n", v))
        VALID.append((f"class C[{a}, {b},](Base, metaclass=M):\n"
                      f"    x: int = 1\n", v))
        VALID.append((f"type Alias[{a}, {b}] = dict[str, int]\n", v))
    for p, v in params:
        VALID.append((f"async def g[{p}](*args, **kw):\n    await h()\n",
                      v))
        VALID.append((f"@decorator\nclass D[{p}]: pass\n", v))
    VALID.extend([
        ("type X = int\n", 12),
        ("type X = int | None\ntype Y[T] = list[T]\n", 12),
        ("type = 3\ntype(x)\nx.type = type\n", 11),
        ("def type(type): return type\n", 11),
        ("match type:\n    case type.x: pass\n", 11),
        ("class type[T]: pass\n", 12),
        ("if x:\n    type Z = lambda: 1\n", 12),
        ("def f():\n    type L[T] = list[T]\n    return L\n", 12),
        ("print(type, type[int], type(1))\n", 11),
    ])
    INVALID.extend([
        "def f[](): pass\n",
        "class C[*Ts: int]: pass\n",
        "class C[**P: int]: pass\n",
        "type X[T]\n",
        "type X: int = 3\n",
        "type 1 = int\n",
    ])

    # PEP 701 f-strings, in both quotes and triple quotes.
    for q in ['"', "'", '"""', "'''"]:
        o = "'" if q[0] == '"' else '"'
        for body, v in [
            ("{x}", 11),
            (f"{{x[{q[0]}a{q[0]}]}}", 11 if len(q) == 3 else 12),
            (f"{{x[{o}a{o}]}}", 11),
            (f"{{{q[0]}-{q[0]}.join(y)}}", 11 if len(q) == 3 else 12),
            (f"{{f{q[0]}{{x}}{q[0]}}}", 11 if len(q) == 3 else 12),
            (f"{{f{q[0]}{{f{q[0]}{{x}}{q[0]}}}{q[0]}}}",
             11 if len(q) == 3 else 12),
            ("{'\\n'.join(y)}", 12),
            ("{x!r:>{width}}", 11),
            ("{x=}", 11),
            ("{x = !r:^20}", 11),
            ("{x:{y}.{z}f}", 11),
            ("{ {'a': 1}['a'] }", 11),
            ("{(lambda: 1)()}", 11),
            ("{x:=10}", 11),
            ("{x!=y}", 11),
            ("a{{b}}c{x}d", 11),
            ("\\N{BULLET}{x}", 11),
            ("\\{x}", 11),
        ]:
            VALID.append((f"f{q}{body}{q}\n", v))
            VALID.append((f"s = rf{q}{body.replace(chr(92) + 'N', 'N')}"
                          f"{q} + F{q}{{0}}{q}\n", v))
    VALID.extend([
        ('f"{x # a comment\n}"\n', 12),
        ('f"{\n  x\n  + 1\n}"\n', 12),
        ('f"""{x # comment\n}"""\n', 12),
        ("fr'\\{{'\n", 11),
        ("f'{x:\\n}'\n", 11),
        ('f"{"a" "b"}"\n', 12),
        ('print(f"{", ".join(str(i) for i in range(3))}")\n', 12),
        ('f"{f"{f"{f"{f"{1}"}"}"}"}"\n', 12),
        ('f"{x:{"a"}}"\n', 12),
        ('f"{x:{y:{z}}}"\n', 12),
        ('f"{3!s  }" f"{x!r :>3}"\n', 12),
        ('f"{1+2 = # my comment\n  }"\n', 12),
        # PEP 696's order rule (no default after a default) is the
        # compiler's, after ast.parse; duplicates too.
        ("def f[T = int, U](): pass\n", 13),
        ("class C[T, T]: pass\n", 12),
    ])
    INVALID.extend([
        'f"{x"\n',
        'f"{}"\n',
        'f"{x!z}"\n',
        'f"{x:{y:{z:{w}}}}"\n',
        "f'{'\n",
        'f"{x}}"\n',
    ])


_generate()
