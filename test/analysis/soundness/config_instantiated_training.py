# A training run whose model and data are instantiated from a config's
# class paths and trained by PyTorch Lightning, in the shape of
# taming-transformers' and latent-diffusion's main.py:
# `instantiate_from_config(config.model)` imports a module by a name from
# the config and calls its class; `Trainer.from_argparse_args(...)` makes
# the trainer; `trainer.fit(model, data)` passes the data positionally.
# Everything that draws runs in code detc cannot see, so each is a finding
# of its own: the data's examples (the table's `data-argument` line makes
# fit's second argument the data it iterates), the model's methods the
# library calls every batch, the library's loop. Before: "modules imported
# by name at run time are unknown", and no finding. With latent-diffusion's
# `return None` for a config without a target, the model was None only
# (an attribute of a module imported by name was nothing), and silent.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: .py:[[@LINE+14]]:20: warning: modules imported by name at run time are unknown to detc
# CHECK-DAG: .py:[[@LINE+31]]:24: warning: may draw: 'data' calls code detc could not read, inside the per-example data-parallel region
# CHECK-DAG: .py:[[@LINE+30]]:17: warning: may draw: 'model' calls code detc could not read, inside the per-batch data-parallel region
# CHECK-DAG: note: 'model' is an object that is code of a module imported by a name computed at run time (importlib.import_module), which may be any module: any code, random draws included, whose methods the library may call every batch
# CHECK-DAG: .py:[[@LINE+28]]:5: warning: may draw: 'trainer.fit' calls code detc could not read, inside the per-batch data-parallel region
import argparse
import importlib

from pytorch_lightning import seed_everything
from pytorch_lightning.trainer import Trainer


def get_obj_from_str(string):
    module, cls = string.rsplit(".", 1)
    return getattr(importlib.import_module(module, package=None), cls)


def instantiate_from_config(config):
    if "target" not in config:
        return None
    return get_obj_from_str(config["target"])(**config.get("params", {}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="models.vqgan.VQModel")
    parser.add_argument("--data", default="data.images.DataModule")
    args = parser.parse_args()
    seed_everything(23)
    model = instantiate_from_config({"target": args.model})
    data = instantiate_from_config({"target": args.data})
    trainer = Trainer.from_argparse_args(args, max_epochs=1)
    trainer.fit(model, data)


if __name__ == "__main__":
    main()
