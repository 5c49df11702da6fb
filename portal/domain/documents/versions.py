"""A merchant's uploads as versions: numbered per document type, and which newer one replaced
an older one (a later upload of the same type that reached the gateway)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from portal.core.models.document import DocumentStatus, StoredDocument


@dataclass(frozen=True)
class Version:
    """One upload with its place in its type's history."""

    document: StoredDocument
    #: 1 for the first upload of this type, 2 for the next, ...
    number: int
    #: The newer upload of the same type the gateway accepted since, if any.
    replaced_by: StoredDocument | None
    #: That newer upload's version number (0 when none replaced this one).
    replaced_by_number: int

    @property
    def replaced(self) -> bool:
        """Whether a newer version of this type reached the gateway since."""
        return self.replaced_by is not None


def versions_of(documents: list[StoredDocument]) -> list[Version]:
    """``documents`` (newest first, as ``documents_of`` gives them) as numbered versions.

    A version is replaced by the next newer upload of its type that was sent: an upload that
    was refused or never sent replaces nothing, and the gateway still holds the older one.
    """
    by_type: dict[str, list[StoredDocument]] = defaultdict(list)
    for document in sorted(documents, key=lambda d: (d.uploaded_at, d.id)):
        by_type[document.doc_type].append(document)
    views: dict[int, Version] = {}
    for history in by_type.values():
        numbers = {document.id: number for number, document in enumerate(history, start=1)}
        newer_sent: StoredDocument | None = None
        for document in reversed(history):
            replaced_by = newer_sent if document.status == DocumentStatus.SENT else None
            views[document.id] = Version(
                document, numbers[document.id], replaced_by,
                numbers[replaced_by.id] if replaced_by else 0)
            if document.status == DocumentStatus.SENT:
                newer_sent = document
    return [views[document.id] for document in documents]
