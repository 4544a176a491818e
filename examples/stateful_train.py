"""Training whose checkpoint leaves state out (tiny, CPU).

The checkpoint written every --ckpt-every steps holds the model, the
optimizer and the loop position, like most scripts' — but the run also
depends on state it does not save, which later steps read:
  - `noise_buf`, a running noise buffer added to every batch (persists
    across batches and epochs);
  - `lr`, a hand-written learning-rate schedule variable (halved every
    10 steps and written into the optimizer);
  - `best_acc`, the best validation accuracy so far (decides when the
    best model is kept).
The script's own --resume loads its checkpoint and skips the batches it
had done: the resumed run silently diverges from an uninterrupted one.
`detc analyze` lists the three as fast-forwarded or saved by detc, and the
transformed script's --detc-resume continues bit-identically.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_data(n, features):
    x = torch.randn(n, features)
    y = (x[:, 0] > 0).long() + 2 * (x[:, 1] > 0).long()
    return x, y


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    model.train()
    return acc


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--examples", type=int, default=256)
    parser.add_argument("--features", type=int, default=16)
    parser.add_argument("--ckpt-every", type=int, default=4)
    parser.add_argument("--out", default="stateful_model.pt")
    parser.add_argument("--resume", default=None,
                        help="the script's own resume (loses state)")
    args = parser.parse_args()

    torch.manual_seed(0)
    x_train, y_train = make_data(args.examples, args.features)
    x_val, y_val = make_data(64, args.features)
    loader = DataLoader(TensorDataset(x_train, y_train), batch_size=16,
                        shuffle=True)
    model = nn.Sequential(nn.Linear(args.features, 32), nn.ReLU(),
                          nn.Dropout(0.2), nn.Linear(32, 4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    lr = 0.1
    noise_buf = torch.zeros(args.features)
    best_acc = 0.0
    best_state = None
    step = 0
    start_epoch, done = 0, 0
    if args.resume:
        ckpt = torch.load(args.resume)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        step, start_epoch, done = ckpt["step"], ckpt["epoch"], ckpt["batch"]
    for epoch in range(start_epoch, args.epochs):
        for batch, (x, y) in enumerate(loader):
            if epoch == start_epoch and batch < done:
                continue
            noise_buf = 0.9 * noise_buf + 0.1 * torch.randn(args.features)
            loss = F.cross_entropy(model(x + noise_buf), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            if step % 10 == 0:
                lr = lr * 0.5
                for group in optimizer.param_groups:
                    group["lr"] = lr
            if step % args.ckpt_every == 0:
                torch.save({"model": model.state_dict(),
                            "optimizer": optimizer.state_dict(),
                            "epoch": epoch, "batch": batch + 1,
                            "step": step}, args.out)
        acc = evaluate(model, x_val, y_val)
        if acc > best_acc:
            best_acc = acc
            best_state = {k: v.clone() for k, v in model.state_dict().items()}
        print(f"epoch {epoch}: loss {loss.item():.4f} acc {acc:.3f}")
    torch.save({"model": model.state_dict(), "best": best_state,
                "best_acc": best_acc, "lr": lr, "noise_buf": noise_buf},
               args.out)


if __name__ == "__main__":
    main()
