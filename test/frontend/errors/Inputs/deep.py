"""Writes PREFIX.<family>.py for each deeply nesting family, N levels deep:
chained calls, attributes, subscripts, sums, powers, `not`, conditional
expressions, lambdas and elif chains (CPython-valid syntax at any depth)."""
import sys


def families(n):
    """{name: source} of every family, n levels deep."""
    return {
        "call": "x = f" + "()" * n,
        "attr": "x = a" + ".b" * n,
        "subscript": "x = a" + "[0]" * n,
        "sum": "x = " + "+".join(["1"] * n),
        "pow": "x = " + "**".join(["2"] * n),
        "not": "x = " + "not " * n + "a",
        "ifexp": "x = " + "1 if a else " * n + "2",
        "lambda": "x = " + "lambda: " * n + "1",
        # Every elif is an If inside the orelse of the one before.
        "elif": "if a:\n    pass\n" + "".join(
            "elif a%d:\n    pass\n" % i for i in range(n)),
    }


if __name__ == "__main__":
    prefix, n = sys.argv[1], int(sys.argv[2])
    for name, text in families(n).items():
        with open("%s.%s.py" % (prefix, name), "w") as f:
            f.write(text + "\n")
