# The CIFAR-10 tutorial's shape (pytorch/tutorials, blitz): a look at a
# first batch of the training loader, two epochs of training with no
# checkpoint inside the loop, `torch.save(net.state_dict(), PATH)` after
# it, then a look at the test loader and an evaluation. A resume from that
# checkpoint skips the training loop whole; the look before it loads its
# batch for real and leaves that pass under way, where the checkpointed
# run left it too. The session-76 first binary crashed at the look
# ("cannot unpack non-iterable Skipped object"); with that fixed, the
# resume stopped with exit 3: "fast-forward reached the checkpoint at
# epoch 0 step 1, but it was written at epoch 2 step 12".
# RUN: rm -rf %t && mkdir -p %t
# RUN: detc transform %s --emit-python -o %t/train.py
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py > full.out
# RUN: cd %t && cp net.pth full.pth
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --detc-resume net.pth > resumed.out 2> resumed.err
# RUN: sed -n '/^after training/,$p' %t/full.out > %t/full.tail
# RUN: sed -n '/^after training/,$p' %t/resumed.out > %t/resumed.tail
# RUN: diff %t/full.tail %t/resumed.tail
# RUN: cmp %t/full.pth %t/net.pth
# RUN: FileCheck %s < %t/resumed.err
# RUN: FileCheck %s --check-prefix=TAIL < %t/resumed.tail
# CHECK: detc-runtime: resumed from net.pth
# TAIL: after training
# TAIL-NEXT: test labels
# TAIL-NEXT: accuracy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

trainset = TensorDataset(torch.randn(48, 6), torch.randint(0, 3, (48,)))
trainloader = DataLoader(trainset, batch_size=4, shuffle=True)
testset = TensorDataset(torch.randn(16, 6), torch.randint(0, 3, (16,)))
testloader = DataLoader(testset, batch_size=4, shuffle=False)

dataiter = iter(trainloader)
images, labels = next(dataiter)
print("first labels", labels.tolist())

net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.2),
                    nn.Linear(16, 3))
optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for epoch in range(2):
    for i, data in enumerate(trainloader, 0):
        inputs, labels = data
        optimizer.zero_grad()
        loss = F.cross_entropy(net(inputs), labels)
        loss.backward()
        optimizer.step()
    print("epoch", epoch, loss.item())

PATH = "net.pth"
torch.save(net.state_dict(), PATH)
print("after training")

dataiter = iter(testloader)
images, labels = next(dataiter)
print("test labels", labels.tolist())
net.eval()
correct = 0
with torch.no_grad():
    for images, labels in testloader:
        correct += (net(images).argmax(1) == labels).sum().item()
print("accuracy", correct, [round(p.sum().item(), 6) for p in net.parameters()])
