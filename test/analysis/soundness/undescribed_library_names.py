# Sound by default (issue 42): a name of a modelled library (torch,
# torchvision) that no API table describes may draw, like a call of a
# library detc does not read: a function newer than the tables, a private
# one, a random function nobody listed (torchvision.ops.stochastic_depth
# once was one). torch.names.api, derived from torch's own API by
# api/derive_torch_names.py, describes the names that draw nothing
# (torch.cat, torch.special.erf, torch.nn.utils.rnn.pad_sequence,
# torchvision.ops.box_iou): no finding for them. RPC runs the program's
# functions on other processes: unread, with its reason.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc analyze %s 2>&1 | FileCheck %s --check-prefix=RNG
# CHECK-NOT: warning: {{.*}}'torch.cat'
import torch
import torch.distributed.rpc as rpc
import torchvision
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset


def remote_scale(x):
    return x * 2


class Boxes(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        x = torch.cat([torch.zeros(2), torch.ones(2)])
        x = torch.special.erf(x) + torch.linalg.norm(x)
        seq = pad_sequence([x, x[:2]])
        iou = torchvision.ops.box_iou(torch.zeros(1, 4), torch.ones(1, 4))
# CHECK: undescribed_library_names.py:[[@LINE+2]]:13: warning: may draw: 'torch.frobnicate' calls code detc could not read, inside the per-example data-parallel region that starts at {{.*}}undescribed_library_names.py:[[@LINE+19]]:5 [detc-may-draw]
# CHECK: note: 'torch.frobnicate' is a name of 'torch' that no API table describes
        y = torch.frobnicate(x)
# CHECK: undescribed_library_names.py:[[@LINE+2]]:13: warning: may draw: 'torch._private_op'
# CHECK: note: 'torch._private_op' is a name of 'torch' that no API table describes
        y = torch._private_op(y)
# A torchvision.ops function that draws: modelled as the draw it is.
# RNG: undescribed_library_names.py:[[@LINE+1]]:13: warning: generator 'torch' (global) is used inside the per-example data-parallel region
        z = torchvision.ops.stochastic_depth(x, 0.5, "row")
# CHECK: undescribed_library_names.py:[[@LINE+2]]:13: warning: may draw: 'rpc.rpc_sync'
# CHECK: note: 'rpc.rpc_sync' is code of 'torch.distributed.rpc.rpc_sync' that detc does not read (runs functions of the program on other processes, which detc does not follow)
        w = rpc.rpc_sync("worker1", remote_scale, args=(x,))
        return x + y + z + w + seq.sum() + iou.sum()


def main():
    torch.manual_seed(0)
    # Outside every region: no finding, described or not.
    torch.frobnicate(torch.zeros(1))
    for batch in DataLoader(Boxes(), batch_size=4, num_workers=2):
        print(batch.sum())


# CHECK-NOT: detc-may-draw
# CHECK: warning(s)
if __name__ == "__main__":
    main()
