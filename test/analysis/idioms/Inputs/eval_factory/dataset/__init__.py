from .joints import CocoJoints as coco
from .joints import MpiiJoints as mpii
