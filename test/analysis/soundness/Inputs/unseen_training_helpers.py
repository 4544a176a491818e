# Helpers of a training package (unseen_training.py): called by other
# modules, they run nothing here.
import confkit


def build_trainer(argv):
    return confkit.parse_args(argv).build()


def run(argv):
    build_trainer(argv).train()
