"""Small training pipelines with silent errors (test/e2e/traincheck.py):
--model picks the pipeline, --bug injects one of TrainCheck's silent errors
(none of them crashes; each wastes the run)."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MLP(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc1 = nn.Linear(8, width)
        self.bn = nn.BatchNorm1d(width)
        self.drop = nn.Dropout(0.3)
        self.fc2 = nn.Linear(width, 3)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.bn(self.fc1(x)))))


class ConvNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv = nn.Conv1d(1, width, 3, padding=1)
        self.bn = nn.BatchNorm1d(width)
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(width * 8, 3)

    def forward(self, x):
        h = F.relu(self.bn(self.conv(x.unsqueeze(1))))
        return self.head(self.drop(h.flatten(1)))


def evaluate(model, loader, bug):
    if bug != "eval_dropout":
        model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
    model.train()
    return correct


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="mlp")
    p.add_argument("--width", type=int, default=16)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--optim", default="sgd")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--bug", default="none")
    args = p.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(128, 8), torch.randint(0, 3, (128,)))
    loader = DataLoader(data, batch_size=16, shuffle=True)
    model = MLP(args.width) if args.model == "mlp" else ConvNet(args.width)
    params = model.parameters()
    if args.bug == "wrong_params":
        params = (MLP(args.width) if args.model == "mlp"
                  else ConvNet(args.width)).parameters()
    if args.bug == "frozen":
        for name, q in model.named_parameters():
            q.requires_grad = "bn" in name
    if args.optim == "sgd":
        opt = torch.optim.SGD(params, lr=args.lr, momentum=0.9)
    else:
        opt = torch.optim.Adam(params, lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            if args.bug != "no_zero_grad":
                opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
        print("epoch", epoch, evaluate(model, loader, args.bug))


if __name__ == "__main__":
    main()
