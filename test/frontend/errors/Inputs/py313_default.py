class Box[T = int]:
    pass
