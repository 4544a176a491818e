# A callee's locals start unbound at every call: YOLOv3's ListDataset
# reads its local `img_path` in an `except` handler that runs when
# computing `img_path` itself raised. The statement graph let the value of
# the previous call reach that read, so `img_path` was live around the
# loop and "needed" at the checkpoint — and, a local of a function that
# is not running there, "not visible where the checkpoint is written":
# the session-57 binary refused the sidecar. A CallEnter now kills the
# callee's locals (Replay.cpp, nodeEffects).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# CHECK: callee_locals_fresh_frame.py:[[@LINE+36]]:5: note: replay from this checkpoint [detc-replay]
# CHECK: saved by the checkpoint: model, opt
# CHECK-NOT: img_path
# CHECK: fast-forwarded:
# DIAG-NOT: writes no sidecar
import torch
from torch.utils.data import DataLoader, Dataset


class Files(Dataset):
    def __init__(self, names):
        self.names = names

    def __len__(self):
        return len(self.names)

    def __getitem__(self, index):
        try:
            img_path = self.names[index % len(self.names)].strip()
            x = torch.full((2,), float(len(img_path)))
        except Exception:
            print("could not read %r" % img_path)
            return None
        return x


model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(Files(["a", "bb", "ccc", "dddd"]), batch_size=2,
                    shuffle=True)
for epoch in range(3):
    for x in loader:
        loss = model(x).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()},
               "ck.pt")
