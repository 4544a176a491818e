"""A GPU training script as users write them: random torchvision
transforms in DataLoader workers, a CNN with dropout on the accelerator,
mixed precision (autocast + GradScaler), per-batch noise made on the
device, a checkpoint every few steps.

Runs on the CPU where no GPU is present (`--device cpu`; autocast in
bfloat16, the scaler disabled). Transformed by detc, its dropout masks and
noise are drawn on the GPU from the keyed streams (device_streams.py):
the same weights for any `--workers`, and the same mask values as the
CPU's. test/e2e/cuda.py runs it on CUDA (and prints SKIP without one);
bench/gpu_overhead.py measures the transformed script's overhead there.
"""
import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision.transforms as T
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    """Synthetic 3x32x32 images in 10 classes (a fixed generator: the
    data are the same in every run)."""

    def __init__(self, n, transform):
        g = torch.Generator().manual_seed(5)
        self.images = torch.rand(n, 3, 32, 32, generator=g)
        self.labels = torch.randint(0, 10, (n,), generator=g)
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.transform(self.images[i]), self.labels[i]


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 3, padding=1)
        self.conv2 = nn.Conv2d(width, 2 * width, 3, padding=1)
        self.drop2d = nn.Dropout2d(0.1)
        self.fc1 = nn.Linear(2 * width * 8 * 8, 128)
        self.drop = nn.Dropout(0.3)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = self.drop2d(F.max_pool2d(F.relu(self.conv2(x)), 2))
        x = self.drop(F.relu(self.fc1(x.flatten(1))))
        return self.fc2(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default=None,
                        help="cuda, cpu, ... (default: cuda if available)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--examples", type=int, default=1024)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--ckpt-every", type=int, default=8)
    parser.add_argument("--out", default="cuda_train.pt")
    args = parser.parse_args()
    device = torch.device(args.device or (
        "cuda" if torch.cuda.is_available() else "cpu"))
    torch.manual_seed(0)
    # Deterministic kernels: detc makes the random streams deterministic,
    # the convolutions' algorithms are the script's choice.
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    transform = T.Compose([T.RandomCrop(32, padding=4),
                           T.RandomHorizontalFlip(),
                           T.Normalize((0.5, 0.5, 0.5), (0.25, 0.25, 0.25))])
    loader = DataLoader(Images(args.examples, transform),
                        batch_size=args.batch_size, shuffle=True,
                        num_workers=args.workers, drop_last=True)
    model = Net(args.width).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    amp_dtype = torch.float16 if device.type == "cuda" else torch.bfloat16
    scaler = torch.cuda.amp.GradScaler(enabled=device.type == "cuda")
    step = 0
    started = time.time()
    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            x = x.to(device, non_blocking=True)
            y = y.to(device, non_blocking=True)
            x = x + 0.02 * torch.randn(x.shape, device=device)
            opt.zero_grad(set_to_none=True)
            with torch.autocast(device_type=device.type, dtype=amp_dtype):
                loss = F.cross_entropy(model(x), y)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            step += 1
            if step % args.ckpt_every == 0:
                torch.save({"model": model.state_dict(),
                            "opt": opt.state_dict(), "step": step},
                           args.out)
        # (bench/transform_overhead.py times the steady state between
        # these lines.)
        print("epoch %d loss %.4f %.3f s" % (epoch, loss.item(),
                                             time.time() - started))
    torch.save({"model": {k: v.cpu() for k, v in model.state_dict().items()},
                "step": step}, args.out)
    print("loss %.6f after %d steps" % (loss.item(), step))


if __name__ == "__main__":
    main()
