"""Swin Transformer's `utils.py` in small: `save_checkpoint` builds the
checkpoint dict from its parameters and saves it itself; `get_rank` is 0
outside a process group."""
import os

import torch
import torch.distributed as dist


def get_rank():
    if not dist.is_available() or not dist.is_initialized():
        return 0
    return dist.get_rank()


def save_checkpoint(out, epoch, model, max_accuracy, optimizer, lr_scheduler,
                    logger):
    save_state = {'model': model.state_dict(),
                  'optimizer': optimizer.state_dict(),
                  'lr_scheduler': lr_scheduler.state_dict(),
                  'max_accuracy': max_accuracy,
                  'epoch': epoch}
    logger.append(f"{out} saving......")
    torch.save(save_state, out)
    logger.append(f"{out} saved !!!")
