"""Training pipelines written the way other people write them, for the
invariant-transfer protocol of test/e2e/traincheck_transfer.py: invariants
inferred from traincheck_train.py's pipelines (`model`, `opt`, a
functional nll_loss) must hold here (`network`, `optimizer`, a
CrossEntropyLoss object called `loss_fn`, a model made by a factory, a GAN
with two optimizers) and catch the same silent errors here, and the other
way round.

--kind picks the pipeline (cls: a classifier; gan: a generator and a
discriminator, each with its own Adam); --bug injects a silent error (a
missing zero_grad, every parameter but BatchNorm's frozen, a SpectralNorm
model evaluated before training, a DDP forward through `.module`)."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


class TinyNet(nn.Module):
    def __init__(self, hidden, spectral=False):
        super().__init__()
        first = nn.Linear(8, hidden)
        self.inp = nn.utils.spectral_norm(first) if spectral else first
        self.norm = nn.BatchNorm1d(hidden)
        self.act = nn.ReLU()
        self.dropout = nn.Dropout(p=0.25)
        self.out = nn.Linear(hidden, 3)

    def forward(self, inputs):
        hidden = self.act(self.norm(self.inp(inputs)))
        return self.out(self.dropout(hidden))


class Generator(nn.Module):
    def __init__(self, nz):
        super().__init__()
        self.fc = nn.Linear(nz, 16)
        self.act = nn.ReLU()
        self.head = nn.Linear(16, 8)

    def forward(self, z):
        return torch.tanh(self.head(self.act(self.fc(z))))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 16)
        self.act = nn.LeakyReLU(0.2)
        self.drop = nn.Dropout(0.1)
        self.head = nn.Linear(16, 1)

    def forward(self, x):
        return self.head(self.drop(self.act(self.fc(x))))


def get_model(hidden, spectral):
    return TinyNet(hidden, spectral)


def accuracy(network, val_loader, bug):
    if bug != "eval_dropout":
        network.eval()
    hits = 0
    with torch.no_grad():
        for inputs, targets in val_loader:
            hits += int((network(inputs).argmax(dim=1) == targets).sum())
    network.train()
    return hits


def fit_classifier(cfg, rank, world_size):
    torch.manual_seed(1)
    samples = TensorDataset(torch.randn(96, 8), torch.randint(0, 3, (96,)))
    if cfg.ddp:
        dist.init_process_group("gloo", init_method="file://" + cfg.ddp,
                                rank=rank, world_size=world_size)
        train_loader = DataLoader(samples, batch_size=8,
                                  sampler=DistributedSampler(samples, seed=1))
    else:
        train_loader = DataLoader(samples, batch_size=12, shuffle=True)
    network = get_model(cfg.hidden, cfg.bug == "eval_first")
    if cfg.bug == "frozen":
        for pname, weight in network.named_parameters():
            weight.requires_grad = pname.startswith("norm")
    optimizer = torch.optim.Adam(network.parameters(), lr=cfg.lr)
    loss_fn = nn.CrossEntropyLoss()
    wrapped = DistributedDataParallel(network) if cfg.ddp else network
    if cfg.bug == "eval_first":
        print("untrained", accuracy(wrapped, train_loader, cfg.bug))
    for ep in range(cfg.epochs):
        for it, (inputs, targets) in enumerate(train_loader):
            if cfg.bug != "no_zero_grad":
                optimizer.zero_grad()
            if cfg.bug == "ddp_module":
                logits = wrapped.module(inputs)  # skips the all-reduce
            else:
                logits = wrapped(inputs)
            loss = loss_fn(logits, targets)
            loss.backward()
            optimizer.step()
        print("epoch", ep, accuracy(wrapped, train_loader, cfg.bug))
    if cfg.ddp:
        dist.destroy_process_group()


def fit_gan(cfg):
    torch.manual_seed(2)
    real_data = TensorDataset(torch.rand(96, 8) * 2 - 1,
                              torch.zeros(96, dtype=torch.long))
    loader = DataLoader(real_data, batch_size=16, shuffle=True)
    nz = 4
    netG, netD = Generator(nz), Discriminator()
    optG = torch.optim.Adam(netG.parameters(), lr=cfg.lr, betas=(0.5, 0.999))
    optD = torch.optim.Adam(netD.parameters(), lr=cfg.lr, betas=(0.5, 0.999))
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(cfg.epochs):
        for real, _ in loader:
            b = real.size(0)
            ones, zeros = torch.ones(b, 1), torch.zeros(b, 1)
            optD.zero_grad()
            err_real = criterion(netD(real), ones)
            fake = netG(torch.randn(b, nz))
            err_fake = criterion(netD(fake.detach()), zeros)
            errD = err_real + err_fake
            errD.backward()
            optD.step()
            optG.zero_grad()
            errG = criterion(netD(fake), ones)
            errG.backward()
            optG.step()
        print("epoch", epoch, float(errD), float(errG))


def spawned(rank, cfg):
    fit_classifier(cfg, rank, 2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", default="cls")
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--bug", default="none")
    parser.add_argument("--ddp", help="gloo process group file (RANK, "
                        "WORLD_SIZE from the environment, or --spawn)")
    parser.add_argument("--spawn", action="store_true",
                        help="with --ddp: start 2 ranks with mp.spawn")
    cfg = parser.parse_args()
    if cfg.kind == "gan":
        fit_gan(cfg)
    elif cfg.spawn:
        mp.spawn(spawned, args=(cfg,), nprocs=2)
    else:
        fit_classifier(cfg, int(os.environ.get("RANK", "0")),
                       int(os.environ.get("WORLD_SIZE", "1")))


if __name__ == "__main__":
    main()
