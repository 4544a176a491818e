import torch


def _checkpoint(label=None):
    pass


def main():
    data = [torch.randn(4) for _ in range(100)]
    w = torch.zeros(4)
    for epoch in range(3):
        _iterations: 3
        it = iter(data)
        for step in range(10):
            _iterations: 10
            w = w + next(it)
            _checkpoint("step")
    print(w)


main()
