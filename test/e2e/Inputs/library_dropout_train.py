"""Dropout that lives inside torch's own layers: nn.TransformerEncoderLayer
(dropout=), a two-layer nn.LSTM (dropout= between its layers),
nn.MultiheadAttention (dropout= on the attention weights) and, where torch
has it, F.scaled_dot_product_attention(dropout_p=). Each draws from torch's
global generator inside library code. A checkpoint mid-epoch must restore
that generator, or a resume continues with other masks (it used to exit 0
with other weights: the API table's torch.nn wildcard said these layers
draw nothing, so no generator state was saved).

usage: library_dropout_train.py [--epochs N] [--ckpt-every N] [--crash-after STEP]
        --out FILE
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.TransformerEncoderLayer(d_model=8, nhead=2,
                                              dim_feedforward=16,
                                              dropout=0.3, batch_first=True)
        self.rnn = nn.LSTM(8, 8, num_layers=2, dropout=0.25,
                           batch_first=True)
        self.attn = nn.MultiheadAttention(8, 2, dropout=0.2,
                                          batch_first=True)
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        h = self.enc(x)
        h, _ = self.rnn(h)
        h, _ = self.attn(h, h, h)
        if hasattr(F, "scaled_dot_product_attention"):
            h = F.scaled_dot_product_attention(h, h, h, dropout_p=0.1)
        return self.head(h.mean(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--ckpt-every", type=int, default=0)
    parser.add_argument("--crash-after", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(5)
    data = TensorDataset(torch.randn(96, 5, 8), torch.arange(96) % 3)
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model = Net()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    step = 0
    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            if args.ckpt_every and step % args.ckpt_every == 0:
                torch.save({"model": model.state_dict(),
                            "optimizer": optimizer.state_dict(),
                            "epoch": epoch, "step": step}, args.out)
            if step == args.crash_after:
                os._exit(1)  # a crash: the resume continues from here
    torch.save({"model": model.state_dict()}, args.out)


if __name__ == "__main__":
    main()
