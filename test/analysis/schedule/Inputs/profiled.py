def _checkpoint(label=None):
    pass


def main():
    total = 0
    for epoch in range(3):
        _iterations: 3
        for step in range(10):
            _iterations: 10
            total = total + step
            _checkpoint("step")
        _checkpoint("epoch")
    print(total)


main()
