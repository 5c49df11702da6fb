"""The team page for admins, and the public pages that let a user choose a password.

The app-wide CSRFProtect checks every POST's token before these views run."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.mail.sender import MailError
from portal.core.models import ApprovalRequest, Role, User
from portal.domain.four_eyes.requests import RequestRefused
from portal.domain.users.passwords import MIN_LENGTH
from portal.features.team import admin_confirmation, reset, service, tokens
from portal.features.team.forms import (
    ConfirmForm,
    ForgotPasswordForm,
    NewMemberForm,
    NewPasswordForm,
    PromotionForm,
    RoleForm,
)
from portal.web.auth.access import public, roles_required

bp = Blueprint("team", __name__)


def _team_page(form: NewMemberForm) -> str:
    users = service.members()
    roles = {user.id: RoleForm(prefix=f"user-{user.id}", role=user.role) for user in users}
    return render_template("team/index.html", form=form, users=users, roles=roles,
                           labels=service.ROLE_LABELS, states=service.STATE_HELP,
                           state_of=service.state_of, **_who_confirms())


def _who_confirms() -> dict[str, object]:
    """What the pages say about a new administrator: whether the signed-in admin is the only
    one (then the emailed link confirms it) and the address it goes to ('' when none is set)."""
    return {"alone": admin_confirmation.alone(current_user.id),
            "confirm_to": current_settings().admin_confirmation_email}


@bp.get("/admin/team")
@roles_required(Role.ADMIN)
def index() -> ResponseReturnValue:
    """Every user with role, state and last sign-in, and the form to add one."""
    return _team_page(NewMemberForm())


@bp.post("/admin/team")
@roles_required(Role.ADMIN)
def add() -> ResponseReturnValue:
    """Add a member; email an invitation, or show their one-time password once."""
    form = NewMemberForm()
    if not form.validate_on_submit():
        return _team_page(form), 400
    if form.role.data == Role.ADMIN:
        return _ask_to_add_admin(form)
    try:
        user, password = service.add_member(form.email.data, Role(form.role.data),
                                            _one_time_for(), current_user)
    except service.TeamError as exc:
        form.email.errors.append(str(exc))
        return _team_page(form), 400
    db.session.commit()
    if form.invite.data:
        try:
            reset.send_invitation(current_settings(), user, current_user.email)
        except MailError:
            flash("The invitation could not be emailed; hand over the one-time password "
                  "below instead.", "warning")
        else:
            flash(f"{user.email} was added and invited by email.", "success")
            return redirect(url_for("team.index"))
    return _issued(user, password, created=True)


WAITING = ("It now waits for another administrator on the Approvals page (not one you added "
           "or promoted) and is carried out once approved; it lapses after 24 hours.")
CONFIRMING = ("You are the only administrator, so it waits for the link emailed to {address}: "
              "it works once, and the request lapses after 24 hours.")


def _asked(asked: ApprovalRequest, what: str) -> None:
    """Say that ``what`` (adding or making an administrator) waits, and for whom."""
    address = asked.payload.get("confirm_to")
    flash(f"Nothing was changed yet: {what} needs a second person's confirmation. "
          f"{CONFIRMING.format(address=address)}" if address else
          f"Nothing was changed yet: {what} needs another administrator's approval. {WAITING}",
          "success")


def _ask_to_add_admin(form: NewMemberForm) -> ResponseReturnValue:
    """Store the new administrator as a request for another admin or the emailed confirmation;
    errors beside the fields."""
    try:
        asked = service.ask_for_admin(current_settings(), form.email.data, None,
                                      bool(form.invite.data), form.reason.data, current_user)
    except service.TeamError as exc:
        form.email.errors.append(str(exc))
        return _team_page(form), 400
    except RequestRefused as refused:
        (form.reason if refused.field == "reason" else form.email).errors.append(refused.message)
        return _team_page(form), 400
    _asked(asked, f"adding {form.email.data} as an administrator")
    return redirect(url_for("team.index"))


def _one_time_for() -> timedelta:
    return timedelta(hours=current_settings().one_time_password_hours)


def _issued(user: User, password: str, *, created: bool) -> ResponseReturnValue:
    """The one-time password page: shown once, never cached."""
    html = render_template("team/issued.html", user=user, password=password, created=created,
                           hours=current_settings().one_time_password_hours)
    return html, 200, {"Cache-Control": "no-store"}


def _member_or_404(user_id: int) -> User:
    return service.member(user_id) or abort(404)


def _apply(change: Callable[[], None], done: Callable[[], str]) -> ResponseReturnValue:
    """Run a team change; commit and say ``done()`` on success, else say why; back to the list."""
    try:
        change()
    except service.TeamError as exc:
        flash(str(exc), "error")
        return redirect(url_for("team.index"))
    db.session.commit()
    flash(done(), "success")
    return redirect(url_for("team.index"))


def _set_active(user_id: int, change: str) -> ResponseReturnValue:
    user = _member_or_404(user_id)
    return _apply(lambda: service.set_active(user, change == "reactivate", current_user),
                  lambda: f"{user.email} was {change}d.")


def _confirmed(user: User, confirmation: service.Confirmation,
               change: Callable[[], None]) -> ResponseReturnValue:
    """The confirmation page, until its button is pressed; then the change."""
    form = ConfirmForm()
    if request.method == "POST" and form.validate_on_submit() and form.confirmed.data == "yes":
        return _apply(change, lambda: confirmation.done.format(email=user.email))
    return render_template("team/confirm.html", user=user, form=form,
                           confirmation=confirmation)


@bp.route("/admin/team/<int:user_id>/deactivate", methods=["GET", "POST"])
@roles_required(Role.ADMIN)
def deactivate(user_id: int) -> ResponseReturnValue:
    """Ask, then stop a member's sign-ins; their session ends on its next request."""
    user = _member_or_404(user_id)
    return _confirmed(user, service.DEACTIVATE,
                      lambda: service.set_active(user, False, current_user))


