# Defaults of every kind infer_schema writes (written for the agreement test, after sampling
# and quantization kernels): numbers, bools, None, strings, devices and dtypes.
from typing import Optional

import torch
from torch import Tensor


@torch.library.custom_op("corpus_def::scaled_quant", mutates_args=())
def scaled_quant(x: Tensor, scale: Optional[Tensor] = None, eps: float = 1e-6,
                 group_size: int = 128, use_ue8m0: bool = False, clamp: float = -448.0,
                 mode: str = "per_token") -> Tensor:
    return x


@torch.library.custom_op("corpus_def::to_device", mutates_args=())
def to_device(x: Tensor, device: torch.device = torch.device("cpu"),
              dtype: torch.dtype = torch.float16, out_dtype: Optional[torch.dtype] = None,
              other: torch.dtype = torch.bfloat16) -> Tensor:
    return x


@torch.library.custom_op("corpus_def::big_numbers", mutates_args=())
def big_numbers(x: Tensor, tiny: float = 1e-12, large: float = 1e20, half: float = 0.5,
                whole: float = 2.0, neg: int = -1) -> Tensor:
    return x


# Refused: a default infer_schema has no text for.
@torch.library.custom_op("corpus_def::bad_tuple_default", mutates_args=())
def bad_tuple_default(x: Tensor, dims: list[int] = (0, 1)) -> Tensor:
    return x
