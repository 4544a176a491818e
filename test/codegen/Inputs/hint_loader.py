"""Input of hint_checkpoint.test: a loader/model/optimizer loop with one
 checkpoint hint inside an `if` inside the loops."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def _checkpoint(label=None):
    pass


def main(warmup):
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(256, 8), torch.randn(256, 1))
    loader = DataLoader(data, batch_size=16, shuffle=True)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(),
                                torch.nn.Dropout(0.1), torch.nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, 2)
    best = float("inf")
    for epoch in range(6):
        _iterations: 6
        total = 0.0
        if epoch < warmup:
            continue
        if warmup >= 0:
            for i, (x, y) in enumerate(loader):
                _iterations: 16
                opt.zero_grad()
                loss = torch.nn.functional.mse_loss(model(x), y)
                loss.backward()
                opt.step()
                total += loss.item()
                _checkpoint("step")
                print(i)
        sched.step()
        if total < best:
            best = total
    torch.save(model.state_dict(), "final.pt")


if __name__ == "__main__":
    main(1)
