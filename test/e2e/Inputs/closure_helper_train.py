"""DeepLabV3Plus-Pytorch's checkpoint shape: `def save_ckpt(path)` nested
in main(), saving what main holds (the model, optimizer, scheduler, best
score and iteration count are free variables of the helper, not its
parameters), called from the training loop every --ckpt-every steps and
once at the end. detc wrote no sidecar for it ("what it saves is built in
'save_ckpt' from values other than its parameters"): no resume at all.

usage: closure_helper_train.py [--epochs N] [--ckpt-every N] --out FILE
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--ckpt-every", type=int, default=4)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(3)
    loader = DataLoader(TensorDataset(torch.randn(96, 6), torch.arange(96) % 3),
                        batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                          nn.Linear(16, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 5, 0.5)
    best_score = 0.0
    cur_itrs = 0

    def save_ckpt(path):
        torch.save({
            "cur_itrs": cur_itrs,
            "model_state": model.state_dict(),
            "optimizer_state": optimizer.state_dict(),
            "scheduler_state": scheduler.state_dict(),
            "best_score": best_score,
        }, path)

    for epoch in range(args.epochs):
        for x, y in loader:
            cur_itrs += 1
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()
            if cur_itrs % args.ckpt_every == 0:
                best_score = max(best_score, -loss.item())
                save_ckpt(args.out)
    save_ckpt(args.out)


if __name__ == "__main__":
    main()
