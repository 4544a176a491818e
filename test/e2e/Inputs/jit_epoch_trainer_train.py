"""A Trainer class in the shape of the PyTorch DDP tutorial series
(pytorch/examples distributed/ddp-tutorial-series): the loader, model and
optimizer are its fields, `_run_epoch` iterates `self.train_data` after
reading one batch of a fresh iterator (`len(next(iter(self.train_data))
[0])`) and setting the sampler's epoch, `_run_batch` steps, and
`_save_checkpoint` saves the model's state_dict. With --jit-checkpoint
detc refused it before ("the loop iterates over 'self', which the loops
change": the optimizer's step changes `self.model`, not what the loop
iterates).

Its model is failing_net.Net (DETC_TEST_FAIL=PHASE:STEP makes iteration
STEP fail in PHASE: `forward`, `backward`, `hang`); SIGTERM lands
anywhere.

usage: jit_epoch_trainer_train.py [--workers N] [--epochs N] --out FILE"""
import argparse
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

from failing_net import Net


class Trainer:
    def __init__(self, model, train_data, optimizer, save_every, out):
        self.model = model
        self.train_data = train_data
        self.optimizer = optimizer
        self.save_every = save_every
        self.out = out

    def _run_batch(self, source, targets):
        self.optimizer.zero_grad()
        output = self.model(source)
        loss = F.cross_entropy(output, targets)
        time.sleep(0.01)  # so that a SIGTERM lands inside the loop
        loss.backward()
        self.optimizer.step()

    def _run_epoch(self, epoch):
        b_sz = len(next(iter(self.train_data))[0])
        print("Epoch %d | Batchsize: %d" % (epoch, b_sz))
        self.train_data.sampler.set_epoch(epoch)
        for step, (source, targets) in enumerate(self.train_data):
            self._run_batch(source, targets)
            print("done %d:%d" % (epoch, step), flush=True)

    def _save_checkpoint(self, epoch):
        ckp = self.model.state_dict()
        torch.save(ckp, self.out)

    def train(self, max_epochs):
        for epoch in range(max_epochs):
            self._run_epoch(epoch)
            if epoch % self.save_every == 0:
                self._save_checkpoint(epoch)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(80, 6), torch.randint(0, 3, (80,)))
    loader = DataLoader(data, batch_size=8, shuffle=False,
                        num_workers=args.workers,
                        sampler=DistributedSampler(data, num_replicas=1,
                                                   rank=0))
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    trainer = Trainer(model, loader, optimizer, 1, args.out)
    trainer.train(args.epochs)


if __name__ == "__main__":
    main()
