"""Partner Onboarding Portal: onboard a gateway's sub-merchants and take authorize-only payments."""
