"""Hints to the processor's memory system from a compiled kernel: no effect on any value.

:func:`prefetch` asks for a cache line before the kernel reads it, so that the wait for memory
overlaps other work: the node search fetches a child's table bucket as soon as the child is
played, before the child's own bookkeeping (:mod:`solver.compiled_kernel`). Under
``NUMBA_DISABLE_JIT`` it is a function that does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numba

__all__ = ["prefetch"]


def _prefetch_intrinsic() -> Callable[[int], None]:
    @numba.extending.intrinsic
    def prefetch(typingctx: Any, address: Any) -> Any:
        from llvmlite import ir  # type: ignore[import-untyped]

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            pointer = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [pointer, i32, i32, i32])
            fn = builder.module.declare_intrinsic("llvm.prefetch", [pointer], fnty)
            # a read (0), kept in every cache level (3), of data (1)
            builder.call(fn, [builder.inttoptr(args[0], pointer), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return numba.types.void(numba.types.int64), codegen

    return cast(Callable[[int], None], prefetch)


def _no_prefetch(address: int) -> None:
    """Plain Python has no cache to warm (NUMBA_DISABLE_JIT)."""


prefetch: Callable[[int], None] = (
    _no_prefetch
    if numba.config.DISABLE_JIT  # type: ignore[attr-defined]
    else _prefetch_intrinsic()
)
"""In a kernel: ``prefetch(address)`` fetches the cache line holding the int64 address
``address`` (an array's ``ctypes.data`` plus an offset) towards the processor."""
