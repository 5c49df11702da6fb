"""Documents (step 6): uploads checked by content, stored outside static/, sent one per call."""
