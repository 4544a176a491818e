"""An MNIST-sized CNN training script, shaped like the canonical example
(two convolutions, max-pooling, two dropouts, log_softmax into nll_loss,
Adadelta with a per-epoch StepLR, an evaluation after each epoch), on
synthetic 1x28x28 images so that it needs no download. For
bench/transform_overhead.py: `--check` (online invariant checking) must
cost at most 5% CPU time on this pipeline (docs/traincheck.md).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = self.dropout1(x)
        x = F.relu(self.fc1(torch.flatten(x, 1)))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)


def train(model, loader, optimizer, epoch):
    model.train()
    for data, target in loader:
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()


def test(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            correct += (model(data).argmax(1) == target).sum().item()
    return correct


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batches", type=int, default=12,
                        help="training batches of 64 per epoch")
    parser.add_argument("--out", default="mnist_cnn.pt")
    args = parser.parse_args()
    torch.manual_seed(1)
    images = torch.randn(64 * args.batches, 1, 28, 28)
    labels = torch.randint(0, 10, (64 * args.batches,))
    train_loader = DataLoader(TensorDataset(images, labels), batch_size=64,
                              shuffle=True)
    test_loader = DataLoader(TensorDataset(images[:256], labels[:256]),
                             batch_size=256)
    model = Net()
    optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1,
                                                gamma=0.7)
    for epoch in range(args.epochs):
        train(model, train_loader, optimizer, epoch)
        print("epoch", epoch, test(model, test_loader), flush=True)
        scheduler.step()
    torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
