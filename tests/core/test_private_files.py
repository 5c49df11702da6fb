"""Files and folders holding KYC data or secrets are owner-only whatever the umask: the SQLite
database and its WAL files, and the development configuration under instance/."""

from __future__ import annotations

import stat
from pathlib import Path

from dotenv import dotenv_values
from sqlalchemy import text

from portal.app.devsetup import write_dev_config
from portal.core.db import make_engine


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_sqlite_database_and_its_wal_files_are_owner_only(tmp_path, permissive_umask):
    database = tmp_path / "portal.db"
    engine = make_engine(f"sqlite:///{database}")
    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE kyc (pan TEXT)"))
            conn.execute(text("INSERT INTO kyc VALUES ('ABCDE1234F')"))
        with engine.connect():  # WAL and shared-memory files exist while connected
            files = {path.name: mode(path) for path in tmp_path.iterdir()}
    finally:
        engine.dispose()
    assert {"portal.db", "portal.db-wal", "portal.db-shm"} <= set(files)
    assert files == dict.fromkeys(files, 0o600)


def test_an_existing_world_readable_database_is_narrowed(tmp_path, permissive_umask):
    database = tmp_path / "portal.db"
    database.touch(mode=0o644)
    make_engine(f"sqlite:///{database}").dispose()
    assert mode(database) == 0o600


def test_dev_config_is_owner_only(tmp_path, permissive_umask):
    instance = tmp_path / "instance"
    assert write_dev_config(instance, 5000, 8100) is True
    assert mode(instance) == 0o700
    assert mode(instance / "portal.env") == 0o600
    assert mode(instance / "sandbox.json") == 0o600


def test_an_older_dev_config_gets_the_new_secrets_and_keeps_its_own(tmp_path, permissive_umask):
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o755)
    env_file = instance / "portal.env"
    env_file.write_text("PORTAL_ENV=development\nSECRET_KEY=kept", encoding="utf-8")
    env_file.chmod(0o644)
    (instance / "sandbox.json").touch(mode=0o644)
    assert write_dev_config(instance, 5000, 8100) is False
    env = dotenv_values(env_file)
    assert env["SECRET_KEY"] == "kept"
    assert env["KYC_ENCRYPTION_KEYS"] and env["PAN_INDEX_KEY"] and env["CREDENTIALS_KEY"]
    assert (mode(instance), mode(env_file), mode(instance / "sandbox.json")) == \
        (0o700, 0o600, 0o600)
