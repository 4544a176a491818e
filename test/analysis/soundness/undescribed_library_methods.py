# Sound by default (issue 42): a method of an object a modelled library
# made is that library's code. Where no table describes the method, it may
# draw, as an undescribed name of the library does
# (undescribed_library_names.py): accelerate's Accelerator had entries for
# its constructor, prepare and the savers only, and every other method
# (`accelerator.log`, which runs the trackers' code) was taken to do
# nothing at all, silently. The loop helpers accelerate.api now describes
# (autocast, accumulate, clip_grad_norm_, gather_for_metrics, print,
# wait_for_everyone, unwrap_model: it says why each draws nothing) are no
# finding; a torch optimizer's and scheduler's methods are torch's
# (torch.names.api). lucidrains/denoising-diffusion-pytorch's Trainer.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import torch
import torch.nn as nn
from accelerate import Accelerator

# CHECK-DAG: .py:[[@LINE+1]]:40: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
model = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.1), nn.Linear(3, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 1)
loader = torch.utils.data.DataLoader(torch.ones(16, 3), batch_size=4)
accelerator = Accelerator(mixed_precision="bf16")
model, opt, loader = accelerator.prepare(model, opt, loader)
for x in loader:
    with accelerator.accumulate(model):
        with accelerator.autocast():
            loss = model(x).sum()
        accelerator.backward(loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad()
        sched.step()
    losses = accelerator.gather_for_metrics(loss.detach())
    accelerator.print(losses.mean(), sched.get_last_lr())
# CHECK-DAG: .py:[[@LINE+2]]:5: warning: may draw: 'accelerator.log' calls code detc could not read, inside the per-batch data-parallel region
# CHECK-DAG: note: 'accelerator.log' is method 'log' of a 'accelerate.Accelerator' object, a name of 'accelerate' that no API table describes
    accelerator.log({"loss": loss.item()})
accelerator.wait_for_everyone()
net = accelerator.unwrap_model(model)
torch.save(net.state_dict(), "m.pt")
# CHECK: 2 warning(s)
