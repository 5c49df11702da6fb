"""Pausing and deactivating live merchants: the stops, their reasons, and the gate a hold passes."""
