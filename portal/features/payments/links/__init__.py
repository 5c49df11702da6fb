"""Payment links: "New hold" can email the customer a link of the portal that mints the
gateway's hosted checkout when it is opened, once, so the checkout's own 24 hours and single use
start then, however late the customer opens it. The staff resend or cancel it, and the hold's
page says whether it was opened and paid."""
