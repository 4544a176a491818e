"""A training script written for PyTorch 2.x, as current tutorials write
them: the device from torch.accelerator, a torch.compile'd model with
dropout, autocast (bfloat16 on the CPU) and a GradScaler (torch >= 2.3
scales on the CPU too), per-batch noise, a checkpoint holding an argparse.Namespace loaded back
under torch.serialization.safe_globals. On torch 1.13 the 2.x parts are
skipped (the same weights either way within one torch version)."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Points(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(3)
        self.x = torch.randn(n, 16, generator=g)
        self.y = (self.x[:, :4].sum(1) > 0).long()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        # Per-example jitter, drawn in the loader's workers.
        return self.x[i] + 0.05 * torch.randn(16), self.y[i]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 64)
        self.drop = nn.Dropout(0.3)
        self.fc2 = nn.Linear(64, 2)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.fc1(x))))


def pick_device():
    accelerator = getattr(torch, "accelerator", None)
    if accelerator is not None and accelerator.is_available():
        return accelerator.current_accelerator()
    return torch.device("cpu")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--compile", default="eager",
                        help="torch.compile backend ('none': not compiled)")
    parser.add_argument("--out", default="torch2.pt")
    args = parser.parse_args()
    torch.manual_seed(0)
    device = pick_device()
    loader = DataLoader(Points(512), batch_size=32, shuffle=True,
                        num_workers=args.workers)
    model = Net().to(device)
    if args.compile != "none" and hasattr(torch, "compile"):
        model = torch.compile(model, backend=args.compile)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    amp = getattr(torch, "amp", None)
    scaler = None
    if amp is not None and hasattr(amp, "GradScaler"):
        # (Enabled on the CPU too: torch >= 2.3 scales gradients there.)
        scaler = amp.GradScaler(device.type)
    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            opt.zero_grad()
            with torch.autocast(device_type=device.type, dtype=torch.bfloat16):
                out = model(x + 0.01 * torch.randn_like(x))
            loss = F.cross_entropy(out.float(), y)
            if scaler is not None:
                scaler.scale(loss).backward()
                scaler.step(opt)
                scaler.update()
            else:
                loss.backward()
                opt.step()
        torch.save({"model": model.state_dict(), "args": args}, args.out)
    serialization = torch.serialization
    if hasattr(serialization, "safe_globals"):
        with serialization.safe_globals([argparse.Namespace]):
            state = torch.load(args.out)
    else:
        state = torch.load(args.out)
    # The saved weights under plain names (a compiled model's are under
    # `_orig_mod.`), as the test compares them.
    weights = {k.replace("_orig_mod.", ""): v.cpu()
               for k, v in state["model"].items()}
    torch.save({"model": weights}, args.out)
    print("loss %.6f" % loss.item())


if __name__ == "__main__":
    main()
