"""What several features' pages share: request helpers, security headers, the forms' bases,
the error pages, CSRF protection, and what every onboarding step's page draws (the stepper,
the sandbox's scenarios)."""
