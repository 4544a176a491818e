"""Small training pipelines with silent errors (test/e2e/traincheck.py):
--model picks the pipeline, --bug injects one of TrainCheck's silent errors
(none of them crashes; each wastes the run)."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


class Classifier(nn.Module):
    """Returns log-probabilities, for nll_loss (as pytorch/examples' MNIST
    does). --bug no_log_softmax: a refactoring dropped the log_softmax, so
    nll_loss gets raw scores; its loss goes negative and training pushes
    the scores up without bound — nothing fails."""
    raw_scores = False

    def scores(self, logits):
        return logits if self.raw_scores else F.log_softmax(logits, 1)


class MLP(Classifier):
    # --bug dropout_unused: a refactoring left the dropout layer defined
    # but no longer applied (the model overfits; nothing fails).
    skip_dropout = False

    def __init__(self, width):
        super().__init__()
        self.fc1 = nn.Linear(8, width)
        self.bn = nn.BatchNorm1d(width)
        self.drop = nn.Dropout(0.3)
        self.fc2 = nn.Linear(width, 3)

    def forward(self, x):
        h = F.relu(self.bn(self.fc1(x)))
        if not self.skip_dropout:
            h = self.drop(h)
        return self.scores(self.fc2(h))


class ConvNet(Classifier):
    def __init__(self, width):
        super().__init__()
        self.conv = nn.Conv1d(1, width, 3, padding=1)
        self.bn = nn.BatchNorm1d(width)
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(width * 8, 3)

    def forward(self, x):
        h = F.relu(self.bn(self.conv(x.unsqueeze(1))))
        return self.scores(self.head(self.drop(h.flatten(1))))


class SNNet(Classifier):
    """Spectral normalization on the first layer: its power iteration runs
    only in training forwards, so an evaluation before any training forward
    normalizes by a random vector's estimate (TrainCheck's B19)."""

    def __init__(self, width):
        super().__init__()
        self.fc1 = nn.utils.spectral_norm(nn.Linear(8, width))
        self.drop = nn.Dropout(0.2)
        self.fc2 = nn.Linear(width, 3)

    def forward(self, x):
        return self.scores(self.fc2(self.drop(F.relu(self.fc1(x)))))


def build(kind, width):
    if kind == "mlp":
        return MLP(width)
    return ConvNet(width) if kind == "conv" else SNNet(width)


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
    p.add_argument("--sched", action="store_true",
                   help="decay the learning rate once per epoch")
    p.add_argument("--ddp", help="gloo process group file (RANK, WORLD_SIZE "
                   "from the environment, or --spawn)")
    p.add_argument("--spawn", action="store_true",
                   help="with --ddp: start 2 ranks with "
                   "torch.multiprocessing.spawn (no RANK in the environment)")
    args = p.parse_args()
    if args.spawn:
        torch.multiprocessing.spawn(spawned, args=(args,), nprocs=2)
    else:
        train(args, int(os.environ.get("RANK", "0")),
              int(os.environ.get("WORLD_SIZE", "1")))


def spawned(rank, args):
    train(args, rank, 2)


def train(args, rank, world):
    torch.manual_seed(0)
    MLP.skip_dropout = args.bug == "dropout_unused"
    Classifier.raw_scores = args.bug == "no_log_softmax"
    features = torch.randn(128, 8)
    if args.bug == "nan_features":
        # Standardized per column, one of which is constant (a sensor that
        # never changed): 0 / 0 makes it NaN in every example.
        features[:, 3] = 1.0
        features = (features - features.mean(0)) / features.std(0)
    data = TensorDataset(features, torch.randint(0, 3, (128,)))
    if args.ddp:
        dist.init_process_group(
            "gloo", init_method="file://" + args.ddp,
            rank=rank, world_size=world)
        loader = DataLoader(data, batch_size=8,
                            sampler=DistributedSampler(data, seed=0))
    else:
        loader = DataLoader(data, batch_size=16, shuffle=True)
    model = build(args.model, args.width)
    params = model.parameters()
    if args.bug == "wrong_params":
        params = build(args.model, args.width).parameters()
    if args.bug == "frozen":
        for name, q in model.named_parameters():
            q.requires_grad = "bn" in name
    if args.optim == "sgd":
        opt = torch.optim.SGD(params, lr=args.lr, momentum=0.9)
    else:
        opt = torch.optim.Adam(params, lr=args.lr)
    scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    net = DDP(model) if args.ddp else model
    if args.bug == "eval_first":
        print("before training", evaluate(net, loader, args.bug))
    # The batch fetched once, to look at it, then trained on at every step
    # in place of the loader's.
    first = next(iter(loader)) if args.bug == "same_batch" else None
    for epoch in range(args.epochs):
        net.train()
        for x, y in loader:
            if first is not None:
                x, y = first
            if args.bug != "no_zero_grad":
                opt.zero_grad()
            if args.bug == "ddp_module":
                out = net.module(x)  # bypasses the all-reduce
            else:
                out = net(x)
            loss = F.nll_loss(out, y)
            loss.backward()
            if args.bug == "clip_one_rank" and dist.get_rank() == 0:
                nn.utils.clip_grad_norm_(net.parameters(), 0.01)
            opt.step()
            if args.bug == "sched_per_batch":
                scheduler.step()  # meant once per epoch
        if args.sched:
            scheduler.step()
        print("epoch", epoch, evaluate(net, loader, args.bug))
    if args.ddp:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
