"""The training and evaluation loops of jit_engine/train.py, in a module
of their own as DeiT's, MAE's and DETR's `engine.py` has them (issue 41):
`train_one_epoch` loops over the loader and steps the optimizer, counting
its loss in a running sum; `evaluate` loops over another loader and steps
nothing. With --jit-checkpoint detc puts the minibatch boundary into
`train_one_epoch`'s loop and edits this module too; the transformed
script carries the edited copy (runtime overlay.py).
"""
import torch
import torch.nn.functional as F


def train_one_epoch(model, data_loader, optimizer, epoch, print_freq=100):
    model.train(True)
    running = 0.0
    seen = 0
    for step, (samples, targets) in enumerate(data_loader):
        outputs = model(samples)
        loss = F.cross_entropy(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
        seen += len(targets)
        print("done %d:%d" % (epoch, step), flush=True)
        if step % print_freq == print_freq - 1:
            print("loss %.4f" % (running / seen))
    return {"loss": running / max(seen, 1)}


@torch.no_grad()
def evaluate(model, data_loader):
    model.eval()
    correct = 0
    for samples, targets in data_loader:
        correct += (model(samples).argmax(1) == targets).sum().item()
    return correct
