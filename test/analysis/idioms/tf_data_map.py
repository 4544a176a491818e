# Idiom 8 (issue 17): tf.data pipelines without a DataLoader.
# `ds.map(lambda x, y: augment(x, y), num_parallel_calls=AUTOTUNE)` runs
# the helper the lambda calls per example, in parallel; so does a
# @tf.function called from a lambda. The draws in both helpers are unsafe
# in the per-example region that model.fit's loop over the dataset opens.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-DAG: tf_data_map.py:[[@LINE+8]]:13: warning: generator 'tensorflow' (global) is used inside the per-example data-parallel region
# CHECK-DAG: tf_data_map.py:[[@LINE+8]]:21: warning: generator 'tensorflow' (global) is used inside the per-example data-parallel region
# CHECK-DAG: tf_data_map.py:[[@LINE+13]]:12: warning: generator 'tensorflow' (global) is used inside the per-example data-parallel region
# CHECK: 3 warning(s); unsafe generators (ERR): 'tensorflow' (global)
import tensorflow as tf


def augment(image, label):
    image = tf.image.random_flip_left_right(image)
    image = image + tf.random.normal(tf.shape(image), stddev=0.1)
    return image, label


@tf.function
def jitter(image):
    return tf.image.random_brightness(image, 0.2)


def build(ds):
    ds = ds.map(lambda x, y: augment(x, y), num_parallel_calls=tf.data.AUTOTUNE)
    ds = ds.map(lambda x, y: (jitter(x), y), num_parallel_calls=4)
    return ds.batch(32)


def main():
    (x, y), _ = tf.keras.datasets.cifar10.load_data()
    ds = build(tf.data.Dataset.from_tensor_slices((x, y)))
    model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    model.fit(ds, epochs=2)


main()
