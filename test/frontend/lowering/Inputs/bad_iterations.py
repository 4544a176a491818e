def f(n):
    for i in range(n):
        # The bound must be a literal.
        _iterations: n
        pass
_iterations: 3
