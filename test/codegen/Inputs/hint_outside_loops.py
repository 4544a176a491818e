import torch


def _checkpoint(label=None):
    pass


def main():
    w = torch.zeros(4)
    for epoch in range(3):
        _iterations: 3
        w = w + torch.randn(4)
    _checkpoint("end")
    print(w)


main()
