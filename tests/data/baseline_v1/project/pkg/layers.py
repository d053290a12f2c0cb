from mindspore import nn

POOL = nn.MaxPool2d(kernel_size=2)
DROP = nn.Dropout(0.5)
