"""The onboarding wizard: one page per step, drafts, sends and the sandbox scenario picker."""
