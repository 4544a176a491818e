# A training loop over a generator that passes a loader's batches on (the
# shape of DeiT's and MAE's `metric_logger.log_every(data_loader, ...)`),
# made from an object built in the epoch loop. The loop goes round in
# fast-forward, so what its iterable reads is needed: the session-60
# first binary skipped `logger = Logger(4)` and the resume stopped with a
# NameError. The generator's `yield` is never skipped (its consumer went
# round no times), and its placeholders are shaped like the consumer's
# target (`_detc_rt.batches(generator, 2)`).
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: detc analyze --verify %s 2>&1 | FileCheck %s --check-prefix=VERIFY
# DIAG-NOT: detc writes no
# VERIFY: verify: Needed at {{.*}}replay_generator_loop.py:[[@LINE+37]]:5: {{.*}} the solution satisfies every constraint and is the least
# CHECK: {{^        }}for obj in _detc_rt.batches(iterable, None):
# CHECK-NEXT: {{^            }}yield obj
# CHECK-NEXT: {{^            }}if _detc_rt.guard() and (i % self.freq == 0):
# CHECK: {{^    }}logger = Logger(4)
# CHECK-NEXT: {{^    }}for x, y in _detc_rt.batches(logger.log_every(loader, "epoch %d" % epoch), 2):
# CHECK-NEXT: {{^        }}if _detc_rt.guard(): loss =
import torch
from torch.utils.data import DataLoader, TensorDataset


class Logger:
    def __init__(self, freq):
        self.freq = freq

    def log_every(self, iterable, header):
        i = 0
        for obj in iterable:
            yield obj
            if i % self.freq == 0:
                print(header, i)
            i += 1


torch.manual_seed(0)
data = TensorDataset(torch.randn(64, 4), torch.arange(64) % 2)
loader = DataLoader(data, batch_size=8, shuffle=True, num_workers=2)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.2),
                            torch.nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(4):
    logger = Logger(4)
    for x, y in logger.log_every(loader, "epoch %d" % epoch):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                "epoch": epoch}, "out.pt")
