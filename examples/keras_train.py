"""A Keras-style TensorFlow script (lowered and analysed only: TensorFlow is
not installable here, so this file is never run by the tests).

The tf.data pipeline maps a random augmentation over examples in parallel
(`num_parallel_calls`), shuffles, and batches; the model has dropout; `fit`
runs the training loop.
"""
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


def augment(image, label):
    image = tf.image.random_flip_left_right(image)
    image = image + tf.random.normal(tf.shape(image), stddev=0.05)
    return image, label


def make_dataset(images, labels, batch_size):
    ds = tf.data.Dataset.from_tensor_slices((images, labels))
    ds = ds.shuffle(1024)
    ds = ds.map(augment, num_parallel_calls=tf.data.AUTOTUNE)
    return ds.batch(batch_size).prefetch(tf.data.AUTOTUNE)


def main():
    tf.random.set_seed(1234)
    images = tf.random.uniform((256, 8, 8, 1))
    labels = tf.random.uniform((256,), maxval=4, dtype=tf.int32)
    train = make_dataset(images, labels, batch_size=32)

    model = keras.Sequential([
        layers.Flatten(input_shape=(8, 8, 1)),
        layers.Dense(32, activation="relu"),
        layers.Dropout(0.2),
        layers.Dense(4),
    ])
    model.compile(optimizer="adam",
                  loss=keras.losses.SparseCategoricalCrossentropy(
                      from_logits=True))
    model.fit(train, epochs=3)
    model.save_weights("keras_weights.h5")


if __name__ == "__main__":
    main()
