"""The training code of module_loop/train.py, in a package of its own."""
