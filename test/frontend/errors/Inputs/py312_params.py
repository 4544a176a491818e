def first[T](xs: list[T]) -> T:
    return xs[0]
