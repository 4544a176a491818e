import torch


def _checkpoint(label=None):
    pass


def main():
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    # Steps from a variable: no counted-step region (whose draws are keyed
    # and whose loop fast-forward skips whole), so fast-forward re-runs
    # the draw and skips the statements around it.
    steps = range(10)
    for epoch in range(3):
        _iterations: 3
        for step in steps:
            _iterations: 10
            opt.zero_grad()
            model(torch.randn(8, 4)).sum().backward()
            opt.step()
            _checkpoint("step")
        torch.save({"model": model.state_dict(), "opt": opt.state_dict()},
                   "ckpt.pt")


main()
