# Models: a user nn.Module is a build whose forward region calls its
# forward; library layers are builds; dropout draws in the layer's forward;
# containers run their parts; DDP wraps the forward in a per-batch region
# and names the module it wraps (`wraps`: its state is the wrapper's).
# RUN: detc %s | FileCheck %s
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        h = self.drop(self.fc(x))
        return F.dropout(h, p=0.1, training=self.training)


class Net(Block):
    pass


net = Net(4)
seq = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.2))
wrapped = DDP(net)
out = wrapped(seq(None))

# CHECK-LABEL: detc.func @__main__
# CHECK: detc.build "[[NET:b[0-9_]+]]" cls @Net defs ["@net"] {
# CHECK-NEXT: detc.call @Block::@forward bind {self = "@net"} uses ["@net"]
# CHECK: detc.call @Block::@__init__ bind {self = "@net"} updates ["@net"]
# CHECK: detc.build "[[LIN:b[0-9_]+]]" defs ["$0"] attributes {api = "torch.nn.Linear"}
# CHECK: detc.build "[[DROP:b[0-9_]+]]" defs ["$1"] attributes {api = "torch.nn.Dropout"} {
# CHECK-NEXT: detc.draw "<torch>" dist "dropout" {api = "torch.nn.Dropout", module_mode}
# CHECK: detc.build "[[SEQ:b[0-9_]+]]" defs ["@seq"] uses ["$0", "$1"] attributes {api = "torch.nn.Sequential"} {
# CHECK-NEXT: detc.forward "$0" builds ["[[LIN]]"]
# CHECK-NEXT: detc.forward "$1" builds ["[[DROP]]"]
# CHECK: detc.build "[[DDP:b[0-9_]+]]" defs ["@wrapped"] uses ["@net"] attributes {api = "torch.nn.parallel.DistributedDataParallel", wraps = "@net"} {
# CHECK-NEXT: detc.parallel per_batch uses ["@net"] {
# CHECK-NEXT: detc.forward "@net" builds ["[[NET]]"] uses ["@net"]
# CHECK: detc.forward "@seq" builds ["[[SEQ]]"] defs ["$2"] uses ["@seq"]
# CHECK-NEXT: detc.forward "@wrapped" builds ["[[DDP]]"] defs ["@out"] uses ["$2", "@wrapped"]

# CHECK-LABEL: detc.class @Block role model bases ["torch.nn.Module"]
# CHECK: detc.build "[[FC:b[0-9_]+]]" defs ["self.fc"]
# CHECK: detc.build "[[SELFDROP:b[0-9_]+]]" defs ["self.drop"]
# CHECK-NEXT: detc.draw "<torch>" dist "dropout"
# CHECK-LABEL: detc.func @forward kind method params ["self", "x"]
# CHECK: detc.forward "self.fc" builds ["[[FC]]"] defs ["$0"]
# CHECK-NEXT: detc.forward "self.drop" builds ["[[SELFDROP]]"] defs ["h"]
# CHECK-NEXT: detc.draw "<torch>" dist "dropout" defs ["$1"] uses ["h", "self.training"] {api = "torch.nn.functional.dropout", module_mode}
# A subclass inherits the role of its user base.
# CHECK-LABEL: detc.class @Net role model bases ["Block"]
