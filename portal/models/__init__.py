"""The portal's models; importing this package registers every table on ``Base.metadata``."""

from portal.db import Base

__all__ = ["Base"]
