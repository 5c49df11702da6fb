"""What every page passes through and what several features' pages share: each request's id
and counters, request helpers, security headers, the forms' bases, the error pages, CSRF
protection, and what every onboarding step's page draws (the stepper, the sandbox's scenarios)."""
