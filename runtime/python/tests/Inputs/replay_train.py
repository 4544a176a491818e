"""A small training script written the way `detc transform` instruments one
for replay (the runtime's contract with the code generator): fast-forward
guards on the statements replay skips, the keyed loader's loop shape, the
checkpoint call, and the restore line after it.

usage: replay_train.py OUT_DIR [--epochs N] [--every K] [--stop-after S]
       [--detc-resume CKPT | --detc-replay CKPT --detc-until E:S]
Writes OUT_DIR/ckpt-<step>.pt every K steps and OUT_DIR/final.pt.
"""
import argparse
import os

import detc_runtime as _detc_rt

_detc_rt.configure(script_sha256="ab" * 32)

# A restore that leaves the optimizer out (as a gap in detc's analysis
# would): the resume must stop with exit 3 naming 'opt'.
FORGET_OPT = os.environ.get("REPLAY_TRAIN_FORGET_OPT") == "1"

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--stop-after", type=int, default=-1)
    args = parser.parse_args()

    _detc_rt.seeding(1, torch.manual_seed)(7)
    data = torch.randn(40, 8)
    labels = torch.randint(0, 3, (40,))
    loader = _detc_rt.keyed_loader(1, DataLoader)(
        TensorDataset(data, labels), batch_size=6, shuffle=True)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(),
                          _detc_rt.keyed_module(2, 1, nn.Dropout)(0.3),
                          nn.Linear(16, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    step = 0
    running = 0.0  # read after the checkpoint, derived from the forward
    for epoch in range(args.epochs):
        for x, y in _detc_rt.batches(loader, 2):
            if _detc_rt.guard(): loss = F.cross_entropy(model(x), y)
            if _detc_rt.guard(): opt.zero_grad()
            if _detc_rt.guard(): loss.backward()
            if _detc_rt.guard(): opt.step()
            if _detc_rt.guard(): running = 0.9 * running + loss.item()
            step += 1
            if step % args.every == 0:
                _detc_rt.checkpoint(3, torch.save, {"running": lambda: running})({"model": model.state_dict(), "opt": opt.state_dict()}, os.path.join(args.out, "ckpt-%d.pt" % step))
                if _detc_rt.restoring(3): _c = _detc_rt.user_checkpoint(); model.load_state_dict(_c["model"]); FORGET_OPT or opt.load_state_dict(_c["opt"]); running = _detc_rt.saved_value("running"); _detc_rt.resumed({"model": lambda: model.state_dict(), "opt": lambda: opt.state_dict()})
            if step == args.stop_after:
                os._exit(9)
    torch.save({"model": model.state_dict(), "running": running},
               os.path.join(args.out, "final.pt"))


if __name__ == "__main__":
    main()
