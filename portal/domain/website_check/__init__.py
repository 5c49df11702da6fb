"""The website check for merchants asking for cards: the merchant's website fetched (public
addresses only) and read for the pages and facts the gateway's review looks for."""
