# Standard-library modules that hold no generator are quiet: a VOC-style
# dataset reading its annotation with xml.etree.ElementTree.parse, its
# audio with wave, and escaping a caption with html draws nothing there;
# the flip is the one draw (before: ET.parse was followed into expat's C
# parser and reported as a may-draw, as were the others without an
# interpreter to read them from).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: stdlib_quiet_modules.py:[[@LINE+19]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}stdlib_quiet_modules.py:[[@LINE+24]]:1
# CHECK: 1 warning(s)
import html
import random
import wave
import xml.etree.ElementTree as ET

import torch
from torch.utils.data import DataLoader, Dataset


class VOC(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        target = ET.parse("Annotations/%06d.xml" % i).getroot()
        frames = wave.open("clip%d.wav" % i).getnframes()
        caption = html.escape(target.find("name").text)
        if random.random() < 0.5:
            frames = -frames
        return torch.tensor(frames), caption


for x, c in DataLoader(VOC(), batch_size=2, num_workers=2):
    pass
