"""Pytorch-UNet's shapes: a dataset finding each example's file with
pathlib (`list(self.images_dir.glob(name + '.*'))` in __getitem__), and a
training function called again after an out-of-memory error."""
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset


class BasicDataset(Dataset):
    def __init__(self, images_dir):
        self.images_dir = Path(images_dir)
        self.ids = sorted(p.stem for p in self.images_dir.glob("*.npy"))

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, idx):
        name = self.ids[idx]
        img_file = list(self.images_dir.glob(name + ".*"))
        x = torch.as_tensor(np.load(img_file[0]), dtype=torch.float32)
        return x, int(x.sum() > 0)


def write_examples(root):
    rng = np.random.RandomState(0)
    for i in range(40):
        np.save(Path(root) / f"{i:03d}.npy", rng.randn(8))


def train_model(model, root, out, batch_size):
    loader = DataLoader(BasicDataset(root), batch_size=batch_size, shuffle=True, num_workers=2)
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-3, momentum=0.9)
    for epoch in range(3):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print("done", epoch, flush=True)
    torch.save(model.state_dict(), out)


if __name__ == "__main__":
    torch.manual_seed(0)
    root = tempfile.mkdtemp()
    write_examples(root)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 2))
    try:
        train_model(model, root, sys.argv[1], batch_size=4)
    except torch.cuda.OutOfMemoryError:
        torch.cuda.empty_cache()
        train_model(model, root, sys.argv[1], batch_size=2)
