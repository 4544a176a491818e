"""MAE's main_pretrain.py in small (also ConvNeXt's and BEiT's): the
checkpoint is written by `misc.save_model(args=args, model=model, ...)`,
which builds `to_save = {...}` from its parameters and calls
`save_on_master(to_save, path)`, a helper saving with `torch.save(*args,
**kwargs)`. The restore after the script's call names the script's
variables the parameters were given. The session-60 first binary gave the
checkpoint no sidecar, silently (test/e2e/kill_resume.py). ConvNeXt's
`main.py` also saves its best checkpoint through the same helper, with a
literal for a parameter (`epoch="best"`), and an EMA the helper adds to
the dict (`if model_ema is not None: to_save['model_ema'] = ...`): the
session-65 first binary wrote no sidecar for that call ("what it saves is
built in 'misc.save_model' from values other than its parameters").

usage: train.py --out FILE [--epochs N] [--ema]"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

import misc
from engine import train_one_epoch


def get_args_parser():
    parser = argparse.ArgumentParser('MAE pre-training', add_help=False)
    parser.add_argument("--out", required=True)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--ema", action="store_true")
    return parser


def main(args):
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(48, 6), torch.randint(0, 3, (48,)))
    data_loader_train = DataLoader(data, batch_size=8, shuffle=True,
                                   num_workers=2, drop_last=True)
    model = nn.Sequential(nn.Linear(6, 16), nn.GELU(), nn.Dropout(0.2),
                          nn.Linear(16, 3))
    model_without_ddp = model
    optimizer = torch.optim.AdamW(model_without_ddp.parameters(), lr=1e-2)
    model_ema = None
    if args.ema:
        model_ema = torch.optim.swa_utils.AveragedModel(model)
    max_accuracy = 0.0
    for epoch in range(args.epochs):
        train_stats = train_one_epoch(model, data_loader_train, optimizer,
                                      epoch)
        if model_ema is not None:
            model_ema.update_parameters(model)
        misc.save_model(
            args=args, model=model, model_without_ddp=model_without_ddp,
            optimizer=optimizer, epoch=epoch, model_ema=model_ema)
        print(train_stats)
        accuracy = train_stats["epoch"] * 7 % 5  # best at epochs 1 and 2
        if max_accuracy < accuracy:
            max_accuracy = accuracy
            misc.save_model(
                args=args, model=model, model_without_ddp=model_without_ddp,
                optimizer=optimizer, epoch="best", model_ema=model_ema)


if __name__ == '__main__':
    args = get_args_parser()
    args = args.parse_args()
    main(args)
