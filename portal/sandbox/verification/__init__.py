"""The hosted verification page a merchant completes in the partner's iframe (T&C, DigiLocker,
video KYC), its sessions, and the ticker that makes reviews and webhooks fall due."""
