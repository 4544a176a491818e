# DeepLabV3Plus-Pytorch's checkpoint: `def save_ckpt(path)` nested in
# main(), saving main's model, optimizer, best score and iteration (free
# variables of the helper), while main also keeps a running loss detc must
# save: the call is announced and the state restored after it, in main,
# under the same names (detc wrote no sidecar: "what it saves is built in
# 'save_ckpt' from values other than its parameters"). The e2e test of the
# shape restored inside the helper is e2e-kill-resume-closure-helper.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: detc writes no sidecar
# CHECK: {{^ *}}_detc_rt.announce_checkpoint([[S:[0-9]+]], {"interval_loss": lambda: interval_loss}
# CHECK-NEXT: {{^ *}}if _detc_rt.guard(): save_ckpt(args.out)
# CHECK: {{^ *}}if _detc_rt.restoring([[S]]):
# CHECK-NEXT: {{^ *}}_detc_ckpt = _detc_rt.user_checkpoint()
# CHECK-NEXT: {{^ *}}model.load_state_dict(_detc_ckpt["model_state"])
# CHECK-NEXT: {{^ *}}optimizer.load_state_dict(_detc_ckpt["optimizer_state"])
# CHECK-NEXT: {{^ *}}best_score = _detc_rt.restore_value(lambda: best_score, _detc_ckpt["best_score"])
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    loader = DataLoader(TensorDataset(torch.randn(64, 6), torch.arange(64) % 3),
                        batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Linear(6, 16), nn.Dropout(0.2), nn.Linear(16, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    best_score = 0.0
    cur_itrs = 0
    interval_loss = 0.0

    def save_ckpt(path):
        torch.save({
            "cur_itrs": cur_itrs,
            "model_state": model.state_dict(),
            "optimizer_state": optimizer.state_dict(),
            "best_score": best_score,
        }, path)

    for epoch in range(3):
        for x, y in loader:
            cur_itrs += 1
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            interval_loss += loss.item()
            if cur_itrs % 4 == 0:
                save_ckpt(args.out)
                best_score = max(best_score, -interval_loss)
                print(interval_loss)
                interval_loss = 0.0


if __name__ == "__main__":
    main()
