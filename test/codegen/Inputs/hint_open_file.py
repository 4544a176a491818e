import torch


def _checkpoint(label=None):
    pass


def main():
    log = open("train.log", "w")
    w = torch.zeros(4)
    for epoch in range(3):
        _iterations: 3
        w = w + torch.randn(4)
        log.write(str(float(w.sum())) + "\n")
        _checkpoint("epoch")
    log.close()


main()
