# nn.Embedding.from_pretrained builds the layer from a given weight tensor
# (no initialisation draw; its forward is a lookup). It was a name of torch
# no table described, so graykode/nlp-tutorial's Transformer, whose
# sinusoid position embedding is built this way, had each forward reported
# as "may draw: calls code detc could not read".
# RUN: detc %s | FileCheck %s
# RUN: detc analyze %s | FileCheck %s --check-prefix=REPORT
# REPORT-NOT: may draw
# REPORT: 0 warning(s)
import torch
import torch.nn as nn

table = torch.zeros(6, 4)
# CHECK: detc.build "{{.*}}" defs ["@pos"] uses ["@table"] attributes {api = "torch.nn.Embedding.from_pretrained"} {
# CHECK-NEXT: {{^ *}}}
pos = nn.Embedding.from_pretrained(table, freeze=True)
# CHECK: detc.build "{{.*}}" defs ["@bag"] {{.*}}api = "torch.nn.EmbeddingBag.from_pretrained"
bag = nn.EmbeddingBag.from_pretrained(table)
head = nn.Linear(4, 2)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = head(pos(torch.tensor([[1, 2, 3]]))).sum()
    loss.backward()
    opt.step()
