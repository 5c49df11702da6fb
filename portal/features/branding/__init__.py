"""The partner's branding: the admins' settings page, the logo and the merchant pages' colours."""
