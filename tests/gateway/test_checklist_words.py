"""The checklist's one table of words (docs/gateway-contract.md, "Checklist words"): every word
has a row with every column, and what each word means to the portal."""

from __future__ import annotations

from dataclasses import fields

import pytest

from portal.gateway.onboarding.checklist_words import (
    DONE_WORDS,
    WORDS,
    Badge,
    ChecklistState,
    ChecklistWord,
    checklist_done,
    checklist_state,
    not_applicable,
    word,
)

#: The columns a synonym may leave empty: the word it is kept as.
OPTIONAL = {"kept_as"}


def test_every_word_has_a_row_with_every_column():
    assert set(WORDS) == set(ChecklistState)
    for state, row in WORDS.items():
        assert row.state == state
        for column in fields(ChecklistWord):
            value = getattr(row, column.name)
            assert column.name in OPTIONAL or value is not None, (state, column.name)
        assert isinstance(row.badge, Badge)
        assert row.label and row.label[0].isupper() and "_" not in row.label, state


def test_a_synonym_is_kept_as_a_word_that_means_the_same():
    for state, row in WORDS.items():
        if row.kept_as is not None:
            same = WORDS[row.kept_as]
            assert same.kept_as is None, state
            assert (row.done, row.awaiting_review, row.applies, row.label, row.badge) == (
                same.done, same.awaiting_review, same.applies, same.label, same.badge), state


@pytest.mark.parametrize(("value", "kept", "done"), [
    ("COMPLETE", "COMPLETE", True), ("SUCCESS", "COMPLETE", True),
    ("NOT_APPLICABLE", "NOT_APPLICABLE", True), ("not_applicable", "NOT_APPLICABLE", True),
    ("PENDING_REVIEW", "PENDING_REVIEW", True), ("INCOMPLETE", "PENDING", False),
    ("PENDING", "PENDING", False), ("FAILED", "FAILED", False), (True, "COMPLETE", True),
    (False, "PENDING", False), (None, "PENDING", False), (" ", "PENDING", False),
    ("ON_HOLD", "ON_HOLD", False),
])
def test_what_each_word_means(value, kept, done):
    assert (checklist_state(value), checklist_done(value)) == (kept, done)


def test_only_not_applicable_says_an_item_does_not_apply():
    assert [state for state in ChecklistState if not_applicable(state)] == [
        ChecklistState.NOT_APPLICABLE]
    assert not not_applicable("ON_HOLD") and word("ON_HOLD") is None


def test_the_labels_say_done_to_do_and_not_needed_in_words():
    assert WORDS[ChecklistState.NOT_APPLICABLE].label == "Not needed for this merchant"
    assert WORDS[ChecklistState.INCOMPLETE].label == WORDS[ChecklistState.PENDING].label == "To do"
    assert WORDS[ChecklistState.PENDING_REVIEW].awaiting_review


def test_the_done_words_are_those_the_table_marks_done():
    assert {"COMPLETE", "SUCCESS", "NOT_APPLICABLE", "PENDING_REVIEW"} == DONE_WORDS
