import importlib

from models.base_model import BaseModel


def find_model_using_name(model_name):
    model_filename = "models." + model_name + "_model"
    modellib = importlib.import_module(model_filename)
    model = None
    target = model_name.replace("_", "") + "model"
    for name, cls in modellib.__dict__.items():
        if name.lower() == target.lower() and issubclass(cls, BaseModel):
            model = cls
    return model


def create_model(opt):
    model = find_model_using_name(opt.model)
    return model(opt)
