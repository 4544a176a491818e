import importlib
import os
import sys


def get_exp(exp_file):
    # The experiment is a file named on the command line: its folder goes
    # on sys.path and the module is imported by its file name.
    sys.path.append(os.path.dirname(exp_file))
    module = importlib.import_module(os.path.basename(exp_file).split(".")[0])
    return module.Exp()
