"""PGD adversarial training (DETrain's running example, Fig. 2/Fig. 4), tiny.

Runs on CPU in a few seconds with synthetic data (sizes are flags; the
defaults are tiny so the tests stay fast). Sources of nondeterminism detc is
built to find: dropout inside the model, random noise added to the inputs,
random jitter added to each example when it is loaded (in the DataLoader's
workers), and the shuffled DataLoader; a checkpoint is written every epoch
(and every --ckpt-every steps).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Net(nn.Module):
    def __init__(self, features=16, hidden=32, classes=4):
        super().__init__()
        self.fc1 = nn.Linear(features, hidden)
        self.drop = nn.Dropout(p=0.25)
        self.fc2 = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.fc1(x))))


def pgd_attack(model, x, y, eps=0.1, alpha=0.02, steps=3, noise_gen=None):
    delta = torch.empty_like(x).uniform_(-eps, eps, generator=noise_gen)
    for _ in range(steps):
        delta.requires_grad_(True)
        loss = F.cross_entropy(model(x + delta), y)
        (grad,) = torch.autograd.grad(loss, delta)
        delta = (delta + alpha * grad.sign()).clamp(-eps, eps).detach()
    return x + delta


class JitteredPoints(Dataset):
    """Synthetic points; every fetch adds a little Gaussian jitter drawn from
    torch's global generator (in a worker process when num_workers > 0)."""

    def __init__(self, data, labels):
        self.data, self.labels = data, labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        point = self.data[index]
        return point + 0.01 * torch.randn(point.shape), self.labels[index]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--num-workers", type=int, default=0)
    parser.add_argument("--out", default="pgd_model.pt")
    parser.add_argument("--examples", type=int, default=256)
    parser.add_argument("--features", type=int, default=16)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--ckpt-every", type=int, default=0,
                        help="also checkpoint every N steps (0: never)")
    args = parser.parse_args()

    torch.manual_seed(123)
    data = torch.randn(args.examples, args.features)
    labels = torch.randint(0, 4, (args.examples,))
    loader = DataLoader(JitteredPoints(data, labels), batch_size=32,
                        shuffle=True, num_workers=args.num_workers)

    model = Net(args.features, args.hidden)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    noise = torch.Generator().manual_seed(567)
    step = 0
    for epoch in range(args.epochs):
        for x, y in loader:
            x_adv = pgd_attack(model, x, y, noise_gen=noise)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x_adv), y)
            loss.backward()
            optimizer.step()
            step += 1
            if args.ckpt_every and step % args.ckpt_every == 0:
                torch.save({"model": model.state_dict(),
                            "optimizer": optimizer.state_dict(),
                            "epoch": epoch}, args.out)
        torch.save({"model": model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "epoch": epoch}, args.out)
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
