"""The browser app: ``ginrummy serve`` runs :func:`create_app` under uvicorn (see docs/web.md)."""

from .server import create_app

__all__ = ["create_app"]
