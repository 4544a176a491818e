# nn.LSTM, nn.GRU and nn.MultiheadAttention draw their dropout inside
# torch only when given a dropout= other than 0 (their default): a plain
# `nn.LSTM(8, 16)` draws nothing. It was modelled as drawing, so every
# LSTM model without dropout (clovaai/deep-text-recognition-benchmark's
# BidirectionalLSTM) was reported as using torch's global generator in the
# training loop. A dropout given positionally, by a variable, or possibly
# through `**kwargs` still draws. nn.RNN too (it was always modelled as
# drawing: graykode/nlp-tutorial's TextRNN was reported), but its
# positional dropout moved between torch versions (the 6th argument in
# 1.13, the 7th in 2.x, after a positional nonlinearity): a call with more
# than 5 positional arguments may give it.
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
# CHECK-NEXT: {{^ *}}}
rnn = nn.RNN(8, 16)
# CHECK-LABEL: defs ["@rnn_five"]{{.*}}{{[{]$}}
# CHECK-NEXT: {{^ *}}}
rnn_five = nn.RNN(8, 16, 2, True, False)
# CHECK-LABEL: defs ["@rnn_dropout"]{{.*}}{{[{]$}}
# CHECK-NEXT: detc.draw "<torch>" dist "library_dropout"
rnn_dropout = nn.RNN(8, 16, 2, dropout=0.3)
# CHECK-LABEL: defs ["@rnn_positional"]{{.*}}{{[{]$}}
# CHECK-NEXT: detc.draw "<torch>" dist "library_dropout"
rnn_positional = nn.RNN(8, 16, 2, True, False, 0.3)
# CHECK-LABEL: defs ["@rnn_positional_torch2"]{{.*}}{{[{]$}}
# CHECK-NEXT: detc.draw "<torch>" dist "library_dropout"
rnn_positional_torch2 = nn.RNN(8, 16, 2, "tanh", True, False, 0.3)
