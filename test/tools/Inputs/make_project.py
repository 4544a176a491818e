"""Writes a small project tree for `detc analyze PATH...` (analyze_project.test).

Each script draws from `random` inside a DataLoader's per-example region, so
every file that is analysed has exactly one finding, at the line of its
`random.random()`: which files a report names shows which files were
analysed.
"""
import os
import sys

from project_tree import write_tree

SCRIPT = """import random
import torch
from torch.utils.data import DataLoader, Dataset


class Points(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.tensor([random.random()])


for x in DataLoader(Points(), num_workers=2):
    pass
"""

root = sys.argv[1]
files = {
    # Analysed.
    "train.py": SCRIPT,
    "pkg/__init__.py": "",
    "pkg/data.py": SCRIPT,
    "pkg/generated_keep.py": SCRIPT,  # taken back in by `!generated_keep.py`
    "sub/ok.py": SCRIPT,
    # Left out.
    "pkg/generated_x.py": SCRIPT,  # .gitignore: generated_*.py
    "build/b.py": SCRIPT,  # .gitignore: /build/
    "sub/local_a.py": SCRIPT,  # sub/.gitignore: local_*.py
    "legacy/old.py": SCRIPT,  # [tool.detc] exclude = ["legacy/"]
    "notes/skip_me.py": SCRIPT,  # --exclude 'skip_*.py' in one RUN line
    ".hidden/h.py": SCRIPT,  # a hidden folder
    "venv/lib/v.py": SCRIPT,  # a virtual environment
    "node_modules/n.py": SCRIPT,
    "pkg/__pycache__/c.py": SCRIPT,
    # Not Python.
    "README.md": "# not analysed\n",
    # Named and ignored.
    ".gitignore": "generated_*.py\n/build/\n!generated_keep.py\n",
    "sub/.gitignore": "local_*.py\n",
    "pyproject.toml": '[tool.detc]\nexclude = ["legacy/"]\n',
}
write_tree(root, files)
# A link back to the top: a walk that followed it would never end.
link = os.path.join(root, "sub", "loop")
if not os.path.islink(link):
    os.symlink(root, link)

# A second project with a file that does not parse.
broken = root + "-broken"
os.makedirs(broken, exist_ok=True)
with open(os.path.join(broken, "a_bad.py"), "w") as f:
    f.write("def f(:\n")
with open(os.path.join(broken, "b_good.py"), "w") as f:
    f.write(SCRIPT)
