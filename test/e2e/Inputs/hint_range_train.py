"""Input of hint_restarts.py: loops whose bounds change as training goes
(the inner range grows every epoch), a list the loops extend, a tensor
updated in place and torch's generator — restarted at the inner hint."""
import torch


def _checkpoint(label=None):
    pass


def main():
    torch.manual_seed(0)
    w = torch.zeros(16)
    acc = torch.zeros(16)
    steps = 3
    trace = []
    for epoch in range(5):
        _iterations: 5
        for step in range(steps):
            _iterations: 5
            w = w + torch.randn(16)
            acc.add_(w)
            trace.append(round(float(w.sum()), 6))
            _checkpoint("step")
        steps = steps + 1
    print("final", acc.double().sum().item().hex(), hash(tuple(trace)))


main()