@bp.route("/admin/team/<int:user_id>/two-step-sign-in", methods=["GET", "POST"])
@roles_required(Role.ADMIN)
def reset_two_step(user_id: int) -> ResponseReturnValue:
    """Ask, then remove a member's lost authenticator and recovery codes (audited)."""
    user = _member_or_404(user_id)
    return _confirmed(user, service.RESET_TWO_STEP,
                      lambda: service.reset_two_step(user, current_user))


@bp.post("/admin/team/<int:user_id>/invite")
@roles_required(Role.ADMIN)
def reinvite(user_id: int) -> ResponseReturnValue:
    """Invite a member who never signed in again: a new email, the old link dead."""
    user = _member_or_404(user_id)
    try:
        password = service.reinvite(user, _one_time_for(), current_user)
    except service.TeamError as exc:
        flash(str(exc), "error")
        return redirect(url_for("team.index"))
    db.session.commit()
    try:
        reset.send_invitation(current_settings(), user, current_user.email)
    except MailError:
        flash("The invitation could not be emailed; hand over the one-time password below "
              "instead.", "warning")
        return _issued(user, password, created=False)
    flash(f"A new invitation was emailed to {user.email}; the earlier one no longer works.",
          "success")
    return redirect(url_for("team.index"))


@bp.post("/admin/team/<int:user_id>/reactivate")
@roles_required(Role.ADMIN)
def reactivate(user_id: int) -> ResponseReturnValue:
    """Let a deactivated member sign in again."""
    return _set_active(user_id, "reactivate")


@bp.post("/admin/team/<int:user_id>/role")
@roles_required(Role.ADMIN)
def change_role(user_id: int) -> ResponseReturnValue:
    """Make a member an operations user or an administrator."""
    user = _member_or_404(user_id)
    form = RoleForm(prefix=f"user-{user.id}")
    if not form.validate_on_submit():
        flash(f"Choose a role for {user.email} from the list.", "error")
        return redirect(url_for("team.index"))
    if user.role != form.role.data and form.role.data == Role.ADMIN:
        return redirect(url_for("team.promote", user_id=user.id))
    return _apply(lambda: service.change_role(user, Role(form.role.data), current_user),
                  lambda: f"{user.email} is now {service.ROLE_LABELS[user.role].lower()}.")


@bp.route("/admin/team/<int:user_id>/promote", methods=["GET", "POST"])
@roles_required(Role.ADMIN)
def promote(user_id: int) -> ResponseReturnValue:
    """Ask another admin, or the emailed confirmation, to make an operations user an
    administrator, saying why."""
    user = _member_or_404(user_id)
    if user.role == Role.ADMIN:
        flash(f"{user.email} is an administrator already.", "info")
        return redirect(url_for("team.index"))
    form = PromotionForm()
    if form.validate_on_submit():
        try:
            asked = service.ask_for_admin(current_settings(), user.email, user, False,
                                          form.reason.data, current_user)
        except RequestRefused as refused:
            form.reason.errors.append(refused.message)
        else:
            _asked(asked, f"making {user.email} an administrator")
            return redirect(url_for("team.index"))
    status = 400 if form.errors or form.reason.errors else 200
    return render_template("team/promote.html", form=form, user=user, **_who_confirms(),
                           command=admin_confirmation.server_command(user.email, True)
                           ), status


@bp.post("/admin/team/<int:user_id>/one-time-password")
@roles_required(Role.ADMIN)
def one_time_password(user_id: int) -> ResponseReturnValue:
    """Replace a member's password with a one-time password, shown once."""
    user = _member_or_404(user_id)
    password = service.issue_one_time_password(user, _one_time_for(), current_user)
    db.session.commit()
    return _issued(user, password, created=False)


@bp.route("/password/forgot", methods=["GET", "POST"])
@public
def forgot_password() -> ResponseReturnValue:
    """Ask for a reset link; the answer is the same whether or not the email has an account."""
    form = ForgotPasswordForm()
    if form.validate_on_submit():
        reset.request_reset(form.email.data, request.remote_addr or "unknown")
        return render_template("team/forgot_sent.html", email=form.email.data,
                               lasts=tokens.RESET.lasts)
    return render_template("team/forgot.html", form=form)


def _choose_password(purpose: tokens.Purpose, heading: str) -> ResponseReturnValue:
    user = tokens.user_for(current_settings().secret_key, request.args.get("token", ""), purpose)
    if user is None:
        return render_template("team/link_refused.html", purpose=purpose), 410
    form = NewPasswordForm()
    if form.validate_on_submit():
        reset.choose_password(user, form.password.data, purpose)
        flash("Your password was saved. Sign in with it now.", "success")
        return redirect(url_for("auth.login"))
    return render_template("team/choose_password.html", form=form, user=user, heading=heading,
                           min_length=MIN_LENGTH)


@bp.route("/password/reset", methods=["GET", "POST"])
@public
def reset_password() -> ResponseReturnValue:
    """The emailed reset link: choose a new password (once, within 30 minutes)."""
    return _choose_password(tokens.RESET, "Choose a new password")


@bp.route("/team/welcome", methods=["GET", "POST"])
@public
def accept_invitation() -> ResponseReturnValue:
    """The emailed invitation: choose a first password (once, within 3 days)."""
    return _choose_password(tokens.INVITE, "Welcome: choose your password")
