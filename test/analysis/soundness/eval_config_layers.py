# A model built from config strings, as ultralytics/yolov5's parse_model
# does: `m = eval(name)` and `args[j] = eval(a)` over any name the module
# star-imports, then `m(*args)`. The layers' forward loop then calls a value
# that may be any of many classes, functions and instances. Lowering it
# stopped with an internal error (a forward naming builds that an earlier
# pass made and the last no longer did); now the dropout of the layer the
# config may name is found, with the may-draw findings the unknown names
# bring. (A project of its own: an attribute of a module detc cannot name
# is looked up in every module of the project, and this folder's is detc's
# repository.)
# RUN: rm -rf %t && mkdir -p %t && touch %t/setup.cfg
# RUN: cp %s %S/Inputs/config_layers/layers.py %t/
# RUN: detc analyze %t/eval_config_layers.py 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK-DAG: layers.py:21:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}eval_config_layers.py:[[@LINE+79]]:1 [detc-unsafe-rng]
# CHECK-DAG: eval_config_layers.py:[[@LINE+46]]:17: warning: may draw: 'm' calls code detc could not read
# CHECK: warning(s); unsafe generators (ERR): 'torch' (global)
# With a smaller limit on the points-to's sets (what yolov7's parse_model,
# over a thousand-line module of layers, grows past by default), it says so,
# naming the statements behind the constraints, and analyses again with
# each such `eval` unknown: the layers' call in the forward loop is a
# may-draw finding. Past the limit even so, the program is refused, with
# no findings of an incomplete object model; transform refuses too.
# RUN: detc analyze %t/eval_config_layers.py --points-to-limit=1000 2>&1 \
# RUN:   | FileCheck %s --check-prefix=AGAIN --implicit-check-not=error:
# RUN: not detc analyze %t/eval_config_layers.py --points-to-limit=100 2>&1 \
# RUN:   | FileCheck %s --check-prefix=LIMIT --implicit-check-not=detc-may-draw
# RUN: not detc transform %t/eval_config_layers.py --emit-python \
# RUN:   --points-to-limit=100 -o %t/out.py 2>&1 | FileCheck %s --check-prefix=LIMIT
# RUN: not test -e %t/out.py
# AGAIN: eval_config_layers.py: warning: the points-to analysis stopped when its sets held {{[0-9]+}} objects in all (its limit is 1000, --points-to-limit): what variables may hold is incomplete; most constraints came from {{.*}}eval_config_layers.py:[[@LINE+51]]
# AGAIN: eval_config_layers.py: warning: analysed again taking the result of each 'eval' of a computed string as unknown, not as any name its module defines or imports: calls of it are findings of code detc cannot see [detc-points-to-limit]
# AGAIN: eval_config_layers.py:[[@LINE+43]]:13: warning: 'eval' of a computed string runs code detc cannot see: its result is taken as unknown (any name of this module made the analysis too large), and calls of it may draw [detc-unknown-construct]
# AGAIN: eval_config_layers.py:[[@LINE+28]]:17: warning: may draw: 'm' calls code detc could not read, inside the per-batch data-parallel region that starts at {{.*}}eval_config_layers.py:[[@LINE+60]]:1 [detc-may-draw]
# LIMIT: eval_config_layers.py: warning: the points-to analysis stopped when its sets held {{[0-9]+}} objects in all (its limit is 100, --points-to-limit)
# LIMIT: eval_config_layers.py: error: detc does not analyse a program whose points-to analysis stopped before its end: findings would be missing (the warning above says where the constraints came from; --points-to-limit=N raises the limit) [detc-points-to-limit]
import contextlib

import torch
import torch.nn as nn
from layers import *


class Detect(nn.Module):
    def __init__(self, nc=80, ch=()):
        super().__init__()
        self.m = nn.ModuleList(nn.Conv2d(x, nc, 1) for x in ch)

    def forward(self, x):
        return [m(xi) for m, xi in zip(self.m, x)]


class BaseModel(nn.Module):
    def forward(self, x):
        return self._forward_once(x)

    def _forward_once(self, x):
        y = []
        for m in self.model:
            if m.f != -1:
                x = y[m.f] if isinstance(m.f, int) else [y[j] for j in m.f]
            x = m(x)
            y.append(x if m.i in self.save else None)
        return x


class DetectionModel(BaseModel):
    def __init__(self, cfg, ch=3):
        super().__init__()
        self.model, self.save = parse_model(cfg, ch=[ch])


def parse_model(d, ch):
    layers, save = [], []
    for i, (f, n, m, args) in enumerate(d["backbone"] + d["head"]):
        m = eval(m) if isinstance(m, str) else m
        for j, a in enumerate(args):
            with contextlib.suppress(NameError):
                args[j] = eval(a) if isinstance(a, str) else a
        c2 = make_divisible(args[0], 8)
        args = [ch[f], c2, *args[1:]]
        m_ = nn.Sequential(*(m(*args) for _ in range(n))) if n > 1 else m(*args)
        m_.i, m_.f = i, f
        save.extend(x % i for x in ([f] if isinstance(f, int) else f) if x != -1)
        layers.append(m_)
        ch.append(c2)
    return nn.Sequential(*layers), sorted(save)


cfg = {"backbone": [[-1, 1, "Conv", [16, 3]]], "head": [[-1, 1, "Dropping", [16]]]}
model = DetectionModel(cfg)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.randn(8, 3, 8, 8), batch_size=2)
for x in loader:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
