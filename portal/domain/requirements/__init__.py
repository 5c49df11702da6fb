"""What a merchant will need, before step 1: one table of rules following the gateway's
requirements page, by entity type, regulated sector and products, and each merchant's
checklist of it."""
