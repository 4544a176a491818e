"""A script shaped like minGPT's chargpt.py (issue 41): it builds a model
and a dataset, registers a callback on a Trainer of an imported module
and runs it; the loop, the loader and its endless random sampler are the
Trainer's. Dropout, so that a restart that loses the sampler's order, the
Trainer's counter or the generators shows in the weights. The model
(failing_net.py) fails as DETC_TEST_FAIL=PHASE:STEP asks, for the
just-in-time tests.

usage: train.py [--iters N] --out FILE
"""
import argparse

import torch
from torch.utils.data import TensorDataset

from failing_net import Net
from trainer import Trainer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(3)
    data = TensorDataset(torch.randn(40, 6), torch.arange(40) % 3)
    model = Net()
    trainer = Trainer(model, data, args.iters, lr=0.05, workers=2)

    def batch_end(trainer):
        print("done %d" % trainer.iter_num, flush=True)

    trainer.add_callback("on_batch_end", batch_end)
    trainer.run()
    torch.save({"model": model.state_dict(),
                "optimizer": trainer.optimizer.state_dict()}, args.out)


if __name__ == "__main__":
    main()
