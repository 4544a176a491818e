"""Input of the combined CheckHint + replay tests: the training loop saves
its own checkpoint every few steps (instrumented for replay) and has a
checkpoint hint (instrumented for restart); either kind resumes
bit-identically, and user checkpoints written after a restart at the hint
number their runs as the first run did."""
import argparse
import hashlib

import torch
from torch.utils.data import DataLoader, TensorDataset


def _checkpoint(label=None):
    pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="hint_replay.pt")
    parser.add_argument("--ckpt", default="hint_replay_ckpt.pt")
    parser.add_argument("--ckpt-every", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(384, 8), torch.randn(384, 1))
    loader = DataLoader(data, batch_size=32, shuffle=True)
    model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(),
                                torch.nn.Dropout(0.2), torch.nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    step = 0
    for epoch in range(args.epochs):
        _iterations: 3
        for x, y in loader:
            _iterations: 12
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            step += 1
            _checkpoint("step")
            if step % args.ckpt_every == 0:
                torch.save({"model": model.state_dict(),
                            "opt": opt.state_dict(), "step": step}, args.ckpt)
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                "step": step}, args.out)
    weights = torch.cat([p.detach().flatten() for p in model.parameters()])
    print("final", step,
          hashlib.sha256(weights.numpy().tobytes()).hexdigest()[:16])


if __name__ == "__main__":
    main()
