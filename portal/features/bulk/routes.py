"""The bulk import page (admins only): upload, the problems found, live progress, and the
template and codes that help fill a file."""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user
from werkzeug.exceptions import RequestEntityTooLarge

from portal.core.models.bulk import BulkImport, ImportState
from portal.core.models.user import Role
from portal.domain.audit.service import Actor
from portal.domain.onboarding.categories import cached_categories
from portal.features.bulk import needs, service, template
from portal.features.bulk.archive import MAX_ZIP_BYTES, ArchiveError
from portal.features.bulk.forms import CancelForm, ImportForm
from portal.features.bulk.report import RowError, errors_csv
from portal.gateway.errors import GatewayError
from portal.web.auth.access import roles_required

bp = Blueprint("bulk", __name__, url_prefix="/admin/bulk")
#: The largest upload of the page: a CSV and a ZIP of documents.
MAX_REQUEST_BYTES = MAX_ZIP_BYTES + 16 * 1024 * 1024


@bp.before_request
def _room_for_documents() -> None:
    """The upload carries a ZIP of documents: allow more than one document's size."""
    request.max_content_length = MAX_REQUEST_BYTES


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(_error: RequestEntityTooLarge) -> ResponseReturnValue:
    flash("The files are too large for one upload (100 MB at most); split the import into "
          "several files.", "error")
    return redirect(url_for("bulk.index"))


@bp.route("/", methods=["GET", "POST"])
@roles_required(Role.ADMIN)
def index() -> ResponseReturnValue:
    """Upload a file: a file with problems shows them here; a good one queues the import."""
    form = ImportForm()
    if form.validate_on_submit():
        upload = form.file.data
        try:
            job = service.submit(upload.read(), upload.filename or "merchants.csv",
                              Actor(current_user.email, current_user.id),
                              skip_invalid=form.skip_invalid.data,
                              documents=form.documents.data.stream if form.documents.data
                              else None)
        except ArchiveError as exc:
            form.documents.errors = [str(exc)]
            return _page(form, None), 422
        if job.state != ImportState.INVALID:
            return redirect(url_for("bulk.show", import_id=job.id))
        return _page(form, job), 422
    return _page(form, None)


def _page(form: ImportForm, invalid: BulkImport | None) -> str:
    return render_template("bulk/index.html", form=form, invalid=invalid,
                           recent=service.recent_imports())


@bp.get("/template.csv")
@roles_required(Role.ADMIN)
def template_file() -> ResponseReturnValue:
    """Every column, with an example row."""
    return _csv(template.template_csv(), "merchants-template.csv")


@bp.get("/codes.csv")
@roles_required(Role.ADMIN)
def codes_file() -> ResponseReturnValue:
    """The codes the columns accept, with their meanings."""
    try:
        categories = cached_categories()
    except GatewayError:
        categories = None
    return _csv(template.codes_csv(categories), "merchants-codes.csv")


def _csv(body: str, name: str) -> Response:
    return Response(body, mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename={name}"})


@bp.get("/<int:import_id>")
@roles_required(Role.ADMIN)
def show(import_id: int) -> ResponseReturnValue:
    """One import: its progress (refreshed by script, or by the page itself without one)."""
    job = load(import_id)
    return render_template("bulk/import.html", job=job, cancel_form=CancelForm(),
                           needs=needs.still_needed(job, needs.ON_THE_PAGE + 1),
                           shown=needs.ON_THE_PAGE)


@bp.post("/<int:import_id>/cancel")
@roles_required(Role.ADMIN)
def cancel(import_id: int) -> ResponseReturnValue:
    """Stop a running import: the rows being sent end, the rows after them are not sent."""
    job = load(import_id)
    if not CancelForm().validate_on_submit():
        abort(400)
    if service.cancel(job.id, Actor(current_user.email, current_user.id)):
        flash("The import was cancelled: the rows not yet done will not be sent. Uploading the "
              "same file again resumes it.", "info")
    else:
        flash("The import had already ended.", "info")
    return redirect(url_for("bulk.show", import_id=job.id))


@bp.get("/<int:import_id>/progress")
@roles_required(Role.ADMIN)
def progress(import_id: int) -> ResponseReturnValue:
    """The import's progress as JSON, for the page's poll."""
    return jsonify(service.progress(load(import_id)))


@bp.get("/<int:import_id>/errors.csv")
@roles_required(Role.ADMIN)
def errors(import_id: int) -> ResponseReturnValue:
    """The file's problems as CSV: row, column, message."""
    job = load(import_id)
    body = errors_csv([RowError(e["row"], e["column"], e["message"]) for e in job.errors])
    return _csv(body, f"bulk-import-{job.id}-errors.csv")


@bp.get("/<int:import_id>/needs.csv")
@roles_required(Role.ADMIN)
def needs_file(import_id: int) -> ResponseReturnValue:
    """What each merchant of the import still needs, as CSV: row, external id, merchant, needs."""
    job = load(import_id)
    return _csv(needs.needs_csv(needs.still_needed(job)), f"bulk-import-{job.id}-still-needed.csv")


def load(import_id: int) -> BulkImport:
    """The import, or 404."""
    return service.get_import(import_id) or abort(404)
