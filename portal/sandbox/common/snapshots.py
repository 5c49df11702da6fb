"""How the sandbox's stores write their records as JSON for a restart, and read them back.

Records are dataclasses holding the shared request shapes as they were received; a shape is
written as it would be sent (by alias, absent fields left out, since some shapes refuse an
explicit null such as hosted checkout's ``cardData``), everything else as pydantic dumps it.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter

Record = TypeVar("Record")


def _shape(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    return [_shape(item) for item in value]


def dump(adapter: TypeAdapter[list[Record]], records: list[Record]) -> list[dict[str, Any]]:
    """``records`` as JSON values, their request shapes as a client would send them."""
    dumped: list[dict[str, Any]] = adapter.dump_python(records, mode="json")
    for record, data in zip(records, dumped, strict=True):
        for field in dataclasses.fields(record):  # type: ignore[arg-type]
            value = getattr(record, field.name)
            if isinstance(value, BaseModel) or (
                    isinstance(value, list) and value and isinstance(value[0], BaseModel)):
                data[field.name] = _shape(value)
    return dumped


def load(adapter: TypeAdapter[list[Record]], data: Any) -> list[Record]:
    """The records :func:`dump` wrote (a ValidationError when they are not)."""
    return adapter.validate_python(data if data is not None else [])
