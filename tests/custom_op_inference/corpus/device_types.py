# device_types=, the call form custom_op(name, fn, ...) and kernels registered afterwards
# (written for the agreement test, after flashinfer's and torchao's registrations).
import torch
from torch.library import custom_op, register_fake


@custom_op("corpus_dev::gemm", mutates_args=(), device_types="cuda")
def gemm(a: torch.Tensor, b: torch.Tensor, out_dtype: torch.dtype = torch.bfloat16) -> torch.Tensor:
    return a @ b


@register_fake("corpus_dev::gemm")
def _(a, b, out_dtype=torch.bfloat16):
    return a.new_empty(a.shape[0], b.shape[1], dtype=out_dtype)


@custom_op("corpus_dev::pack", mutates_args=(), device_types=("cpu", "cuda"))
def pack(weight: torch.Tensor, inner_k_tiles: int = 8) -> torch.Tensor:
    return weight


def _unpack(packed: torch.Tensor, bits: int) -> torch.Tensor:
    return packed


unpack = custom_op("corpus_dev::unpack", _unpack, mutates_args=())


@pack.register_kernel("cpu")
def _(weight, inner_k_tiles=8):
    return weight
