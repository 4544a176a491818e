# User checkpoints: `saved` lists what the checkpoint can restore — the
# receivers of `X.state_dict()` and plain variables, directly or as the
# values of a dict literal; `step + 1` is written but restores nothing.
# accelerate's `Accelerator.save` is a checkpoint like `torch.save`.
# RUN: detc %s | FileCheck %s
import torch
import torch.nn as nn
from accelerate import Accelerator

model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
step = 0
# CHECK: detc.checkpoint saved ["@model", "@opt", "@step"] uses ["@model", "@opt", "@step"] {api = "torch.save"}
torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
            "step": step, "next": step + 1}, "a.pt")
# CHECK: detc.checkpoint saved ["@model"] uses ["@model"] {api = "torch.save"}
torch.save(model.state_dict(), "b.pt")
accelerator = Accelerator()
# CHECK: detc.checkpoint saved ["@model"] uses ["@accelerator", "@model"] {api = "accelerate.Accelerator.save"}
accelerator.save(model.state_dict(), "c.pt")
