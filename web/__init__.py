"""companion.web: the Flask app (top-level web/ folder)."""
