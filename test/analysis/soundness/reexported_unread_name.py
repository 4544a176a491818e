# A name a module of the program imports from a library detc cannot find
# (yolov5's utils/general.py re-exports ultralytics' LOGGER and colorstr):
# its calls may draw, and the note names that library, not the program's
# module the script imported the name from ("module 'utils', which detc
# could not find", on a folder detc had found).
# RUN: detc analyze %s --path %S/Inputs 2>&1 | FileCheck %s
import torch
from torch.utils.data import DataLoader, TensorDataset

from reexport_pkg.general import LOGGER, colorstr

loader = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=4)
for (x,) in loader:
    # CHECK-DAG: reexported_unread_name.py:[[@LINE+4]]:17: warning: may draw: 'colorstr' calls code detc could not read
    # CHECK-DAG: note: 'colorstr' is module 'missinglib', which detc could not find and no API table models
    # CHECK-DAG: reexported_unread_name.py:[[@LINE+2]]:5: warning: may draw: 'LOGGER.info' calls code detc could not read
    # CHECK-DAG: note: 'LOGGER.info' is module 'missinglib', which detc could not find and no API table models
    LOGGER.info(colorstr("step"))
