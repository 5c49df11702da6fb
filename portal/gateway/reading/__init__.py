"""Reading the gateway's answers (docs/gateway-contract.md, "Reading answers").

The clients SEND the contract's one shape and READ every shape a source shows; an answer is
judged by what it says, never by its HTTP code alone. Every 2xx answer of both APIs passes
through this package on its way to the portal's one typed answer: :mod:`.payments` for the
payments API, :mod:`.onboarding` for the onboarding API.
"""
