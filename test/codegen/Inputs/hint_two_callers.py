import torch


def _checkpoint(label=None):
    pass


def train_epoch(w, steps):
    for step in range(steps):
        _iterations: 10
        w = w + torch.randn(4)
        _checkpoint("step")
    return w


def main():
    w = torch.zeros(4)
    for epoch in range(3):
        _iterations: 3
        w = train_epoch(w, 10)
        w = train_epoch(w, 10)
    print(w)


main()
