"""Writes a small training project for `detc transform PATH... -o OUTDIR`
(transform_project.test).

train.py and tools/evaluate.py run as scripts (`if __name__ ==
"__main__":`); models/ and data/ are modules they import: a dropout layer
and a dataset that draws in its __getitem__, neither of which the
transform edits (the scripts key them at run time). train.py reads
config/train.json from its own folder; data/weights.bin is a sparse file
larger than detc copies. With
`broken` as a second argument, tools/evaluate.py has a syntax error.
"""
import sys

from project_tree import write_tree

TRAIN = '''import json
import os
import sys

import torch
from torch.utils.data import DataLoader

from data.points import Points
from models.net import Net


def main(workers, out):
    torch.manual_seed(0)
    model = Net()
    # A configuration beside the script: the transformed copy needs it too.
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "config", "train.json")) as f:
        lr = json.load(f)["lr"]
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    loader = DataLoader(Points(), batch_size=4, shuffle=True,
                        num_workers=workers)
    for x, y in loader:
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    torch.save(model.state_dict(), out)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
'''

NET = '''import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.fc(self.drop(x))
'''

POINTS = '''import torch
from torch.utils.data import Dataset


class Points(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        x = torch.full((3,), float(i)) + torch.rand(3)
        return x, x.sum(0, keepdim=True)
'''

EVALUATE = '''import torch

from models.net import Net

if __name__ == "__main__":
    model = Net()
    print(model(torch.rand(2, 3)))
'''

root = sys.argv[1]
files = {
    "train.py": TRAIN,
    "models/__init__.py": "",
    "models/net.py": NET,
    "data/__init__.py": "",
    "data/points.py": POINTS,
    "tools/evaluate.py": EVALUATE + ("def broken(:\n" if sys.argv[2:] ==
                                     ["broken"] else ""),
    "scratch/try.py": "import random\nprint(random.random())\n",
    ".gitignore": "scratch/\n",
    "README.md": "# a project\n",
    "config/train.json": '{"lr": 0.1}\n',
}
write_tree(root, files)
# 65 MiB that take no disk: over what `detc transform -o` copies.
with open(root + "/data/weights.bin", "wb") as f:
    f.truncate(65 << 20)
