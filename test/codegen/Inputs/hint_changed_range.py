import torch


def _checkpoint(label=None):
    pass


def main():
    torch.manual_seed(0)
    w = torch.zeros(4)
    steps = 4
    for epoch in range(3):
        _iterations: 3
        for step in range(steps):
            _iterations: 6
            w = w + torch.randn(4)
            _checkpoint("step")
        steps = steps + 1
    print(w)


main()
