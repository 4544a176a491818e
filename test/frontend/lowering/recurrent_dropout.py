# nn.LSTM, nn.GRU and nn.MultiheadAttention draw their dropout inside
# torch only when given a dropout= other than 0 (their default): a plain
# `nn.LSTM(8, 16)` draws nothing. It was modelled as drawing, so every
# LSTM model without dropout (clovaai/deep-text-recognition-benchmark's
# BidirectionalLSTM) was reported as using torch's global generator in the
# training loop. A dropout given positionally, by a variable, or possibly
# through `**kwargs` still draws; so does nn.RNN, whose positional dropout
# moved between torch versions.
# RUN: detc %s | FileCheck %s
import torch.nn as nn

# CHECK-LABEL: defs ["@plain"]{{.*}}{{[{]$}}
# CHECK-NEXT: {{^ *}}}
plain = nn.LSTM(8, 16, batch_first=True)
# CHECK-LABEL: defs ["@zero"]{{.*}}{{[{]$}}
# CHECK-NEXT: {{^ *}}}
zero = nn.LSTM(8, 16, num_layers=2, dropout=0.0)
# CHECK-LABEL: defs ["@positional"]{{.*}}{{[{]$}}
# CHECK-NEXT: detc.draw "<torch>" dist "library_dropout"
positional = nn.LSTM(8, 16, 2, True, True, 0.3)
# CHECK-LABEL: defs ["@gru"]{{.*}}{{[{]$}}
# CHECK-NEXT: detc.draw "<torch>" dist "library_dropout"
gru = nn.GRU(8, 16, num_layers=2, dropout=0.2)
p = 0.1
# CHECK-LABEL: defs ["@variable"]{{.*}}{{[{]$}}
# CHECK-NEXT: detc.draw "<torch>" dist "library_dropout"
variable = nn.GRU(8, 16, num_layers=2, dropout=p)
kw = {"dropout": 0.5}
# CHECK-LABEL: defs ["@from_kwargs"]{{.*}}{{[{]$}}
# CHECK-NEXT: detc.draw "<torch>" dist "library_dropout"
from_kwargs = nn.LSTM(8, 16, **kw)
# CHECK-LABEL: defs ["@attention"]{{.*}}{{[{]$}}
# CHECK-NEXT: {{^ *}}}
attention = nn.MultiheadAttention(16, 4)
# CHECK-LABEL: defs ["@attention_dropout"]{{.*}}{{[{]$}}
# CHECK-NEXT: detc.draw "<torch>" dist "library_dropout"
attention_dropout = nn.MultiheadAttention(16, 4, 0.1)
# CHECK-LABEL: defs ["@rnn"]{{.*}}{{[{]$}}
# CHECK-NEXT: detc.draw "<torch>" dist "library_dropout"
rnn = nn.RNN(8, 16)
