"""Input of hint_restarts.py: a model trained from a shuffled DataLoader
(workers, dropout, momentum, a step-decay schedule, a best-loss record),
with a checkpoint hint inside an `if` in the batch loop; restarts at the
hint must reproduce the uninterrupted run's final weights exactly."""
import argparse
import hashlib

import torch
from torch.utils.data import DataLoader, TensorDataset


def _checkpoint(label=None):
    pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(512, 8), torch.randn(512, 1))
    loader = DataLoader(data, batch_size=32, shuffle=True,
                        num_workers=args.workers)
    model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(),
                                torch.nn.Dropout(0.2), torch.nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5)
    best = float("inf")
    seen = 0
    for epoch in range(4):
        _iterations: 4
        total = 0.0
        if epoch >= 0:
            for i, (x, y) in enumerate(loader):
                _iterations: 16
                opt.zero_grad()
                loss = torch.nn.functional.mse_loss(model(x), y)
                loss.backward()
                opt.step()
                total += loss.item()
                seen += len(x)
                _checkpoint("step")  # detc: cost=0.0005
        sched.step()
        best = min(best, total)
    weights = torch.cat([p.detach().flatten() for p in model.parameters()])
    print("final", seen, best.hex(), weights.double().sum().item().hex(),
          hashlib.sha256(weights.numpy().tobytes()).hexdigest()[:16])


if __name__ == "__main__":
    main()
