"""The documents step: upload forms driven by documentsToBeUploaded, downloads for staff."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, send_file, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from werkzeug.exceptions import RequestEntityTooLarge

from portal.core.clients import current_onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import record
from portal.domain.documents import service
from portal.domain.documents.versions import versions_of
from portal.domain.onboarding import progress
from portal.domain.onboarding.drafts import drafts_of, get_merchant
from portal.features.documents.forms import UploadForm
from portal.web.auth.access import current_actor, roles_required
from portal.web.auth.roles import STAFF
from portal.web.step_pages import sandbox_only
from portal.web.uploads import reads_oversize_uploads

bp = Blueprint("documents", __name__)


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(_error: RequestEntityTooLarge) -> ResponseReturnValue:
    """A body even over the discard limit (browsers with scripts never send one)."""
    flash(service.too_large(current_settings().upload_max_bytes), "error")
    return redirect(request.path)


@bp.route("/merchants/<int:merchant_id>/steps/documents", methods=["GET", "POST"])
@reads_oversize_uploads
@roles_required(*STAFF)
def step(merchant_id: int) -> ResponseReturnValue:
    """Offer one upload per outstanding document; an upload is stored and sent at once."""
    merchant = load(merchant_id)
    posted = UploadForm()
    slot = next((s for s in service.slots(merchant, service.documents_of(merchant))
                 if s.key == posted.slot.data), None)
    if slot is not None and posted.offer(slot).validate_on_submit():
        upload = posted.file.data
        result = service.upload(current_onboarding_client(), current_settings(), merchant,
                                posted.docType.data, upload.filename or "", upload.stream,
                                current_user.id, actor=current_actor())
        if result.ok:
            flash(result.message, "success")
            return redirect(url_for("documents.step", merchant_id=merchant.id))
        messages = [e.message for e in result.errors] or [result.message]
        posted.file.errors = [*posted.file.errors, *messages]
    if request.method == "POST" and slot is None:
        flash("That document is no longer expected; the list below is current.", "warning")
    return render_page(merchant, posted if slot is not None else None)


@bp.post("/merchants/<int:merchant_id>/documents/<int:document_id>/send")
@roles_required(*STAFF)
def resend(merchant_id: int, document_id: int) -> ResponseReturnValue:
    """Send a stored document again (after the gateway was unreachable)."""
    merchant = load(merchant_id)
    document = service.get_document(merchant, document_id) or abort(404)
    result = service.send(current_onboarding_client(), current_settings(), merchant, document,
                          actor=current_actor())
    flash(result.message, "success" if result.ok else "error")
    return redirect(url_for("documents.step", merchant_id=merchant.id))


@bp.post("/merchants/<int:merchant_id>/steps/documents/fill")
@roles_required(*STAFF)
def fill(merchant_id: int) -> ResponseReturnValue:
    """Sandbox only: upload a sample PDF for every outstanding document."""
    sandbox_only()
    merchant = load(merchant_id)
    for result in service.upload_samples(current_onboarding_client(), current_settings(), merchant,
                                         current_user.id, actor=current_actor()):
        flash(result.message, "success" if result.ok else "error")
    return redirect(url_for("documents.step", merchant_id=merchant.id))


@bp.get("/merchants/<int:merchant_id>/documents/<int:document_id>")
@roles_required(*STAFF)
def download(merchant_id: int, document_id: int) -> ResponseReturnValue:
    """The stored file, as an attachment, for signed-in staff only; every download is audited
    (which version, and whether a newer one replaced it)."""
    merchant = load(merchant_id)
    document = service.get_document(merchant, document_id) or abort(404)
    version = next(v for v in versions_of(service.documents_of(merchant))
                   if v.document.id == document.id)
    if not document.file_kept:
        flash(f"The file of version {version.number} was deleted on "
              f"{document.file_deleted_at:%Y-%m-%d} under the retention policy; its record "
              "stays below.", "warning")
        return redirect(url_for("documents.step", merchant_id=merchant.id))
    record("document.download", actor=current_actor(), merchant_id=merchant.id,
           detail={"docType": document.doc_type, "version": version.number,
                   "replaced": version.replaced, "sha256": document.sha256})
    db.session.commit()
    stored = service.stored_file(current_settings(), document)
    response = send_file(stored.open(), as_attachment=True,
                         download_name=service.download_name(document),
                         mimetype=document.content_type)
    response.content_length = document.size
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def load(merchant_id: int) -> Merchant:
    """The merchant, or 404."""
    return get_merchant(merchant_id) or abort(404)


def render_page(merchant: Merchant, posted: UploadForm | None) -> str:
    """The documents page: stepper, lock reason, one form per slot, the uploads so far."""
    documents = service.documents_of(merchant)
    entries = [(slot, posted if posted is not None and posted.slot.data == slot.key
                else UploadForm(formdata=None).offer(slot))
               for slot in service.slots(merchant, documents)]
    stepper = progress.stepper(merchant, drafts_of(merchant))
    status = next(s for s in stepper if s.step.key == "documents")
    return render_template("documents/step.html", merchant=merchant, step=status.step,
                           stepper=stepper, lock_reason=status.lock_reason, entries=entries,
                           versions=versions_of(documents),
                           max_bytes=current_settings().upload_max_bytes,
                           upload_limit=service.size_text(current_settings().upload_max_bytes),
                           too_large=service.too_large(current_settings().upload_max_bytes))
