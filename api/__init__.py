"""Interfaces: the ``sprawlscan`` command line and the FastAPI web service."""
