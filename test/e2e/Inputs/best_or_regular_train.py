"""Training in the shape of weiaicunzai/pytorch-cifar100's train.py: a
`__main__` block over module globals, `train(epoch)` logging the last
layer's gradient norms in a loop over `last_layer.named_parameters()`
(`last_layer` assigned in the same minibatch), `eval_training` also
called before training (so fast-forward runs it in full), and an epoch
loop whose best-accuracy save ends in `continue`, skipping the regular
save after it.

Whether the regular save runs depends on the accuracy test before it,
which only the training decides (its `continue`), and the gradient-norm
loop's iterable reads what a skipped statement assigns. Resuming crashed
with the session-59 first binary: fast-forward re-ran the training on
placeholder batches (`conv2d() received ... Skipped`), then evaluated
the skipped loop's iterable (`cannot access local variable
'last_layer'`).

usage: best_or_regular_train.py [--workers N] [--epochs N] --out FILE"""
import argparse
import time

import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader

from points_data import Points

MILESTONE = 2
SAVE_EPOCH = 1


def train(epoch):
    net.train()
    for batch_index, (images, labels) in enumerate(training_loader):
        optimizer.zero_grad()
        outputs = net(images)
        loss = loss_function(outputs, labels)
        loss.backward()
        optimizer.step()
        n_iter = (epoch - 1) * len(training_loader) + batch_index + 1
        last_layer = list(net.children())[-1]
        for name, para in last_layer.named_parameters():
            if 'weight' in name:
                grad_norms.append((n_iter, para.grad.norm().item()))
        time.sleep(0.01)  # so that a kill lands inside the loop
        if epoch <= args.warm:
            warmup_scheduler.step()


@torch.no_grad()
def eval_training(epoch=0):
    net.eval()
    correct = 0.0
    for (images, labels) in test_loader:
        outputs = net(images)
        _, preds = outputs.max(1)
        correct += preds.eq(labels).sum()
    print('epoch %d accuracy %.4f' % (epoch, correct / len(test_loader.dataset)))
    return correct.float() / len(test_loader.dataset)


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--workers', type=int, default=2)
    parser.add_argument('--epochs', type=int, default=6)
    parser.add_argument('-warm', type=int, default=1)
    parser.add_argument('-resume', action='store_true')
    parser.add_argument('--out', required=True)
    args = parser.parse_args()

    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                        nn.Linear(16, 3))
    training_loader = DataLoader(Points(64, True), batch_size=8,
                                 shuffle=True, num_workers=args.workers)
    test_loader = DataLoader(Points(24, False), batch_size=8, shuffle=True,
                             num_workers=args.workers)
    loss_function = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.05, momentum=0.9,
                          weight_decay=5e-4)
    train_scheduler = optim.lr_scheduler.MultiStepLR(
        optimizer, milestones=[3, 5], gamma=0.2)
    warmup_scheduler = optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min(1.0, (step + 1) / len(training_loader)))
    grad_norms = []

    best_acc = 0.0
    if args.resume:
        net.load_state_dict(torch.load(args.out))
        best_acc = eval_training()

    for epoch in range(1, args.epochs + 1):
        if epoch > args.warm:
            train_scheduler.step(epoch)

        train(epoch)
        acc = eval_training(epoch)

        if epoch > MILESTONE and best_acc < acc:
            print('saving best weights of epoch %d' % epoch)
            torch.save(net.state_dict(), args.out)
            best_acc = acc
            continue

        if not epoch % SAVE_EPOCH:
            torch.save(net.state_dict(), args.out)
