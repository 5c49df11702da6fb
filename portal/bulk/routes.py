"""The bulk import page (admins only): upload, the problems found, live progress."""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user
from werkzeug.exceptions import RequestEntityTooLarge

from portal.auth import roles_required
from portal.bulk import jobs
from portal.bulk.forms import CancelForm, ImportForm
from portal.bulk.report import RowError, errors_csv
from portal.models.bulk import BulkImport, ImportState
from portal.models.user import Role

bp = Blueprint("bulk", __name__, url_prefix="/admin/bulk")


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(_error: RequestEntityTooLarge) -> ResponseReturnValue:
    flash("The file is too large for one upload; split it into several files.", "error")
    return redirect(url_for("bulk.index"))


@bp.route("/", methods=["GET", "POST"])
@roles_required(Role.ADMIN)
def index() -> ResponseReturnValue:
    """Upload a file: a file with problems shows them here; a good one queues the import."""
    form = ImportForm()
    if form.validate_on_submit():
        upload = form.file.data
        job = jobs.submit(upload.read(), upload.filename or "merchants.csv", current_user.email,
                          skip_invalid=form.skip_invalid.data)
        if job.state != ImportState.INVALID:
            return redirect(url_for("bulk.show", import_id=job.id))
        return render_template("bulk/index.html", form=form, invalid=job,
                               recent=jobs.recent_imports()), 422
    return render_template("bulk/index.html", form=form, invalid=None,
                           recent=jobs.recent_imports())


@bp.get("/<int:import_id>")
@roles_required(Role.ADMIN)
def show(import_id: int) -> ResponseReturnValue:
    """One import: its progress (refreshed by script, or by the page itself without one)."""
    return render_template("bulk/import.html", job=load(import_id), cancel_form=CancelForm())


@bp.post("/<int:import_id>/cancel")
@roles_required(Role.ADMIN)
def cancel(import_id: int) -> ResponseReturnValue:
    """Stop a running import: the rows being sent end, the rows after them are not sent."""
    job = load(import_id)
    if not CancelForm().validate_on_submit():
        abort(400)
    if jobs.cancel(job.id):
        flash("The import was cancelled: the rows not yet done will not be sent. Uploading the "
              "same file again resumes it.", "info")
    else:
        flash("The import had already ended.", "info")
    return redirect(url_for("bulk.show", import_id=job.id))


@bp.get("/<int:import_id>/progress")
@roles_required(Role.ADMIN)
def progress(import_id: int) -> ResponseReturnValue:
    """The import's progress as JSON, for the page's poll."""
    return jsonify(jobs.progress(load(import_id)))


@bp.get("/<int:import_id>/errors.csv")
@roles_required(Role.ADMIN)
def errors(import_id: int) -> ResponseReturnValue:
    """The file's problems as CSV: row, column, message."""
    job = load(import_id)
    body = errors_csv([RowError(e["row"], e["column"], e["message"]) for e in job.errors])
    return Response(body, mimetype="text/csv", headers={
        "Content-Disposition": f"attachment; filename=bulk-import-{job.id}-errors.csv"})


def load(import_id: int) -> BulkImport:
    """The import, or 404."""
    return jobs.get_import(import_id) or abort(404)
