# An inference script (unseen_training.py): a pipeline a library detc
# cannot read builds and runs; nothing trains.
import torch
import confkit

pipe = confkit.load_pipeline("model.pt")
with torch.no_grad():
    images = pipe.generate(prompt="a cat", steps=20)
confkit.save_images(images, "out")
