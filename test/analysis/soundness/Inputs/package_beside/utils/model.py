# Named like the package `model` beside the script, which it imports:
# under Python 3 that is the package (the script's folder is on sys.path,
# this one's is not), not this module itself.
from model import Net


def get_model():
    return Net()
