# A registration helper in the style of vLLM's vllm/utils/torch_utils.py: it infers the schema
# from op_func and registers into the module's Library unless target_lib names another.
import torch
from torch.library import Library

proj_lib = Library("proj", "FRAGMENT")  # noqa


def direct_register_custom_op(
    op_name: str,
    op_func,
    mutates_args: list[str] | None = None,
    fake_impl=None,
    target_lib: Library | None = None,
    dispatch_key: str | None = None,
    tags=(),
):
    if mutates_args is None:
        mutates_args = []
    schema_str = torch.library.infer_schema(op_func, mutates_args=mutates_args)
    my_lib = target_lib or proj_lib
    my_lib.define(op_name + schema_str, tags=tags)
    my_lib.impl(op_name, op_func, dispatch_key=dispatch_key or "CUDA")
    if fake_impl is not None:
        my_lib._register_fake(op_name, fake_impl)
