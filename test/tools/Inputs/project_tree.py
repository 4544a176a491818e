"""Writes a project tree for the project tests' generators
(make_project.py, make_transform_project.py)."""
import os


def write_tree(root, files):
    """Writes each `path: text` of `files` under `root`, and an empty
    `.git` folder: the repository's top, where .gitignore files start."""
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    os.makedirs(os.path.join(root, ".git"), exist_ok=True)
