"""Where document files are kept: one small interface (``portal.core.storage.base``) with two
backends, the local upload folder (the default) and S3-compatible object storage, chosen by
DOCUMENT_STORAGE (``portal.core.storage.current``)."""
