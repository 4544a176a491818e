# A backward of a loss detc cannot trace to a model (yolov5: `loss, items
# = compute_loss(pred, targets)`, the loss from code it cannot read) still
# fills gradients: it is a backward, not a gradient returned as a value
# (`torch.autograd.grad`). It was taken for one, so an earlier backward (a
# profiling pass) and the zero_grad at the top of each epoch made the
# step look like it applies zeroed gradients. A zero_grad really between
# such a backward and its step is still found.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: zero-grad]
# CHECK: backward_of_unknown_loss.py:[[@LINE+36]]:5: warning: zero_grad() runs after backward() and before the optimizer step at line [[@LINE+37]]{{.*}}[detc-misplaced-zero-grad]
# CHECK-NOT: zero-grad]
import torch
from losses_not_installed import smooth_loss
from torch.utils.data import DataLoader, TensorDataset


class ComputeLoss:
    def __init__(self, model):
        self.model = model

    def __call__(self, pred, targets):
        loss = smooth_loss(pred, targets)
        return loss * 2, loss.detach()


model = torch.nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.cuda.amp.GradScaler(enabled=False)
compute_loss = ComputeLoss(model)
data = TensorDataset(torch.randn(16, 4), torch.randn(16, 2))
loader = DataLoader(data, batch_size=4)
model(torch.randn(1, 4)).sum().backward()  # a profiling pass
for epoch in range(3):
    optimizer.zero_grad()
    for i, (imgs, targets) in enumerate(loader):
        loss, loss_items = compute_loss(model(imgs), targets)
        scaler.scale(loss).backward()
        if i % 2 == 0:
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad()

for imgs, targets in loader:
    loss, loss_items = compute_loss(model(imgs), targets)
    loss.backward()
    optimizer.zero_grad()
    optimizer.step()
