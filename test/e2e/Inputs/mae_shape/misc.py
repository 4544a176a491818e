"""MAE's `util/misc.py` in small: `save_model` builds the checkpoint dict
from its parameters and hands it to `save_on_master`."""
import torch


def save_on_master(*args, **kwargs):
    torch.save(*args, **kwargs)


def save_model(args, epoch, model, model_without_ddp, optimizer,
               model_ema=None):
    # MAE's `if loss_scaler is not None:` (a test of state the training
    # changes: the analysis logs it, but a test inside the helper is never
    # evaluated in fast-forward, which skips the call; the session-64
    # binary of eb21990 refused the sidecar for it).
    if optimizer is not None:
        to_save = {
            'model': model_without_ddp.state_dict(),
            'optimizer': optimizer.state_dict(),
            'epoch': epoch,
            'args': args,
        }
        if model_ema is not None:
            to_save['model_ema'] = model_ema.state_dict()
        save_on_master(to_save, args.out)
