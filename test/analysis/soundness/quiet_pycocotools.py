# pycocotools (the COCO annotation API every detection repository reads
# its boxes with, in the dataset's `__getitem__`) is quiet: lookups and
# run-length mask codecs, drawing nothing, whether or not it is installed
# where detc looks — except `COCO.showAnns`, which picks its colours with
# numpy's global generator. pytorch-retinanet's and deeplab-xception's
# datasets had 3 and 5 "may draw" findings of the lookups.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: quiet_pycocotools.py:[[@LINE+20]]:13: warning: may draw: 'self.coco.showAnns' calls code detc could not read, inside the per-example data-parallel region
# CHECK: 1 warning(s)
import torch
from pycocotools import mask as coco_mask
from pycocotools.coco import COCO


class Boxes(torch.utils.data.Dataset):
    def __init__(self, path, show=False):
        self.coco = COCO(path)
        self.ids = list(self.coco.imgs.keys())
        self.show = show

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        info = self.coco.loadImgs(self.ids[i])[0]
        anns = self.coco.loadAnns(self.coco.getAnnIds(imgIds=info["id"]))
        if self.show:
            self.coco.showAnns(anns)
        rle = coco_mask.frPyObjects(anns[0]["segmentation"], 8, 8)
        return torch.from_numpy(coco_mask.decode(rle)), len(anns)


loader = torch.utils.data.DataLoader(Boxes("ann.json"), batch_size=2,
                                     num_workers=2)
for x, n in loader:
    pass
