"""What the gateway asks of a merchant (outstanding documents, an RFI's), answered by the
merchant on their link and reviewed by ops before it is sent."""
