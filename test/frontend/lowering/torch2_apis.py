# PyTorch 2.x and torchvision 0.15+ spellings (issue 43): transforms.v2 is
# an alias of transforms (its random transforms draw, AugMix too; ToImage
# draws nothing), a transform the tables do not know may draw, a
# GradScaler's step is the step of the optimizer it is given (and updates
# the scaler, which records the gradients' overflow), autocast is a
# scope that draws nothing, torch.compile runs the model's forward.
# RUN: detc %s | FileCheck %s
# RUN: detc analyze %s | FileCheck %s --check-prefix=LINT
import torch
from torch import nn
from torchvision import datasets
from torchvision.transforms import v2

# LINT: torch2_apis.py:[[@LINE+1]]:54: warning: generator 'torch' (global) is used inside the per-batch
model = torch.compile(nn.Sequential(nn.Linear(4, 2), nn.Dropout(0.1)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cuda")
tf = v2.Compose([v2.RandomResizedCrop(32), v2.ToImage(), v2.AugMix(),
                 v2.SomeFutureTransform()])
data = datasets.CIFAR10("/tmp", transform=tf)
loader = torch.utils.data.DataLoader(data, batch_size=8, shuffle=True)
for epoch in range(2):
    for x, y in loader:
        with torch.autocast("cuda", dtype=torch.float16):
            loss = ((model(x) - y) ** 2).mean()
        scaler.scale(loss).backward()
        # LINT: torch2_apis.py:[[@LINE+1]]:9: warning: gradients are not reset between optimizer steps
        scaler.step(opt)
        scaler.update()

# CHECK: detc.build "[[COMPILED:b[0-9_]+]]" defs ["@model"] {{.*}}api = "torch.compile"
# CHECK: detc.lib_call "grad_scaler" defs ["@scaler"] {api = "torch.amp.GradScaler"}
# CHECK: detc.build {{.*}}api = "torchvision.transforms.RandomResizedCrop"
# CHECK-NEXT: detc.draw "<torch>" dist "transform"
# CHECK: detc.build {{.*}}api = "torchvision.transforms.ToImage"} {
# CHECK-NEXT: }
# CHECK: detc.build {{.*}}api = "torchvision.transforms.AugMix"
# CHECK-NEXT: detc.draw "<torch>" dist "transform"
# CHECK: detc.build {{.*}}api = "torchvision.transforms.SomeFutureTransform"
# CHECK-NEXT: detc.draw "<torch>" dist "transform"
# CHECK: detc.with managers ["torch.autocast"]
# CHECK-NEXT: detc.forward "@model" builds ["[[COMPILED]]"
# CHECK: detc.update "@opt" updates ["@scaler", "@model", "@opt"] {{.*}}api = "torch.amp.GradScaler.step"
# LINT: 2 warning(s)
