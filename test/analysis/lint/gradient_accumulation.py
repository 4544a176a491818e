# Gradient accumulation as MAE, ConvNeXt and Swin write it: the step runs
# in a scaler helper behind its own test (`if update_grad:`), the caller
# zeroes behind an equal test, and a second branch (full precision, or no
# accumulation) steps too. The graph has paths that step and then skip the
# zero_grad, which no run takes: no finding (there were three on those
# repositories). The helper's `optimizer` is the caller's optimizer, so its
# step and the caller's zero_grad are of one optimizer. What stays a
# finding: a loop that steps every iteration and zeroes only sometimes,
# and an accumulation loop that never zeroes. Clearing the gradients of
# some parameters chosen by name between backward and step (DINO freezes
# its last layer: `if "last_layer" in n: p.grad = None`) is not a
# misplaced zero_grad (it was one).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: warning:
# CHECK: gradient_accumulation.py:[[@LINE+37]]:9: warning: gradients are not reset between optimizer steps in the loop at line [[@LINE+35]]
# CHECK: gradient_accumulation.py:[[@LINE+45]]:13: warning: gradients are not reset between optimizer steps in the loop at line [[@LINE+42]]
# CHECK-NOT: warning:
# CHECK: 2 warning(s)
import torch


class NativeScaler:
    def __init__(self):
        self._scaler = torch.cuda.amp.GradScaler()

    def __call__(self, loss, optimizer, update_grad=True):
        self._scaler.scale(loss).backward()
        if update_grad:
            self._scaler.unscale_(optimizer)
            self._scaler.step(optimizer)
            self._scaler.update()


def train_one_epoch(model, data, optimizer, loss_scaler, accum, use_amp):
    optimizer.zero_grad()
    for i, (x, y) in enumerate(data):
        loss = ((model(x) - y) ** 2).mean() / accum
        if use_amp:
            loss_scaler(loss, optimizer, update_grad=(i + 1) % accum == 0)
            if (i + 1) % accum == 0:
                optimizer.zero_grad()
        else:
            loss.backward()
            if (i + 1) % accum == 0:
                optimizer.step()
                optimizer.zero_grad()


def zeroes_only_sometimes(model, data, optimizer):
    for i, (x, y) in enumerate(data):
        ((model(x) - y) ** 2).mean().backward()
        optimizer.step()
        if i % 10 == 0:
            optimizer.zero_grad()


def never_zeroes(model, data, optimizer, accum):
    for i, (x, y) in enumerate(data):
        ((model(x) - y) ** 2).mean().backward()
        if (i + 1) % accum == 0:
            optimizer.step()


def cancel_gradients_last_layer(epoch, model, freeze_last_layer):
    if epoch >= freeze_last_layer:
        return
    for n, p in model.named_parameters():
        if "last_layer" in n:
            p.grad = None


def frozen_last_layer(model, data, optimizer):
    for epoch in range(2):
        for x, y in data:
            optimizer.zero_grad()
            ((model(x) - y) ** 2).mean().backward()
            cancel_gradients_last_layer(epoch, model, 1)
            optimizer.step()


model = torch.nn.Linear(4, 2)
opt = torch.optim.AdamW(model.parameters(), lr=0.1)
batches = [(torch.randn(4, 4), torch.randn(4, 2))] * 8
train_one_epoch(model, batches, opt, NativeScaler(), 2, True)
zeroes_only_sometimes(model, batches, opt)
never_zeroes(model, batches, opt, 2)
frozen_last_layer(model, batches, opt)
