#!/usr/bin/env python3
"""Latency of `detc analyze` when it reads library source (docs/analysis.md,
"Library source"): a real-shaped ~600-line training script that imports
torchvision, a local package and installed libraries no table models,
analysed with a cold summary cache, a warm one, and without library
reading (`--python none`, the baseline), best of R runs each.

By default the libraries are generated: a package of --files modules in a
site-packages folder of the bench's own (base classes in other files, star
re-exports, registries, layers), so that the bench needs nothing
installed. `--real PY` instead imports albumentations, timm and kornia
from the interpreter PY (a venv with them: `pip install --no-deps timm
albumentations kornia`).

Targets (issue: library source instead of hand-written tables): cold
<= 5 s, warm <= 1 s.

usage: library_source_latency.py [--detc BIN] [--files N] [--repeat R]
       [--real PY]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_library(root, files):
    """A package `benchaug` of `files` modules: each defines four
    transforms on a base class of another module, one of them drawing."""
    pkg = os.path.join(root, "benchaug")
    write(os.path.join(pkg, "core.py"),
          "import random\n\nimport numpy as np\n\n\n"
          "class Base:\n"
          "    def __init__(self, p=0.5):\n"
          "        self.p = p\n\n"
          "    def __call__(self, x):\n"
          "        if random.random() < self.p:\n"
          "            return self.apply(x)\n"
          "        return x\n\n"
          "    def apply(self, x):\n"
          "        return x\n\n\n"
          "class Pure:\n"
          "    def __call__(self, x):\n"
          "        return self.apply(x)\n")
    init = []
    for i in range(files):
        body = ["import numpy as np", "", "from .core import Base, Pure", ""]
        for j in range(4):
            base = "Base" if j == 0 else "Pure"
            body += ["", "class T%d_%d(%s):" % (i, j, base),
                     "    def apply(self, x):",
                     "        y = np.clip(x, 0, 1) * %d" % (j + 1),
                     "        return helper%d_%d(y)" % (i, j), "", "",
                     "def helper%d_%d(x):" % (i, j),
                     "    return np.asarray(x).reshape(-1)"]
        write(os.path.join(pkg, "mod%d.py" % i), "\n".join(body) + "\n")
        init.append("from .mod%d import *" % i)
    write(os.path.join(pkg, "__init__.py"), "\n".join(init) + "\n")


def make_script(directory, files, real):
    """~600 lines: a local package of helpers, a dataset using library
    transforms, a model, a training loop, evaluation and checkpoints."""
    write(os.path.join(directory, "helpers", "__init__.py"),
          "from .meters import AverageMeter\n")
    meters = ["class AverageMeter:",
              "    def __init__(self):",
              "        self.sum = 0.0",
              "        self.count = 0", "",
              "    def update(self, v, n=1):",
              "        self.sum += v * n",
              "        self.count += n", ""]
    for k in range(40):
        meters += ["", "def metric%d(a, b):" % k,
                   "    return float((a - b).abs().mean()) * %d" % (k + 1)]
    write(os.path.join(directory, "helpers", "meters.py"),
          "\n".join(meters) + "\n")
    if real:
        imports = ["import albumentations as A",
                   "import kornia.augmentation as K",
                   "from timm.data import Mixup",
                   "from timm.layers import DropPath"]
        augs = ["A.HorizontalFlip(p=0.5)", "A.Normalize()",
                "A.RandomBrightnessContrast()", "A.CenterCrop(8, 8)"]
        layer = "DropPath(0.1)"
    else:
        imports = ["import benchaug as A"]
        augs = ["A.T%d_%d()" % (i % files, i % 4) for i in range(12)]
        layer = "torch.nn.Dropout(0.1)"
    lines = ["import argparse", "import os", "", "import numpy as np",
             "import torch", "import torch.nn as nn",
             "import torchvision.transforms as T",
             "from torch.utils.data import DataLoader, Dataset", ""]
    lines += imports + ["", "from helpers import AverageMeter", "", ""]
    lines += ["class Images(Dataset):", "    def __init__(self, n):",
              "        self.n = n",
              "        self.base = T.Compose([T.ToTensor()])"]
    for i, a in enumerate(augs):
        lines.append("        self.aug%d = %s" % (i, a))
    lines += ["", "    def __len__(self):", "        return self.n", "",
              "    def __getitem__(self, i):",
              "        x = np.zeros((8, 8, 3), dtype=np.float32)"]
    for i in range(len(augs)):
        lines.append("        x = self.aug%d(x)" % i if not real else
                     "        x = self.aug%d(image=x)['image']" % i)
    lines += ["        return torch.from_numpy(np.asarray(x)), i % 10", "", ""]
    lines += ["class Net(nn.Module):", "    def __init__(self):",
              "        super().__init__()"]
    for k in range(30):
        lines.append("        self.fc%d = nn.Linear(16, 16)" % k)
    lines += ["        self.drop = %s" % layer, "",
              "    def forward(self, x):", "        x = x.flatten(1)[:, :16]"]
    for k in range(30):
        lines.append("        x = torch.relu(self.fc%d(x))" % k)
    lines += ["        return self.drop(x)", "", ""]
    for k in range(60):
        lines += ["def evaluate%d(model, loader):" % k,
                  "    meter = AverageMeter()",
                  "    with torch.no_grad():",
                  "        for x, y in loader:",
                  "            meter.update(float(model(x).mean()))",
                  "    return meter.sum", "", ""]
    lines += ["def main():", "    ap = argparse.ArgumentParser()",
              "    ap.add_argument('--epochs', type=int, default=2)",
              "    args = ap.parse_args()",
              "    loader = DataLoader(Images(64), batch_size=8, "
              "num_workers=2)",
              "    model = Net()",
              "    opt = torch.optim.SGD(model.parameters(), lr=0.1)"]
    if real:
        lines.append("    mixup = Mixup(mixup_alpha=0.8)")
    lines += ["    for epoch in range(args.epochs):",
              "        for x, y in loader:"]
    if real:
        lines.append("            x, y = mixup(x, y)")
    lines += ["            opt.zero_grad()",
              "            model(x).sum().backward()",
              "            opt.step()",
              "        torch.save(model.state_dict(), 'ckpt.pt')"]
    for k in range(0, 60, 6):
        lines.append("        evaluate%d(model, loader)" % k)
    lines += ["", "", "if __name__ == '__main__':", "    main()"]
    path = os.path.join(directory, "train.py")
    write(path, "\n".join(lines) + "\n")
    return path, len(lines)


def run(detc, script, python, cache, env):
    e = dict(env, DETC_CACHE_DIR=cache)
    start = time.perf_counter()
    p = subprocess.run([detc, "analyze", "--no-config", "--stats", "--python",
                        python, script], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=e)
    seconds = time.perf_counter() - start
    if p.returncode not in (0, 1):
        sys.exit("detc analyze failed (%d): %s" % (p.returncode,
                                                    p.stderr[-2000:]))
    files = [l for l in p.stderr.splitlines() if l.startswith("library files")]
    findings = p.stdout.count("warning:") + p.stderr.count("warning:")
    return seconds, (files[0] if files else "library files: -"), findings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", default=os.path.join(HERE, "..", "build", "bin",
                                                   "detc"))
    ap.add_argument("--files", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--real", metavar="PY",
                    help="an interpreter with albumentations, timm, kornia")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="detc-libbench-")
    try:
        env = dict(os.environ)
        python = args.real or sys.executable
        if not args.real:
            site = os.path.join(work, "site-packages")
            make_library(site, args.files)
            env["PYTHONPATH"] = site
        script, n = make_script(os.path.join(work, "project"), args.files,
                                bool(args.real))
        print("script: %d lines; libraries: %s" % (
            n, "albumentations, timm, kornia from " + args.real if args.real
            else "benchaug, %d generated modules" % (args.files + 2)))
        cache = os.path.join(work, "cache")
        results = {"none": [], "cold": [], "warm": []}
        notes = {}
        for _ in range(args.repeat):
            results["none"].append(run(args.detc, script, "none", "", env))
            shutil.rmtree(cache, ignore_errors=True)
            results["cold"].append(run(args.detc, script, python, cache, env))
            results["warm"].append(run(args.detc, script, python, cache, env))
        base = min(r[0] for r in results["none"])
        for kind in ("none", "cold", "warm"):
            best = min(results[kind], key=lambda r: r[0])
            print("%-5s best %.3f s (runs %s)  %.2fx of --python none  "
                  "%s, %d findings" % (
                      kind, best[0],
                      ", ".join("%.3f" % r[0] for r in results[kind]),
                      best[0] / base, best[1], best[2]))
        cold = min(r[0] for r in results["cold"])
        warm = min(r[0] for r in results["warm"])
        print("targets: cold <= 5 s (%s), warm <= 1 s (%s)" % (
            "met" if cold <= 5 else "NOT met", "met" if warm <= 1 else
            "NOT met"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
