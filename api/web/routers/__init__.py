"""The service's routes, one module per group of endpoints."""
