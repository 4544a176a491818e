"""Every shape of checkpoint users write, each a site detc must cover with
a sidecar and an exact resume (--shape picks the one written every
--ckpt-every steps; the file's last statement is a final save):

  module    torch.save(net, path): the whole module pickled
  dictvar   state = {...} built earlier, then torch.save(state, path)
  helper    a function saving the `net` global (not a parameter)
  wrapped   the state_dict() of a DataParallel wrapper's .module
  either    the state_dict() of `(wrapped.module if several devices
            else net)`, written over two lines (hifi-gan's)
  extrakey  the model's own state_dict() with an entry of the script's
            stored into it before the save (Pytorch-UNet's
            `state_dict['mask_values'] = ...`); the optimizer's momentum
            goes in the sidecar (its payload of tensors)
  computed  a helper saving a variable a function of the script computes
            (`sd = state_of(net); torch.save(sd, path)`): fast-forward
            skips that statement, and reading `sd` at the save and at the
            restore raised UnboundLocalError
  buffer    a torch.save into io.BytesIO first (not a checkpoint: a
            serialized copy kept in memory), then the file's own save
  semicolon the save and another statement on the line of an `elif`
            header, joined by `;`
  renamed   timm's CheckpointSaver: saved under a temporary name, renamed
            over the checkpoint (os.replace), then linked to a per-step
            name and copied to the best one (the sidecar follows each)

Every shape steps with `zero_grad(); backward(); step()` on one line (the
statements fast-forward skips must get lines of their own).

Module level, as many scripts are: the final save ends the file.

usage: checkpoint_shapes_train.py --shape S [--epochs N] [--ckpt-every N]
                                  --out FILE
"""
import argparse
import io
import os
import shutil

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--shape", default="module")
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--ckpt-every", type=int, default=4)
parser.add_argument("--devices", type=int, default=1)
parser.add_argument("--out", required=True)
args = parser.parse_args()
torch.manual_seed(4)
data = TensorDataset(torch.randn(96, 6), torch.arange(96) % 3)
loader = DataLoader(data, batch_size=8, shuffle=True)
net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                    nn.Linear(16, 3))
wrapped = nn.DataParallel(net)
optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
step = 0
copies = []
classes = list(range(3))


class CheckpointSaver:
    def __init__(self, model, optimizer, path):
        self.model = model
        self.optimizer = optimizer
        self.path = path
        self.best = None

    def _save(self, save_path, epoch, metric):
        torch.save({"epoch": epoch, "state_dict": self.model.state_dict(),
                    "optimizer": self.optimizer.state_dict(),
                    "metric": metric}, save_path)

    def save_checkpoint(self, epoch, metric):
        tmp = self.path + ".tmp"
        self._save(tmp, epoch, metric)
        os.replace(tmp, self.path)
        per_step = "%s-%d" % (self.path, step)
        if os.path.exists(per_step):  # as timm's _duplicate does
            os.unlink(per_step)
        os.link(self.path, per_step)
        if self.best is None or metric < self.best:
            self.best = metric
            shutil.copyfile(self.path, self.path + ".best")


saver = CheckpointSaver(net, optimizer, args.out)


def state_of(model):
    return {k: v.clone() for k, v in model.state_dict().items()}


def save_computed():
    sd = state_of(net)
    torch.save(sd, args.out)


def save_all(epoch):
    torch.save({"net": net.state_dict(), "optimizer": optimizer.state_dict(),
                "epoch": epoch, "step": step}, args.out)


for epoch in range(args.epochs):
    for x, y in loader:
        loss = F.cross_entropy(net(x), y)
        optimizer.zero_grad(); loss.backward(); optimizer.step()
        step += 1
        if step % args.ckpt_every:
            continue
        if args.shape == "module":
            torch.save(net, args.out)
        elif args.shape == "dictvar":
            state = {"net": net.state_dict(),
                     "optimizer": optimizer.state_dict(), "step": step}
            torch.save(state, args.out)
        elif args.shape == "helper":
            save_all(epoch)
        elif args.shape == "wrapped":
            torch.save({"net": wrapped.module.state_dict(),
                        "optimizer": optimizer.state_dict()}, args.out)
        elif args.shape == "either":
            torch.save({"net": (wrapped.module if args.devices > 1
                                else net).state_dict(),
                        "optimizer": optimizer.state_dict()}, args.out)
        elif args.shape == "extrakey":
            state_dict = net.state_dict()
            state_dict["classes"] = classes
            torch.save(state_dict, args.out)
        elif args.shape == "computed":
            save_computed()
        elif args.shape == "buffer":
            buffer = io.BytesIO()
            torch.save(net.state_dict(), buffer)
            copies.append(len(buffer.getvalue()))
            torch.save({"net": net.state_dict(),
                        "optimizer": optimizer.state_dict()}, args.out)
        elif args.shape == "renamed":
            # (A metric the training computes, `float(loss)`, is not yet
            # supported here: fast-forward evaluates the call's arguments
            # and the forward is skipped.)
            saver.save_checkpoint(epoch, -step)
        elif args.shape == "semicolon": torch.save({"net": net.state_dict(), "optimizer": optimizer.state_dict()}, args.out); copies.append(step)
torch.save({"net": net.state_dict(), "optimizer": optimizer.state_dict()}, args.out)
