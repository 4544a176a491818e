"""The canonical ImageNet example's shape, tiny and on CPU: `ImageFolder`
over a folder of generated PNG images, `RandomResizedCrop`,
`RandomHorizontalFlip`, `ToTensor`, `Normalize`; a torchvision model chosen
by name (`models.__dict__[args.arch]`, default squeezenet1_1: it has
dropout); workers from `-j`; `main()` calling `main_worker()`;
`save_checkpoint(state, is_best)` writing a dict built in the loop, at the
end of each epoch and (with --ckpt-every N) every N steps to --out: the
kill/resume test resumes from there.

usage: imagenet_train.py [-j N] [--epochs N] [--arch NAME] [--ckpt-every N]
                         --out FILE
"""
import argparse
import os
import shutil

import torch
import torch.nn as nn
import torchvision.datasets as datasets
import torchvision.models as models
import torchvision.transforms as transforms
from PIL import Image


def make_images(root, per_class=16, classes=3, size=40):
    """Deterministic PNGs, one directory per class; safe in parallel."""
    gen = torch.Generator().manual_seed(5)
    for c in range(classes):
        directory = os.path.join(root, "class%d" % c)
        os.makedirs(directory, exist_ok=True)
        for i in range(per_class):
            path = os.path.join(directory, "%03d.png" % i)
            pixels = (torch.rand(size, size, 3, generator=gen) * 200 +
                      20 * c).clamp(0, 255).to(torch.uint8)
            if not os.path.exists(path):
                # Not a .png until complete: a run killed here must leave
                # nothing ImageFolder would load.
                partial = "%s.%d.tmp" % (path, os.getpid())
                Image.fromarray(pixels.numpy()).save(partial, format="PNG")
                os.replace(partial, path)


def save_checkpoint(state, is_best, filename="checkpoint.pth.tar"):
    torch.save(state, filename)
    if is_best:
        shutil.copyfile(filename, filename + ".best")


def main_worker(args):
    model = models.__dict__[args.arch](num_classes=3)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), 0.01, momentum=0.9)
    normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406],
                                     std=[0.229, 0.224, 0.225])
    train_dataset = datasets.ImageFolder(
        args.data,
        transforms.Compose([
            transforms.RandomResizedCrop(32),
            transforms.RandomHorizontalFlip(),
            transforms.ToTensor(),
            normalize,
        ]))
    train_loader = torch.utils.data.DataLoader(
        train_dataset, batch_size=args.batch_size, shuffle=True,
        num_workers=args.workers)
    best_loss = float("inf")
    step = 0
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for images, target in train_loader:
            loss = criterion(model(images), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
            step += 1
            if args.ckpt_every and step % args.ckpt_every == 0:
                save_checkpoint({
                    "epoch": epoch,
                    "step": step,
                    "state_dict": model.state_dict(),
                    "best_loss": best_loss,
                    "optimizer": optimizer.state_dict(),
                }, False, args.out)
        is_best = total < best_loss
        best_loss = min(total, best_loss)
        save_checkpoint({
            "epoch": epoch + 1,
            "arch": args.arch,
            "state_dict": model.state_dict(),
            "best_loss": best_loss,
            "optimizer": optimizer.state_dict(),
        }, is_best, args.out + ".ckpt")
        print("epoch %d: loss %.4f" % (epoch, total))
    torch.save({"model": model.state_dict()}, args.out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=None)
    parser.add_argument("-j", "--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("-b", "--batch-size", type=int, default=16)
    parser.add_argument("--arch", default="squeezenet1_1")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ckpt-every", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    args.data = args.data or os.path.join(
        os.path.dirname(os.path.abspath(args.out)), "imagenet_data")
    make_images(args.data)
    torch.manual_seed(args.seed)
    main_worker(args)


if __name__ == "__main__":
    main()
