import importlib


class EasyDict(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name)

    def __setattr__(self, name, value):
        self[name] = value


def get_obj_by_name(name):
    module_name, _, obj_name = name.rpartition(".")
    module = importlib.import_module(module_name)
    obj = module
    for part in obj_name.split("."):
        obj = getattr(obj, part)
    return obj


def call_func_by_name(*args, func_name=None, **kwargs):
    func_obj = get_obj_by_name(func_name)
    return func_obj(*args, **kwargs)


def construct_class_by_name(*args, class_name=None, **kwargs):
    return call_func_by_name(*args, func_name=class_name, **kwargs)
