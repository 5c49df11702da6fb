"""Onboarding a merchant: the nine steps, their drafts, and the calls to the gateway.

One question per module: ``steps`` (what each step sends, and how), ``drafts`` (how a draft
is versioned and saved), ``create`` (step 1's state machine), ``sending`` (how a step is sent
and a failure kept), ``queue`` (sends waiting for the gateway), ``gateway_record`` (what the
gateway's answers change on the merchant), ``status_history`` (how the status may move),
``progress`` (the stepper), ``locks``, ``reconcile`` (lost creates) and ``service`` (what the
wizard's buttons do with a step).
"""
