"""Objects whose state no result depends on: progress bars, TensorBoard
writers, loggers, open files, sockets. A checkpoint never saves them (most
cannot be pickled, and what they hold is output already written); a
resumed or restarted run has the one its setup built again in
fast-forward, and the work fast-forward skips does not update it (a
progress bar restarts its count, a log gets the lines of the work done
after the restore). So a script that keeps a `pbar = tqdm(...)` or a
`SummaryWriter` across its checkpoints resumes instead of being refused.

The table names classes by module and qualified name; a value is a sink
when its class or one of its bases is listed (the modules are never
imported here).
"""
import io
import logging
import socket

# (module, qualified class name) of the output-only classes.
SINK_CLASSES = (
    ("tqdm.std", "tqdm"),
    ("tqdm.asyncio", "tqdm_asyncio"),
    ("torch.utils.tensorboard.writer", "SummaryWriter"),
    ("torch.utils.tensorboard.writer", "FileWriter"),
    ("tensorboardX.writer", "SummaryWriter"),
    ("wandb.sdk.wandb_run", "Run"),
    ("mlflow.tracking.client", "MlflowClient"),
    ("csv", "DictWriter"),
    ("tensorboard_logger.tensorboard_logger", "Logger"),
)

# Standard-library bases, checked with isinstance.
_SINK_BASES = (logging.Logger, logging.Handler, logging.LoggerAdapter,
               io.IOBase, socket.socket)

_NAMES = frozenset(SINK_CLASSES)
_KNOWN = {}  # type -> whether it is a sink


def is_sink_type(kind):
    known = _KNOWN.get(kind)
    if known is None:
        known = issubclass(kind, _SINK_BASES) or any(
            (getattr(k, "__module__", None), getattr(k, "__qualname__", None))
            in _NAMES for k in kind.__mro__)
        _KNOWN[kind] = known
    return known


def is_sink(value):
    return is_sink_type(type(value))


def name_of(value):
    kind = type(value)
    return "%s.%s" % (kind.__module__, kind.__qualname__)
