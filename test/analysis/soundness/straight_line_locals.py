# A local read right after it was rebound in the same statement list holds
# what it was last assigned, not every value it ever held (DETR's
# `boxes = [obj["bbox"] ...]; boxes = torch.as_tensor(boxes)` then
# `boxes[:, 0::2].clamp_(...)`: the list's unknown entries made that call
# "may draw" on every example). A read that a later assignment in a loop
# may reach (the next iteration) still sees every value.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK: straight_line_locals.py:[[@LINE+14]]:18: warning: may draw: 'decode'
# CHECK-NOT: clamp_(min=0, max=4)
# CHECK: straight_line_locals.py:[[@LINE+17]]:13: warning: may draw: 'x[0].clamp_'
# CHECK: straight_line_locals.py:[[@LINE+17]]:18: warning: may draw: 'decode'
# CHECK: 3 warning(s)
import torch
from mystery_codec import decode


class Boxes(torch.utils.data.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        boxes = [decode(i)]
        boxes = torch.as_tensor(boxes)
        boxes[:, 0::2].clamp_(min=0, max=4)
        x = torch.zeros(2, 2)
        for k in range(2):
            x[0].clamp_(min=0)
            x = [decode(k)]
        return boxes


loader = torch.utils.data.DataLoader(Boxes(), batch_size=2, num_workers=2)
for b in loader:
    pass
