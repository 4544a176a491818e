import torch


def _checkpoint(label=None):
    pass


def main():
    torch.manual_seed(0)
    w = torch.zeros(4)
    order = [0, 1, 2, 3]
    for epoch in range(3):
        _iterations: 3
        for step in order:
            _iterations: 4
            w = w + torch.randn(4) * step
            _checkpoint("step")
        order = order[::-1]
    print(w)


main()
