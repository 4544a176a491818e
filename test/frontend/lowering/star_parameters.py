# Arguments a function takes through `*args` and `**kwargs` (DeiT's
# `metric_logger.update(loss=loss_value)`, `save_on_master(*args,
# **kwargs)`): a temporary reading them is bound to the parameter, so what
# the callee makes of it derives from those variables. Unbound (the
# session-60 first binary), the callee read nothing: fast-forward re-ran
# `update` without computing `loss_value` and the resume stopped with a
# NameError; a positional argument past the named ones was bound to the
# next parameter's name (`**kwargs` got `path`).
# RUN: detc %s --python none | FileCheck %s
# RUN: detc analyze %s --python none | FileCheck %s --check-prefix=REPLAY
import torch
from torch.utils.data import DataLoader, TensorDataset


class Meters:
    def __init__(self):
        self.meters = {}

    def update(self, **kwargs):
        for k, v in kwargs.items():
            self.meters.setdefault(k, []).append(v)


def save(*args, **kwargs):
    torch.save(*args, **kwargs)


model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(16, 4), torch.arange(16) % 2),
                    batch_size=4, shuffle=True)
for epoch in range(3):
    meters = Meters()
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss_value = loss.item()
        # CHECK: detc.stmt "assign" defs ["[[T:\$[0-9]+]]"] uses ["@loss_value"]
        # CHECK-NEXT: detc.call @Meters::@update bind {kwargs = "[[T]]", self = "@meters"}
        meters.update(loss=loss_value)
    # The dict display restores what it holds, and the helper's
    # `torch.save(*args, **kwargs)` saves it: the checkpoint saves `model`
    # and `epoch` (the session-61 first binary saw nothing saved, and the
    # sidecar pickled what the checkpoint holds a second time).
    # CHECK: detc.stmt "assign" restores ["@model", "@epoch"] defs ["[[ARGS:\$[0-9]+]]"] uses [{{.*}}"@epoch"{{.*}}]
    # (The path, a string in `*args`, is no constant of `**kwargs`: the
    # session-61 first binary listed `str_params = {kwargs = "out.pt"}`.)
    # CHECK: detc.call @save bind {args = "[[ARGS]]"} uses ["[[ARGS]]"]{{$}}
    # REPLAY: saved by the checkpoint: model, epoch
    save({"model": model.state_dict(), "epoch": epoch}, "out.pt")
    # REPLAY: saved by detc (needed, not re-derivable): {{.*}}meters [derived from the forward at {{.*}}star_parameters.py:[[@LINE-18]]:50]
    print(meters.meters)
