"""A training script whose randomness all lives in the modules it imports,
in the layout of many public repositories: `data_utils.py` builds the
DataLoaders (torchvision transforms plus a Cutout-style transform drawing
from numpy), `net.py` builds the model (nn.Dropout, nn.Dropout2d). This
script itself draws nothing; detc keys the loaders and layers those modules
build at run time (key_imported_loaders, key_imported_layers).

usage: train.py [--workers N] [--epochs N] --out FILE
"""
import argparse

import numpy as np
import torch
import torch.nn.functional as F

from data_utils import get_training_dataloader
from net import SmallNet


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    np.random.seed(0)
    loader = get_training_dataloader(batch_size=16, num_workers=args.workers)
    model = SmallNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(args.epochs):
        for images, labels in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(images), labels)
            loss.backward()
            optimizer.step()
    torch.save({"model": model.state_dict()}, args.out)


if __name__ == "__main__":
    main()
