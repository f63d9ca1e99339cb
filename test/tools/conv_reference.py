"""NumPy's float64 reference for the convolution tests' generators (conv-*.test.py)."""
import numpy as np


def conv(image, filt, stride=1, pad=1, dilation=1):
    """Cross-correlation of image [N, C, H, W] with filt [O, C, KH, KW], zero padding `pad`
    on every side, float64."""
    n, c, h, wd = image.shape
    kh, kw = filt.shape[2], filt.shape[3]
    padded = np.pad(image.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, filt.shape[0], oh, ow))
    for ky in range(kh):
        for kx in range(kw):
            y0, x0 = ky * dilation, kx * dilation
            window = padded[:, :, y0:y0 + stride * oh:stride, x0:x0 + stride * ow:stride]
            out += np.einsum("nchw,oc->nohw", window, filt[:, :, ky, kx].astype(np.float64))
    return out
