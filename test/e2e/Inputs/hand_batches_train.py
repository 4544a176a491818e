"""Batches cut by hand from one tensor, as pytorch/examples'
word_language_model does (`get_batch(source, i)` over
`range(0, n, bptt)`): no DataLoader, so the model's nn.Dropout draws from
detc's sequential stream of its site, outside any batch. A just-in-time
or hint restart must continue that stream where the minibatch began (its
offset was not in those checkpoints: 0 of 4 restarts were bit-identical).
Its recurrent layer is chosen by name, `getattr(nn, rnn_type)(...,
dropout=)`, as word_language_model's: detc used not to see it at all;
it now counts as a layer that may draw in library code (the LSTM's
dropout between layers draws from torch's global generator, which every
checkpoint restores).
DETC_TEST_FAIL=PHASE:STEP as in jit_train.py (forward, backward, hang).

usage: hand_batches_train.py [--epochs N] --out FILE
"""
import argparse
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

FAIL = os.environ.get("DETC_TEST_FAIL", "")
PHASE, _, AT = FAIL.partition(":")
AT = int(AT) if AT else -1
BPTT = 6


class Model(nn.Module):
    def __init__(self, rnn_type, vocab=20, width=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.drop = nn.Dropout(0.25)
        self.rnn = getattr(nn, rnn_type)(width, width, 2, dropout=0.3)
        self.decoder = nn.Linear(width, vocab)
        self.calls = 0

    def forward(self, x):
        h, _ = self.rnn(self.drop(self.embed(x)))
        h = self.drop(h)
        self.calls += 1
        if self.calls == AT and PHASE == "forward":
            raise RuntimeError("injected failure in the forward")
        if self.calls == AT and PHASE == "hang":
            time.sleep(10 ** 6)
        if self.calls == AT and PHASE == "backward":
            h.register_hook(_fail_backward)
        return self.decoder(h)


def _fail_backward(grad):
    raise RuntimeError("injected failure in the backward")


def get_batch(source, i):
    n = min(BPTT, len(source) - 1 - i)
    return source[i:i + n], source[i + 1:i + 1 + n].reshape(-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--model", default="LSTM", help="LSTM, GRU, RNN")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(7)
    data = (torch.arange(20 * 8 * 4) * 7 % 20).reshape(-1, 4)
    model = Model(args.model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(args.epochs):
        model.train()
        for batch, i in enumerate(range(0, data.size(0) - 1, BPTT)):
            x, y = get_batch(data, i)
            out = model(x)
            loss = F.cross_entropy(out.view(-1, out.size(-1)), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print("done %d:%d" % (epoch, batch), flush=True)
        torch.save({"model": model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "epoch": epoch}, args.out)


if __name__ == "__main__":
    main()
