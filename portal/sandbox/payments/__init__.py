"""The payments API (RS256 JWS): merchant keys, payments and their rules, the API's routes and
the hosted checkout page."""
