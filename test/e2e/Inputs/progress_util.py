"""A progress bar as training repositories keep one in a utils module
(mixup-cifar10's, kuangliu/pytorch-cifar's `progress_bar`): each call sets
module globals (when the bar began, when it last drew), so fast-forward
runs it, with whatever message the script computes."""
import sys
import time

last_time = time.time()
begin_time = last_time


def progress_bar(current, total, msg=None):
    global last_time, begin_time
    now = time.time()
    if current == 0:
        begin_time = now
    step, last_time = now - last_time, now
    line = ' [%d/%d] step %.0fms' % (current + 1, total, step * 1000)
    if msg:
        line += ' | ' + msg
    sys.stdout.write(line + ('\n' if current + 1 == total else '\r'))
    sys.stdout.flush()
