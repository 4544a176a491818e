import torch


def _checkpoint(label=None):
    pass


def main():
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        _iterations: 3
        for step in range(10):
            _iterations: 10
            opt.zero_grad()
            model(torch.randn(8, 4)).sum().backward()
            opt.step()
            _checkpoint("step")
        torch.save({"model": model.state_dict(), "opt": opt.state_dict()},
                   "ckpt.pt")


main()
