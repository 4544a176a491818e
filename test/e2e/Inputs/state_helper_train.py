"""A helper of the script that saves its parameter's state dict, `def
save_state(model, path): torch.save(model.state_dict(), path)`, while the
caller's optimizer must be saved too (Adam's moments are not in the
checkpoint): the session-65 first binary gave it no sidecar ("'opt' (of
'main') must be saved but is not visible where the checkpoint is
written"); it is restored after the helper's call, where `opt` is.

usage: state_helper_train.py --out FILE [--epochs N]"""
import argparse
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def save_state(model, path):
    torch.save(model.state_dict(), path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--epochs", type=int, default=4)
    args = parser.parse_args()
    torch.manual_seed(0)
    x = torch.randn(48, 4)
    loader = DataLoader(TensorDataset(x, (x.sum(1) > 0).long()),
                        batch_size=8, shuffle=True, num_workers=2)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Dropout(0.3),
                          nn.Linear(16, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        for xb, yb in loader:
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.01)  # so that a kill lands inside the loop
        save_state(model, args.out)


if __name__ == "__main__":
    main()
