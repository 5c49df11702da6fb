"""Email to sub-merchants: their verification link on request, reminders, editable templates."""
