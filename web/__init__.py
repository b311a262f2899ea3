"""companion.web: the table's web page (top-level ``web/`` folder).

``create_app(session, pin)`` builds the Flask app around a ``GameSession``; ``companion serve``
runs it under waitress. Modules: ``app`` (the app and its error pages), ``api`` (JSON API, SSE,
MJPEG), ``streams`` (the long-lived responses), ``pin`` (the table PIN), ``payloads`` (request
validation), ``i18n`` (five languages), ``server`` (waitress), ``replay`` (the demo game at its
filmed pace), ``bench`` (``companion bench web``).
"""

from companion.web.app import create_app

__all__ = ["create_app"]
