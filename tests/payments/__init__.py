"""Tests of the portal's payments pages."""
