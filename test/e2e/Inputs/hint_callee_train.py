"""Input of hint_restarts.py: the common shape of a training script — an
epoch loop in main() calling train_epoch(), whose batch loop holds the
checkpoint hint; main() keeps a best loss and decays the learning rate,
train_epoch() switches the model to training mode and evaluate() to eval
mode. Restarts at the hint must reproduce the uninterrupted run."""
import hashlib

import torch
from torch.utils.data import DataLoader, TensorDataset


def _checkpoint(label=None):
    pass


def train_epoch(model, loader, opt, lr, log):
    """One epoch over `loader`; returns the summed loss."""
    model.train()
    for group in opt.param_groups:
        group["lr"] = lr
    total = 0.0
    for x, y in loader:
        _iterations: 16
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        total += loss.item()
        log.append(round(loss.item(), 6))
        _checkpoint("step")
    return total


def evaluate(model, data):
    model.eval()
    with torch.no_grad():
        return float(torch.nn.functional.mse_loss(model(data[0]), data[1]))


def main():
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(512, 8), torch.randn(512, 1))
    held_out = (torch.randn(64, 8), torch.randn(64, 1))
    loader = DataLoader(data, batch_size=32, shuffle=True)
    model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(),
                                torch.nn.Dropout(0.2), torch.nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    lr = 0.05
    best = float("inf")
    log = []
    for epoch in range(4):
        _iterations: 4
        total = train_epoch(model, loader, opt, lr, log)
        best = min(best, evaluate(model, held_out))
        lr = lr * 0.7
    weights = torch.cat([p.detach().flatten() for p in model.parameters()])
    print("final", best.hex(), total.hex(), len(log),
          hashlib.sha256(repr(log).encode()).hexdigest()[:12],
          hashlib.sha256(weights.numpy().tobytes()).hexdigest()[:16])


if __name__ == "__main__":
    main()
