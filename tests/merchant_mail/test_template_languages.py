"""An admin's version of a merchant email is per language (issue 39): saved, read and restored
in one language, the others keeping their own text; a team email has its English one only."""

from __future__ import annotations

import pytest

from portal.core.db import db
from portal.domain.audit.service import Actor
from portal.domain.merchant_mail import templates
from tests.support.team import audited

ADMIN = Actor("admin@example.com")
HINDI_SUBJECT = "$business_name: कृपया वेरिफ़िकेशन पूरा करें"
HINDI_BODY = "नमस्ते $signatory_name, यह लिंक खोलें: $link ($expires_at तक)"


def _save(key: str, language: str, subject: str, body: str) -> None:
    templates.save(key, language, subject, body, ADMIN)
    db.session.commit()


def test_the_built_in_text_is_in_the_language_asked_for(app):
    with app.app_context():
        english = templates.current("merchant_link", "en")
        hindi = templates.current("merchant_link", "hi")
    assert english.subject == "Complete the verification of $business_name"
    assert hindi.subject == "$business_name का वेरिफ़िकेशन पूरा करें"
    assert (english.language, hindi.language) == ("en", "hi")
    assert not english.customised and not hindi.customised


def test_an_english_edit_leaves_hindi_on_the_built_in_text(app):
    with app.app_context():
        _save("merchant_link", "en", "Verify $business_name", "Open $link")
        english = templates.current("merchant_link", "en")
        hindi = templates.current("merchant_link", "hi")
        assert hindi == templates.built_in("merchant_link", "hi")
    assert (english.subject, english.body, english.customised) == (
        "Verify $business_name", "Open $link", True)
    assert english.updated_by == "admin@example.com" and english.updated_at is not None
    assert not hindi.customised


def test_each_language_is_saved_and_restored_by_itself(app):
    with app.app_context():
        _save("verification_reminder", "en", "Nudge $business_name", "Go to $link")
        _save("verification_reminder", "hi", HINDI_SUBJECT, HINDI_BODY)
        english, hindi = templates.versions("verification_reminder")
        assert (english.subject, hindi.subject) == ("Nudge $business_name", HINDI_SUBJECT)
        templates.restore_default("verification_reminder", "hi", ADMIN)
        db.session.commit()
        assert templates.current("verification_reminder", "hi") == templates.built_in(
            "verification_reminder", "hi")
        assert templates.current("verification_reminder", "en").subject == "Nudge $business_name"
    details = [e.detail for e in audited(app, "mail_template.update")]
    details += [e.detail for e in audited(app, "mail_template.restore")]
    assert details == [{"template": "verification_reminder", "language": "en"},
                       {"template": "verification_reminder", "language": "hi"},
                       {"template": "verification_reminder", "language": "hi"}]


def test_a_hindi_version_is_rendered_for_hindi_only(app):
    values = {"business_name": "लक्ष्मी स्वीट्स", "signatory_name": "आशा", "link": "https://x/1",
              "expires_at": "2026-01-06 09:00 UTC", "partner_name": "Acme"}
    with app.app_context():
        _save("merchant_link", "hi", HINDI_SUBJECT, HINDI_BODY)
        assert templates.render("merchant_link", values, "hi") == (
            "लक्ष्मी स्वीट्स: कृपया वेरिफ़िकेशन पूरा करें",
            "नमस्ते आशा, यह लिंक खोलें: https://x/1 (2026-01-06 09:00 UTC तक)")
        subject, _body = templates.render("merchant_link", values, "en")
    assert subject == "Complete the verification of लक्ष्मी स्वीट्स"


@pytest.mark.parametrize(("key", "body", "error"), [
    ("merchant_link", "नमस्ते $signatory_name", "The body must contain $link, or the merchant "
                                                "cannot open the verification page."),
    ("merchant_needs", "नमस्ते, $link", "Unknown placeholder $link. Use one of: $business_name, "
                                        "$signatory_name, $needs, $partner_name."),
    ("merchant_needs", "नमस्ते $signatory_name", "The body must contain $needs, or the merchant "
                                                "does not learn what to gather."),
    ("merchant_rejected", "माफ़ कीजिए", "The body must contain $reason, or the merchant does "
                                        "not learn why."),
])
def test_the_required_placeholder_is_checked_in_each_language(app, key, body, error):
    with app.app_context():
        _save(key, "en", "Hello", f"English ${templates.DEFAULTS[key].required}")
        with pytest.raises(templates.TemplateRefused) as refused:
            templates.save(key, "hi", "नमस्ते", body, ADMIN)
        db.session.rollback()
        assert (refused.value.field, str(refused.value)) == ("body", error)
        assert not templates.current(key, "hi").customised
        assert templates.current(key, "en").customised


def test_a_team_email_is_written_in_english_only(app):
    assert [language.code for language in templates.languages_of("owner_notice")] == ["en"]
    assert [language.code for language in templates.languages_of("merchant_link")] == [
        "en", "hi"]
    with app.app_context():
        _save("owner_notice", "en", "$business_name: $headline", "$details $link")
        assert [text.language for text in templates.versions("owner_notice")] == ["en"]
        for call in (lambda: templates.current("owner_notice", "hi"),
                     lambda: templates.save("owner_digest", "hi", "x", "$link", ADMIN),
                     lambda: templates.restore_default("owner_digest", "hi", ADMIN),
                     lambda: templates.current("merchant_link", "fr")):
            with pytest.raises(ValueError, match="is not written in"):
                call()


def test_every_email_is_listed_in_each_of_its_languages(app):
    with app.app_context():
        _save("merchant_needs", "hi", "ज़रूरी कागज़", "$needs")
        listed = {texts[0].key: texts for texts in templates.all_current()}
    assert set(listed) == set(templates.DEFAULTS)
    assert [(t.language, t.customised) for t in listed["merchant_needs"]] == [
        ("en", False), ("hi", True)]
    assert [t.language for t in listed["owner_digest"]] == ["en"]
