"""Ten single-use recovery codes per user, stored as SHA-256 digests.

The codes are random (50 bits each), so a fast hash is enough: nobody can guess one from its
digest, and checking one does not cost ten Argon2 verifications.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from sqlalchemy import delete, func, select, update

from portal.core.db import db
from portal.core.models import RecoveryCode

COUNT = 10
#: Letters and digits that cannot be misread for one another (no 0/o, 1/l/i).
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
LENGTH = 10


def _digest(code: str) -> str:
    typed = "".join(ch for ch in code.lower() if ch.isalnum())
    return hashlib.sha256(typed.encode()).hexdigest()


def _new_code() -> str:
    letters = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    return f"{letters[:5]}-{letters[5:]}"


def remove_codes(user_id: int) -> None:
    """Delete every code of ``user_id``, used or not."""
    db.session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user_id))


def replace_codes(user_id: int) -> list[str]:
    """Give ``user_id`` COUNT new codes in place of any old ones; the codes to show once."""
    remove_codes(user_id)
    codes = [_new_code() for _ in range(COUNT)]
    db.session.add_all(RecoveryCode(user_id=user_id, code_hash=_digest(code)) for code in codes)
    return codes


def use_code(user_id: int, code: str, now: datetime) -> bool:
    """Spend ``code`` if it is one of the user's unused codes (one atomic update)."""
    spent = db.session.execute(
        update(RecoveryCode)
        .where(RecoveryCode.user_id == user_id, RecoveryCode.code_hash == _digest(code),
               RecoveryCode.used_at.is_(None))
        .values(used_at=now).execution_options(synchronize_session=False))
    return spent.rowcount == 1


def unused_count(user_id: int) -> int:
    """How many of the user's codes are left."""
    return db.session.scalar(select(func.count(RecoveryCode.id)).where(
        RecoveryCode.user_id == user_id, RecoveryCode.used_at.is_(None))) or 0
