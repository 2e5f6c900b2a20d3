# Custom ops written for the agreement test in the shapes extension projects use (attention
# caches written in place, norms with residuals, samplers): every form of mutates_args.
from typing import Optional

import torch

CACHE_ARGS = ("key_cache", "value_cache")


@torch.library.custom_op("corpus_mut::reshape_and_cache", mutates_args=CACHE_ARGS)
def reshape_and_cache(key: torch.Tensor, value: torch.Tensor, key_cache: torch.Tensor,
                      value_cache: torch.Tensor, slot_mapping: torch.Tensor,
                      kv_cache_dtype: str, k_scale: float, v_scale: float) -> None:
    pass


@torch.library.custom_op("corpus_mut::fused_add_rms_norm", mutates_args=["input", "residual"])
def fused_add_rms_norm(input: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor,
                       epsilon: float) -> None:
    pass


@torch.library.custom_op("corpus_mut::rms_norm", mutates_args={"out"})
def rms_norm(out: torch.Tensor, input: torch.Tensor, weight: torch.Tensor, epsilon: float) -> None:
    pass


@torch.library.custom_op("corpus_mut::top_k_renorm", mutates_args=set())
def top_k_renorm(probs: torch.Tensor, top_k: Optional[torch.Tensor], top_k_val: int) -> torch.Tensor:
    return probs.clone()


@torch.library.custom_op("corpus_mut::all_reduce", mutates_args="unknown")
def all_reduce(inp: torch.Tensor, out: torch.Tensor, group: list[int], flag: bool) -> None:
    pass


@torch.library.custom_op("corpus_mut::scatter_lists", mutates_args=("buffers",))
def scatter_lists(buffers: list[torch.Tensor], index: torch.Tensor) -> None:
    pass


@torch.library.custom_op("corpus_mut::maybe_write", mutates_args=("dst",))
def maybe_write(src: torch.Tensor, dst: Optional[torch.Tensor]) -> None:
    pass


# Refused by PyTorch: only Tensors can be mutated, and mutates_args names parameters.
@torch.library.custom_op("corpus_mut::bad_int_mutated", mutates_args=("n",))
def bad_int_mutated(x: torch.Tensor, n: int) -> None:
    pass


@torch.library.custom_op("corpus_mut::bad_unknown_name", mutates_args=("y",))
def bad_unknown_name(x: torch.Tensor) -> None:
    pass
